#include "cli/commands.h"

namespace abstracts::cli {

void add_index_command(CLI::App& app, Context& ctx, int& status) {
  auto* cmd = app.add_subcommand("index", "Index files or directories of abstracts (default: the bundled corpus)");
  auto paths = std::make_shared<std::vector<std::string>>();
  auto quiet = std::make_shared<bool>(false);
  auto shard = std::make_shared<std::string>();
  cmd->add_option("paths", *paths, "Files or directories to index");
  cmd->add_flag("-q,--quiet", *quiet, "Print only errors");
  cmd->add_option("--shard", *shard,
                  "Build shard K of N of a cluster: keep only the abstracts whose id hashes to it "
                  "(docs/scale-out.md)")
      ->type_name("K/N");
  cmd->fallthrough();
  cmd->callback([&ctx, &status, paths, quiet, shard] {
    Shard setting;
    if (!shard->empty()) {
      const auto parsed = Shard::parse(*shard);
      if (!parsed) {
        throw Error("--shard wants K/N, a shard K of N with 1 <= K <= N <= 4096, not '" + *shard + "'",
                    "for example --shard 1/4 on the first of four machines");
      }
      setting = *parsed;
    }
    status = run_indexing(ctx, *paths, *quiet, setting) == 0 ? 0 : 2;
  });
}

}  // namespace abstracts::cli
