#include <iostream>

#include "cli/commands.h"
#include "cli/indexing.h"

namespace abstracts::cli {

void add_index_command(CLI::App& app, Context& ctx, int& status) {
  auto* cmd = app.add_subcommand(
      "index", "Index files or folders of abstracts, remembered as the index's sources (none: sync every source)");
  auto request = std::make_shared<IndexRequest>();
  auto shard = std::make_shared<std::string>();
  cmd->add_option("paths", request->paths, "Files or folders to index");
  cmd->add_flag("-q,--quiet", request->quiet, "Print only errors");
  cmd->add_flag("-v,--verbose", request->verbose, "Say what was done with each file");
  cmd->add_flag("--zotero", request->zotero,
                "Index the Zotero library too: its database, found where Zotero keeps it (~/Zotero, or the data "
                "directory its settings name)");
  cmd->add_flag("-w,--watch", request->watch,
                "Then keep the index in step with its sources, indexing what changes, until interrupted");
  cmd->add_option("-g,--glob", request->globs,
                  "Index only the files of a folder that match GLOB, or leave out those that match !GLOB "
                  "(repeatable; remembered for the folder's syncs)")
      ->type_name("GLOB")
      ->allow_extra_args(false);
  cmd->add_flag("--strict", request->strict,
                "Fail a file with a record that cannot be read (malformed, or over a size limit), "
                "leaving the index as it was, rather than skip the record");
  cmd->add_option("--shard", *shard,
                  "Build shard K of N of a cluster: keep only the abstracts whose id hashes to it "
                  "(docs/scale-out.md)")
      ->type_name("K/N");
  auto vectors = std::make_shared<bool>(false);
  cmd->add_flag("--vectors", *vectors,
                "Then learn vectors of meaning from the index's abstracts, as `abstracts vectors build` does");
  cmd->fallthrough();
  cmd->callback([&ctx, &status, request, shard, vectors] {
    if (!shard->empty()) {
      const auto parsed = Shard::parse(*shard);
      if (!parsed) {
        throw Error("--shard wants K/N, a shard K of N with 1 <= K <= N <= 4096, not '" + *shard + "'",
                    "for example --shard 1/4 on the first of four machines");
      }
      request->shard = *parsed;
    }
    if (*vectors && request->watch) {
      throw Error("--vectors and --watch together: the watch would wait for the vectors",
                  "build the vectors first (abstracts index --vectors), then watch (abstracts index --watch); "
                  "what the watch indexes gets vectors from the stored words");
    }
    status = (request->watch ? run_watch(ctx, *request) : run_indexing(ctx, *request)) == 0 ? 0 : 2;
    if (*vectors && status == 0) {
      VectorsOptions options;
      if (!request->quiet) {
        options.on_progress = [](const std::string& what) { std::cerr << "abstracts: " << what << '\n'; };
      }
      Writer::open(ctx.index_dir()).build_vectors(options);
    }
  });
}

}  // namespace abstracts::cli
