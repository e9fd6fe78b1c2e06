#include <iostream>
#include <map>

#include "cli/commands.h"
#include "cli/printer.h"

namespace abstracts::cli {

void add_stats_command(CLI::App& app, Context& ctx, int& status) {
  struct Args {
    bool json = false;
    std::string by;
    std::size_t limit = 20;
    std::vector<std::string> query;
  };
  auto args = std::make_shared<Args>();
  auto* cmd = app.add_subcommand("stats", "Print statistics of the index, or counts of abstracts by a field");
  cmd->add_flag("--json", args->json, "Print one JSON object (with --by: one per value, JSON Lines)");
  cmd->add_option("--by", args->by,
                  "Count the abstracts by year (newest first), venue, category, author, Zotero tag or "
                  "collection (most first)")
      ->check(CLI::IsMember({"year", "venue", "category", "author", "tag", "collection"}));
  cmd->add_option("--limit", args->limit, "With --by: print at most this many values (0: all)")
      ->default_val(20)
      ->check(CLI::Range(0, 1000000000));
  cmd->add_option("query", args->query,
                  "With --by: count over the abstracts that match this query (docs/query-language.md)");
  cmd->fallthrough();
  cmd->callback([&ctx, &status, args] {
    // Not ctx.open_index(), which would build a missing default index first;
    // but a shard that fails is named, and left out under --allow-partial, as
    // for a search.
    OpenOptions options;
    options.allow_partial = ctx.allow_partial;
    options.on_shard_left_out = [](const ShardUnavailable& e) {
      std::cerr << "warning: " << escape_controls(e.what()) << "; counting the other shards\n";
    };
    Index index = Index::open(ctx.index_dir(), options);
    auto printer = make_printer(args->json, ctx);
    std::string query;
    for (const auto& word : args->query) query += (query.empty() ? "" : " ") + word;
    if (args->by.empty()) {
      if (!query.empty()) {
        throw Error("stats takes a query only with --by", "count a query's abstracts by a field: "
                                                          "`abstracts stats --by year " + query + "`");
      }
      printer->stats(index.stats());
      status = 0;
      return;
    }
    static const std::map<std::string, Facet> kFacets{
        {"year", Facet::kYear},     {"venue", Facet::kVenue}, {"category", Facet::kCategory},
        {"author", Facet::kAuthor}, {"tag", Facet::kTag},     {"collection", Facet::kCollection}};
    const auto counts = query.empty() ? index.facet_counts(kFacets.at(args->by), args->limit)
                                      : index.facet_counts(kFacets.at(args->by), query, args->limit);
    printer->facets(args->by, counts);
    // As for a search: 1 when there is nothing to show (no abstract has the field).
    status = counts.empty() ? 1 : 0;
  });
}

}  // namespace abstracts::cli
