// What every subcommand shares: where the index and corpus are, colour, output.
#ifndef ABSTRACTS_CLI_CONTEXT_H_
#define ABSTRACTS_CLI_CONTEXT_H_

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

#include "abstracts/abstracts.h"

namespace abstracts::cli {

struct Context {
  std::string index_option;  // --index, "" if not given
  std::string color = "auto";
  bool allow_partial = false;  // --allow-partial
  bool all_authors = false;    // show --authors all: every author, not the first ten

  // The index directory: --index, else $ABSTRACTS_INDEX, else
  // $XDG_DATA_HOME/abstracts/index, else ~/.local/share/abstracts/index.
  std::filesystem::path index_dir() const;
  // True when neither --index nor $ABSTRACTS_INDEX chose the directory.
  bool index_is_default() const;

  // The bundled corpus: $ABSTRACTS_CORPUS, else <prefix>/share/abstracts/corpus
  // next to an installed binary, else the source tree's corpus/.
  std::filesystem::path corpus_dir() const;

  // Whether to colour standard output: --color always/never, or for auto,
  // a terminal with NO_COLOR unset or empty and TERM not "dumb".
  bool use_color() const;

  // Opens the index (or cluster) for reading. If the default index does not
  // exist yet, it is first built from the bundled corpus (saying so on stderr).
  // A shard left out (--allow-partial) is named on stderr.
  Index open_index() const;
};

// The hint the command line gives for `e`: the library's hints speak of its API
// (abstracts::Writer), so for a missing, locked or damaged index or cluster (and
// a cluster file's errors) the CLI says which `abstracts index` command to run,
// or how a cluster file reads, instead. Other hints are the library's.
std::string cli_hint(const Error& e, const Context& ctx);

// Prints the error and its hint (cli_hint) to stderr as "error: ..." / "hint: ...".
void print_error(const std::exception& e, const Context& ctx);

// `path` relative to the current directory when it lies below it, else as is.
std::string display_path(const std::string& path);

// A query as stderr names it, escaped (escape_controls) and quoted so that it
// can be typed again: "sparse attention", but '"galaxy cluster"' for a query
// with double quotes in it, as a shell would need it.
std::string quote_query(std::string_view query);

// A time in seconds since 1970: "2026-12-04 15:20" in the local time zone, for
// people; "2026-12-04T15:20:07Z", for programs.
std::string local_time(std::int64_t seconds);
std::string utc_time(std::int64_t seconds);

// "1 abstract", "2 abstracts": `n` and the noun, plural unless n is 1.
std::string count_of(std::size_t n, const char* noun);

}  // namespace abstracts::cli

#endif  // ABSTRACTS_CLI_CONTEXT_H_
