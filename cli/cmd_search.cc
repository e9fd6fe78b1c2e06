#include <iostream>

#include "cli/commands.h"
#include "cli/printer.h"

namespace abstracts::cli {

void add_search_command(CLI::App& app, Context& ctx, int& status) {
  struct Args {
    std::vector<std::string> words;
    SearchOptions options;
    bool json = false;
  };
  auto args = std::make_shared<Args>();
  auto* cmd = app.add_subcommand("search", "Search the index; see docs/query-language.md");
  cmd->add_option("query", args->words, "The query (several arguments are joined with spaces)")->required();
  cmd->add_option("-n,--limit", args->options.limit, "Show at most this many hits")
      ->capture_default_str()
      ->check(CLI::Range(1, 100000));
  cmd->add_option("--offset", args->options.offset, "Skip this many of the best hits")->capture_default_str();
  cmd->add_flag("--json", args->json, "Print JSON Lines, one object per hit");
  cmd->fallthrough();
  cmd->callback([&ctx, &status, args] {
    std::string query;
    for (const auto& w : args->words) query += (query.empty() ? "" : " ") + w;
    Index index = ctx.open_index();
    SearchResults results = index.search(query, args->options);
    auto printer = args->json ? make_json_printer(std::cout) : make_text_printer(std::cout, ctx.use_color());
    for (const auto& hit : results.hits) printer->hit(hit);
    status = results.hits.empty() ? 1 : 0;
  });
}

}  // namespace abstracts::cli
