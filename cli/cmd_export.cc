#include <filesystem>
#include <iostream>

#include "abstracts/export.h"
#include "cli/commands.h"
#include "cli/escape.h"

namespace abstracts::cli {

namespace {

struct ExportArgs {
  std::string format;
  std::vector<std::string> words;
  std::vector<std::string> ids;
};

// Exports the hits of `query`, best first, a page at a time: memory holds a
// page, not the whole answer. No spelling correction: that would export
// papers that were not asked for.
void export_query(const Index& index, const std::string& query, CitationWriter& writer) {
  constexpr std::size_t kPage = 1000;
  SearchOptions options;
  options.limit = kPage;
  options.snippets = false;
  options.correct_spelling = false;
  for (bool first = true;; first = false) {
    const SearchResults page = index.search(query, options);
    if (first && !page.notes.empty()) {
      std::string line;
      for (const auto& n : page.notes) line += (line.empty() ? "" : "; ") + n;
      std::cerr << "note: " << escape_controls(line) << '\n';
    }
    for (const auto& hit : page.hits) writer.write(hit.abstract);
    if (page.hits.size() < kPage) return;
    options.offset += page.hits.size();
  }
}

}  // namespace

void add_export_command(CLI::App& app, Context& ctx, int& status) {
  auto args = std::make_shared<ExportArgs>();
  auto* cmd = app.add_subcommand("export",
                                 "Print the abstracts a query matches (or those of --ids) as "
                                 "citations for a reference manager");
  cmd->add_option("--format", args->format, "bibtex, biblatex, ris or csl-json (one JSON array)")
      ->required()
      ->check(CLI::IsMember({"bibtex", "biblatex", "ris", "csl-json"}));
  auto* query = cmd->add_option(
      "query", args->words,
      "The query (several arguments are joined with spaces); every hit is exported, best first");
  auto* ids = cmd->add_option(
      "--ids", args->ids, "Export these abstracts instead, in this order (any id form show takes)");
  query->excludes(ids);
  ids->excludes(query);
  cmd->fallthrough();
  cmd->callback([&ctx, &status, args] {
    if (args->words.empty() && args->ids.empty()) {
      throw Error(
          "export needs a query or --ids",
          "abstracts export --format bibtex QUERY..., or --ids ID... (ids as search prints them)");
    }
    const Index index = ctx.open_index();
    // Paths under the current directory are written relative to it; others are left out.
    ExportOptions options;
    std::error_code error;
    options.relative_to = std::filesystem::current_path(error);
    CitationWriter writer(std::cout, *citation_format(args->format), options);
    if (!args->ids.empty()) {
      for_each_abstract(index, args->ids, [&](const std::string& id, const std::optional<Abstract>& found) {
        if (found) {
          writer.write(*found);
        } else {
          std::cerr << "abstracts: no abstract with id '" << escape_controls(id) << "'; left out\n";
        }
      });
    } else {
      std::string query;
      for (const auto& w : args->words) query += (query.empty() ? "" : " ") + w;
      export_query(index, query, writer);
    }
    writer.finish();
    if (writer.written() == 0) std::cerr << "abstracts: nothing to export\n";
    status = writer.written() > 0 ? 0 : 1;
  });
}

}  // namespace abstracts::cli
