#include <iostream>

#include "cli/commands.h"
#include "cli/printer.h"

namespace abstracts::cli {

void add_acronyms_command(CLI::App& app, Context& ctx, int& status) {
  auto json = std::make_shared<bool>(false);
  auto* cmd = app.add_subcommand("acronyms", "List the acronyms learned from the abstracts");
  cmd->add_flag("--json", *json, "Print JSON Lines, one object per definition");
  cmd->fallthrough();
  cmd->callback([&ctx, &status, json] {
    Index index = ctx.open_index();
    auto entries = index.acronyms();
    auto printer = make_printer(*json, ctx);
    for (const auto& e : entries) printer->acronym(e);
    status = entries.empty() ? 1 : 0;
  });
}

}  // namespace abstracts::cli
