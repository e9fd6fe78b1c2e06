#include <iostream>

#include "cli/commands.h"
#include "cli/printer.h"

namespace abstracts::cli {

void add_stats_command(CLI::App& app, Context& ctx, int& status) {
  auto json = std::make_shared<bool>(false);
  auto* cmd = app.add_subcommand("stats", "Print statistics of the index");
  cmd->add_flag("--json", *json, "Print one JSON object");
  cmd->fallthrough();
  cmd->callback([&ctx, &status, json] {
    Index index = Index::open(ctx.index_dir());
    auto printer = make_printer(*json, ctx);
    printer->stats(index.stats());
    status = 0;
  });
}

}  // namespace abstracts::cli
