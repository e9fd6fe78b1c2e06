#include "cli/commands.h"

namespace abstracts::cli {

void add_index_command(CLI::App& app, Context& ctx, int& status) {
  auto* cmd = app.add_subcommand("index", "Index files or directories of abstracts (default: the bundled corpus)");
  auto paths = std::make_shared<std::vector<std::string>>();
  auto quiet = std::make_shared<bool>(false);
  cmd->add_option("paths", *paths, "Files or directories to index");
  cmd->add_flag("-q,--quiet", *quiet, "Print only errors");
  cmd->fallthrough();
  cmd->callback([&ctx, &status, paths, quiet] {
    status = run_indexing(ctx, *paths, *quiet) == 0 ? 0 : 2;
  });
}

}  // namespace abstracts::cli
