#include <iostream>
#include <optional>
#include <sstream>

#include "cli/commands.h"
#include "cli/escape.h"
#include "cli/printer.h"
#include "cli/queries_file.h"

namespace abstracts::cli {

void add_result_options(CLI::App& cmd, SearchOptions& options, bool& json) {
  cmd.add_option("-n,--limit", options.limit, "Show at most this many hits (0: all)")
      ->capture_default_str()
      ->check(CLI::Range(0, 1000000000));
  cmd.add_option("--offset", options.offset, "Skip this many of the best hits")->capture_default_str();
  cmd.add_flag("--json", json, "Print JSON Lines, one object per hit");
  cmd.add_flag("--explain", options.explain,
               "Say how the query was understood (on stderr) and why each hit scored as it did");
}

void add_meaning_options(CLI::App& cmd, bool& semantic, std::string& hybrid) {
  auto* by_meaning = cmd.add_flag("--semantic", semantic,
                                  "Rank by meaning alone: the abstracts whose vectors are nearest "
                                  "(needs `abstracts vectors build`)");
  std::ostringstream weight;
  weight << SearchOptions{}.hybrid_weight;
  auto* mixed = cmd.add_flag("--hybrid{" + weight.str() + "}", hybrid,
                             "Mix the ranking by words with the ranking by meaning; --hybrid=W gives the "
                             "words' share, 0 to 1 (default " + weight.str() + ")");
  by_meaning->excludes(mixed);
  mixed->excludes(by_meaning);
}

void set_mode(bool semantic, const std::string& hybrid, SearchOptions& options) {
  if (semantic) options.mode = SearchMode::kSemantic;
  if (hybrid.empty()) return;
  options.mode = SearchMode::kHybrid;
  std::size_t used = 0;
  try {
    options.hybrid_weight = std::stod(hybrid, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != hybrid.size() || !(options.hybrid_weight >= 0 && options.hybrid_weight <= 1)) {
    throw Error("--hybrid=" + hybrid + ": the weight must be a number from 0 to 1",
                "--hybrid=0.6 gives the ranking by words 60% of the score");
  }
}

namespace {

// The query language's notes on how it read the query, one line on stderr.
void print_notes(const SearchResults& results, const std::string& prefix) {
  if (results.notes.empty()) return;
  std::string line;
  for (const auto& n : results.notes) line += (line.empty() ? "" : "; ") + n;
  std::cerr << "note: " << prefix << escape_controls(line) << '\n';
}

struct SearchArgs {
  std::vector<std::string> words;
  std::string queries;  // --queries FILE, "-" for stdin
  SearchOptions options;
  bool json = false;
  bool count = false;
  std::string sort = "relevance";
  bool no_correct = false;
  bool no_acronyms = false;
  bool no_feedback = false;
  bool semantic = false;
  std::string hybrid;  // the weight, if --hybrid was given
};

// Runs one query and prints it, or with --count its number of matches; says on
// stderr what was corrected or re-read, naming the query by `label` in a batch
// ("" for a single query). Returns the number of hits printed (or counted).
std::size_t search_one(const Index& index, const std::string& query, const SearchArgs& args, Printer& printer,
                       const std::string& label) {
  const std::string prefix = label.empty() ? "" : "query " + escape_controls(label) + ": ";
  if (args.count) {
    SearchOptions options = args.options;
    options.count_matches_up_to = SIZE_MAX;
    options.limit = 1;
    options.offset = 0;
    options.snippets = false;
    options.correct_spelling = false;  // the count of what was typed, as grep -c
    const SearchResults results = index.search(query, options);
    print_notes(results, prefix);
    printer.count(label, results.estimated_matches);
    return results.estimated_matches;
  }
  std::string searched = query;
  auto fetch = [&](const SearchOptions& options, bool first) {
    SearchResults results = index.search(searched, options);
    if (first && results.corrected) {
      std::cerr << "abstracts: " << prefix << "nothing found for " << quote_query(query) << "; showing results for "
                << quote_query(results.suggestion) << '\n';
      searched = results.suggestion;  // and so for the pages after this one
    } else if (first && !results.suggestion.empty()) {
      std::cerr << "abstracts: " << prefix << "did you mean " << quote_query(results.suggestion) << "?\n";
    }
    if (first) print_notes(results, prefix);
    return results;
  };
  return print_hits(printer, args.options, fetch);
}

// --queries: one query per line (QueriesFile). A query that fails is reported
// and the batch goes on; a line that is no query (not UTF-8, say) ends it with
// the error. Exit status: 2 if any query failed, else 0 if any found something,
// else 1.
int search_batch(const Context& ctx, const Index& index, QueriesFile& queries, const SearchArgs& args,
                 Printer& printer) {
  bool found = false, failed = false;
  QueryLine line;
  while (queries.next(line)) {
    try {
      if (!args.count) printer.query(line.id, line.query);
      if (search_one(index, line.query, args, printer, line.id) > 0) found = true;
    } catch (const Error& e) {
      failed = true;
      std::cerr << "error: query " << escape_controls(line.id) << ": " << escape_controls(e.what()) << '\n';
      if (const std::string hint = cli_hint(e, ctx); !hint.empty()) {
        std::cerr << "hint: " << escape_controls(hint) << '\n';
      }
    }
  }
  return failed ? 2 : found ? 0 : 1;
}

}  // namespace

void add_search_command(CLI::App& app, Context& ctx, int& status) {
  auto args = std::make_shared<SearchArgs>();
  auto* cmd = app.add_subcommand("search", "Search the index; see docs/query-language.md");
  auto* query = cmd->add_option("query", args->words, "The query (several arguments are joined with spaces)");
  auto* queries = cmd->add_option("--queries", args->queries,
                                  "Run each line of this file (- for standard input) as a query; "
                                  "a line may start with an id and a tab");
  query->excludes(queries);
  queries->excludes(query);
  add_result_options(*cmd, args->options, args->json);
  cmd->add_flag("-c,--count", args->count, "Print only the number of matching abstracts");
  cmd->add_option("--sort", args->sort,
                  "Order of the hits: relevance (best first), date (newest first) or oldest (oldest first)")
      ->check(CLI::IsMember({"relevance", "date", "oldest"}))
      ->capture_default_str();
  cmd->add_flag("--no-correct", args->no_correct,
                "Do not search for a spelling correction when the query finds nothing");
  cmd->add_flag("--no-acronyms", args->no_acronyms, "Do not expand learned acronyms");
  cmd->add_flag("--no-feedback", args->no_feedback,
                "Do not rank queries of four or more words with pseudo-relevance feedback");
  add_meaning_options(*cmd, args->semantic, args->hybrid);
  cmd->fallthrough();
  cmd->callback([&ctx, &status, args] {
    if (args->words.empty() && args->queries.empty()) {
      throw Error("search needs a query", "abstracts search QUERY..., or abstracts search --queries FILE");
    }
    args->options.sort = args->sort == "date"     ? SortOrder::kDate
                         : args->sort == "oldest" ? SortOrder::kOldest
                                                  : SortOrder::kRelevance;
    args->options.correct_spelling = !args->no_correct;
    args->options.expand_acronyms = !args->no_acronyms;
    if (args->no_feedback) args->options.ranking.feedback_min_words = 0;
    set_mode(args->semantic, args->hybrid, args->options);
    // The file first: its errors need no index, nor the bundled corpus indexed.
    std::optional<QueriesFile> queries;
    if (!args->queries.empty()) queries.emplace(args->queries);
    const Index index = ctx.open_index();
    auto printer = make_printer(args->json, ctx);
    if (queries) {
      status = search_batch(ctx, index, *queries, *args, *printer);
      return;
    }
    std::string query;
    for (const auto& w : args->words) query += (query.empty() ? "" : " ") + w;
    status = search_one(index, query, *args, *printer, "") == 0 ? 1 : 0;
  });
}

}  // namespace abstracts::cli
