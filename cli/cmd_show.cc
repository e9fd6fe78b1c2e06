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
    for_each_abstract(index, *ids, [&](const std::string& id, const std::optional<Abstract>& found) {
      if (!found) {
        std::cerr << "abstracts: no abstract with id '" << escape_controls(id) << "'\n";
        all_found = false;
        return;
      }
      if (!first && !*json) std::cout << '\n';
      first = false;
      printer->abstract(*found);
    });
    status = all_found ? 0 : 1;
  });
}

void for_each_abstract(const Index& index, const std::vector<std::string>& ids,
                       const std::function<void(const std::string& id, const std::optional<Abstract>& found)>& each) {
  constexpr std::size_t kPage = 1000;
  for (std::size_t from = 0; from < ids.size(); from += kPage) {
    const std::vector<std::string> page(ids.begin() + static_cast<std::ptrdiff_t>(from),
                                        ids.begin() + static_cast<std::ptrdiff_t>(std::min(ids.size(), from + kPage)));
    const auto found = index.get(page);
    for (std::size_t i = 0; i < page.size(); ++i) each(page[i], found[i]);
  }
}

}  // namespace abstracts::cli
