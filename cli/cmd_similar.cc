#include <iostream>

#include "cli/commands.h"
#include "cli/escape.h"
#include "cli/printer.h"

namespace abstracts::cli {

void add_similar_command(CLI::App& app, Context& ctx, int& status) {
  struct Args {
    std::vector<std::string> ids;
    SearchOptions options;
    bool json = false;
    bool semantic = false;
    std::string hybrid;
    bool lexical = false;
  };
  auto args = std::make_shared<Args>();
  auto* cmd = app.add_subcommand("similar", "Find abstracts like the given ones (which are left out)");
  cmd->add_option("ids", args->ids, "Ids, as printed by search")->required();
  add_result_options(*cmd, args->options, args->json);
  add_meaning_options(*cmd, args->semantic, args->hybrid);
  cmd->add_flag("--lexical", args->lexical,
                "Find likeness by words alone; without it, an index with vectors mixes in meaning (--hybrid)")
      ->excludes("--semantic")
      ->excludes("--hybrid");
  cmd->fallthrough();
  cmd->callback([&ctx, &status, args] {
    set_mode(args->semantic, args->hybrid, args->options);
    if (args->lexical) args->options.mode = SearchMode::kLexical;
    Index index = ctx.open_index();
    for_each_abstract(index, args->ids, [](const std::string& id, const std::optional<Abstract>& found) {
      if (!found) std::cerr << "abstracts: no abstract with id '" << escape_controls(id) << "'\n";
    });
    auto fetch = [&](const SearchOptions& options, bool) { return index.similar(args->ids, options); };
    status = print_hits(*make_printer(args->json, ctx), args->options, fetch) == 0 ? 1 : 0;
  });
}

}  // namespace abstracts::cli
