#include "query/hits.h"

#include <iterator>
#include <string>
#include <unordered_set>
#include <utility>

#include "engine/analysis/analyzer.h"
#include "engine/schema.h"
#include "query/explain.h"
#include "query/hit_reads.h"
#include "query/snippet.h"

namespace abstracts::query {

void fill_hits(Xapian::Database& db, const compression::Decompressor& stored, const Xapian::Query& query,
               const Xapian::Query& asked, const FeedbackWeights& feedback, const Ranking& ranking,
               const SearchOptions& options, SearchResults& results, HitReads* reads) {
  const std::unordered_set<std::string> asked_terms(asked.get_unique_terms_begin(), asked.get_unique_terms_end());
  std::unordered_set<std::string> terms;  // highlighted: the user's words, not feedback's
  for (auto t = query.get_unique_terms_begin(); t != query.get_unique_terms_end(); ++t) {
    if (feedback.contains(*t) && !asked_terms.contains(*t)) continue;
    if (schema::is_word_term(*t)) {
      terms.insert(*t);
    } else if (schema::is_title_term(*t)) {
      terms.insert((*t).substr(schema::kTitlePrefix.size()));  // title:word highlights the word
    }
  }
  const Ranking::Matches matches = ranking.counted();
  results.estimated_matches = matches.estimated;
  results.exact_matches = matches.lower == matches.upper;
  results.indexed_abstracts = db.get_doccount();
  std::size_t rank = options.offset;
  // The hits' documents not read yet, through their MSet (on a cluster, a
  // message each to a remote shard: the fewer the better).
  auto read = [&](Xapian::docid id) { return reads != nullptr && reads->has(id); };
  for (const auto& hit : ranking.hits) {
    if (!read(*hit.it)) hit.it.mset.fetch(hit.it, std::next(hit.it));  // its own MSet (a split match has two)
  }
  for (const auto& [it, score] : ranking.hits) {
    Hit hit;
    hit.rank = ++rank;
    hit.score = score;
    hit.abstract = schema::stored_abstract(read(*it) ? reads->document(*it) : it.get_document(), *it, stored);
    if (options.snippets) {
      hit.snippet = make_snippet(hit.abstract.text, terms, options.snippet_chars, analysis::thread_analyzer());
    }
    if (options.explain) {
      hit.explanation = explain_hit(db, query, asked_terms, hit.abstract.id, options.ranking, feedback);
      if (score > it.get_weight()) hit.explanation.push_back({"proximity", score - it.get_weight()});
    }
    results.hits.push_back(std::move(hit));
  }
}

}  // namespace abstracts::query
