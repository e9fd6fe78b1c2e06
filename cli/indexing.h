// Running `abstracts index`: which sources to index, the demo corpus, and the
// summary on stderr.
#ifndef ABSTRACTS_CLI_INDEXING_H_
#define ABSTRACTS_CLI_INDEXING_H_

#include <string>
#include <vector>

#include "abstracts/abstracts.h"
#include "cli/context.h"

namespace abstracts::cli {

// What `abstracts index` is asked to do.
struct IndexRequest {
  // Files and folders to index; none: every source of the index again (a new
  // default index: the bundled demo corpus).
  std::vector<std::string> paths;
  std::vector<std::string> globs;  // -g: for the folders of `paths`
  bool quiet = false;              // no summary
  bool verbose = false;            // a line for each file
  bool watch = false;              // then keep the index in step until SIGINT or SIGTERM
  bool zotero = false;             // --zotero: the user's Zotero database too
  bool strict = false;             // a record that cannot be read fails its file
  Shard shard;                     // --shard
};

// Runs `request` on the index, printing errors, warnings and (unless quiet)
// the summary to stderr. Into the default index, the user's own files first
// make the demo corpus leave it (with a note). Returns the number of files
// that failed. A first run that indexed nothing (every file failed) leaves no
// index directory behind.
std::size_t run_indexing(const Context& ctx, const IndexRequest& request);

// With request.watch: after run_indexing, keeps the index in step with its
// sources (abstracts::watch), a line on stderr for each file it indexes or
// forgets, until SIGINT or SIGTERM. Returns the files that failed.
std::size_t run_watch(const Context& ctx, const IndexRequest& request);

// Builds the default index from the bundled corpus, its demo source.
std::size_t index_demo(const Context& ctx);

}  // namespace abstracts::cli

#endif  // ABSTRACTS_CLI_INDEXING_H_
