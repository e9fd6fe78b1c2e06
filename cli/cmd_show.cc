#include <algorithm>
#include <iostream>

#include "cli/commands.h"
#include "cli/escape.h"
#include "cli/printer.h"

namespace abstracts::cli {

void add_show_command(CLI::App& app, Context& ctx, int& status) {
  auto ids = std::make_shared<std::vector<std::string>>();
  auto json = std::make_shared<bool>(false);
  auto* cmd = app.add_subcommand("show", "Print abstracts by id");
  cmd->add_option("ids", *ids, "Ids, as printed by search")->required();
  cmd->add_flag("--json", *json, "Print JSON Lines, one object per abstract");
  auto authors = std::make_shared<std::string>("10");
  cmd->add_option("--authors", *authors, "How many authors to print: 10 (then 'and N others') or all")
      ->check(CLI::IsMember({"10", "all"}))
      ->capture_default_str();
  cmd->fallthrough();
  cmd->callback([&ctx, &status, ids, json, authors] {
    ctx.all_authors = *authors == "all";
    Index index = ctx.open_index();
    auto printer = make_printer(*json, ctx);
    bool all_found = true;
    bool first = true;
    // A page of ids a call: one call each would see the index afresh each time.
    for (std::size_t from = 0; from < ids->size(); from += kIdsPerCall) {
      const std::vector<std::string> page(ids->begin() + static_cast<long>(from),
                                          ids->begin() + static_cast<long>(std::min(ids->size(), from + kIdsPerCall)));
      const auto found = index.get(page);
      for (std::size_t i = 0; i < page.size(); ++i) {
        if (!found[i]) {
          std::cerr << "abstracts: no abstract with id '" << escape_controls(page[i]) << "'\n";
          all_found = false;
          continue;
        }
        if (!first && !*json) std::cout << '\n';
        first = false;
        printer->abstract(*found[i]);
      }
    }
    status = all_found ? 0 : 1;
  });
}

}  // namespace abstracts::cli
