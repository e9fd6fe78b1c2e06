#include <iostream>

#include "cli/commands.h"
#include "cli/printer.h"

namespace abstracts::cli {

void add_result_options(CLI::App& cmd, SearchOptions& options, bool& json) {
  cmd.add_option("-n,--limit", options.limit, "Show at most this many hits")
      ->capture_default_str()
      ->check(CLI::Range(1, 100000));
  cmd.add_option("--offset", options.offset, "Skip this many of the best hits")->capture_default_str();
  cmd.add_flag("--json", json, "Print JSON Lines, one object per hit");
  cmd.add_flag("--explain", options.explain,
               "Say how the query was understood (on stderr) and why each hit scored as it did");
}

void add_search_command(CLI::App& app, Context& ctx, int& status) {
  struct Args {
    std::vector<std::string> words;
    SearchOptions options;
    bool json = false;
    bool no_correct = false;
    bool no_acronyms = false;
    bool no_feedback = false;
  };
  auto args = std::make_shared<Args>();
  auto* cmd = app.add_subcommand("search", "Search the index; see docs/query-language.md");
  cmd->add_option("query", args->words, "The query (several arguments are joined with spaces)")->required();
  add_result_options(*cmd, args->options, args->json);
  cmd->add_flag("--no-correct", args->no_correct,
                "Do not search for a spelling correction when the query finds nothing");
  cmd->add_flag("--no-acronyms", args->no_acronyms, "Do not expand learned acronyms");
  cmd->add_flag("--no-feedback", args->no_feedback,
                "Do not rank queries of four or more words with pseudo-relevance feedback");
  cmd->fallthrough();
  cmd->callback([&ctx, &status, args] {
    std::string query;
    for (const auto& w : args->words) query += (query.empty() ? "" : " ") + w;
    args->options.correct_spelling = !args->no_correct;
    args->options.expand_acronyms = !args->no_acronyms;
    if (args->no_feedback) args->options.ranking.feedback_min_words = 0;
    Index index = ctx.open_index();
    std::string searched = query;
    auto fetch = [&](const SearchOptions& options, bool first) {
      SearchResults results = index.search(searched, options);
      if (first && results.corrected) {
        std::cerr << "abstracts: nothing found for \"" << escape_controls(query) << "\"; showing results for \""
                  << escape_controls(results.suggestion) << "\"\n";
        searched = results.suggestion;  // and so for the pages after this one
      } else if (first && !results.suggestion.empty()) {
        std::cerr << "abstracts: did you mean \"" << escape_controls(results.suggestion) << "\"?\n";
      }
      if (first && !results.notes.empty()) {
        std::string line;
        for (const auto& n : results.notes) line += (line.empty() ? "" : "; ") + n;
        std::cerr << "note: " << escape_controls(line) << '\n';
      }
      return results;
    };
    status = print_hits(args->options, args->json, ctx.use_color(), fetch) == 0 ? 1 : 0;
  });
}

}  // namespace abstracts::cli
