// Search options and results.
#ifndef ABSTRACTS_SEARCH_H_
#define ABSTRACTS_SEARCH_H_

#include <cstddef>
#include <string>
#include <vector>

#include "abstracts/abstract.h"

namespace abstracts {

// How Index::search() reads its query text.
enum class QuerySyntax {
  kQueryLanguage,  // operators, phrases, fields: docs/query-language.md
  kPlainText,      // every word of the text, combined with the default operator;
                   // no character is special (for natural-language queries)
};

// How hits are scored. The defaults are the ones measured in docs/relevance.md.
struct RankingOptions {
  // BM25's term-frequency saturation and length normalisation. k1 is above
  // Robertson's classic 1.2 because the index already counts a title word three
  // times (engine/schema.h); Xapian's own defaults are k1 = 1, b = 0.5.
  double k1 = 1.8;
  double b = 0.75;
  // Extra query-time weight for query words found in the title (0: none). The
  // index weights title words already; this costs one more posting list per word.
  double title_weight = 0.0;
  // For QuerySyntax::kPlainText: leave English function words ("which",
  // "however") out of the query, unless nothing else is left.
  bool plain_text_stopwords = false;
  // Pseudo-relevance feedback (RM3, as Anserini runs it), for questions and
  // claims: a query with at least `feedback_min_words` distinct words (an acronym
  // or a wildcard counts as one, whatever it expands to) is run twice. The second
  // time it is widened with the `feedback_terms` words that best describe its
  // `feedback_docs` best hits (words found in more than a tenth of the abstracts
  // are never chosen), which have `feedback_weight` of that feedback query's
  // weight; a hit's score is then `feedback_mix` (0 to 1) of its feedback query's
  // score and the rest its query's, each divided by its best hit's. Plain text
  // finds more abstracts so; the query language's matches stay the same and only
  // their order changes. Keyword queries (up to three words) are never widened; a
  // widened query costs about 2.5 times as much (docs/performance.md).
  // feedback_min_words = 0 or feedback_mix = 0 turns feedback off.
  unsigned feedback_min_words = 4;
  unsigned feedback_docs = 10;
  unsigned feedback_terms = 10;
  double feedback_weight = 0.3;
  double feedback_mix = 0.3;
  // Proximity, for the same questions and claims: a query with at least
  // `proximity_min_words` distinct words has its `proximity_depth` best hits
  // rescored (and feedback picks its hits from them so rescored). A hit's score
  // is multiplied by 1 + proximity_weight x the share of the query words' idf
  // that its best stretch of `proximity_window` words holds (stop words count;
  // the title is a stretch of its own; an acronym or a wildcard is one word,
  // found where any of its spellings is). proximity_weight = 0 turns it off.
  double proximity_weight = 0.5;
  unsigned proximity_window = 30;
  unsigned proximity_depth = 30;
  unsigned proximity_min_words = 4;
};

// The order of the hits.
enum class SortOrder {
  kRelevance,  // best first (BM25, with feedback and proximity as RankingOptions say)
  kDate,       // newest first (year, month, day as known), then best first; undated last
  kOldest,     // oldest first, then best first; undated last
};

// What ranks the hits: the words, or the meaning (docs/query-language.md,
// "Search by meaning"). Meaning needs the index's vectors (Writer::build_vectors,
// `abstracts vectors build`); without them a search by meaning throws Error with
// a hint to build them. Not on a cluster with remote shards (xapian-tcpsrv
// serves no vectors), nor with SortOrder::kDate or kOldest: Error.
enum class SearchMode {
  kAuto,      // the measured best (docs/relevance.md): search() ranks by words
              // (kLexical); similar() mixes in meaning (kHybrid) when the index has
              // vectors (not on a cluster with remote shards)
  kLexical,   // BM25, with feedback and proximity as RankingOptions say
  kSemantic,  // the abstracts whose vectors are nearest the query's words' (cosine);
              // every abstract with a vector matches, the query's syntax is ignored
  kHybrid,    // the lexical ranking's best 100 and the 100 nearest, each score
              // scaled to 0..1 over them, mixed: hybrid_weight x lexical +
              // (1 - hybrid_weight) x cosine; past those, the lexical ranking's
              // rest in its order, scored 0
};

struct SearchOptions {
  std::size_t limit = 10;   // at most this many hits
  std::size_t offset = 0;   // skip this many of the best hits first
  bool snippets = true;     // fill Hit::snippet
  std::size_t snippet_chars = 240;  // rough snippet length, in characters
  QuerySyntax syntax = QuerySyntax::kQueryLanguage;
  SortOrder sort = SortOrder::kRelevance;
  // When the query matches nothing and a spelling correction of it matches
  // something, return the corrected query's hits (SearchResults::corrected).
  bool correct_spelling = true;
  // Let an acronym written in capitals also match its long forms learned from
  // the index ("ICL" -> "in-context learning"), and a phrase its acronym.
  bool expand_acronyms = true;
  // Fill SearchResults::parsed and ::expansions and Hit::explanation.
  bool explain = false;
  // Only these abstracts can be hits (by id; an unknown id is ignored); empty:
  // every abstract. Ranking and spelling correction are as in a search of the
  // whole index: a reading list's search (examples/reading-list/). Safer than
  // adding id: clauses to the query text, which the query language's reading
  // of prose (an unbalanced parenthesis closed or left out) could undo.
  std::vector<std::string> within_ids{};
  // Count the matches exactly when there are at most this many (Lucene's
  // track_total_hits): then SearchResults::exact_matches is true. 0 (the
  // fastest): Xapian's estimate. SIZE_MAX: always exact, at the cost of a pass
  // over every match (for a phrase, a positions check of each).
  std::size_t count_matches_up_to = 0;
  // Stop a search still running after this many seconds with a QueryError
  // (0: no limit). A real question takes milliseconds; docs/query-language.md,
  // "Limits", has this and the bounds of the query text itself.
  double time_limit = 10;
  RankingOptions ranking{};
  SearchMode mode = SearchMode::kAuto;
  // The lexical score's share (0 to 1) for SearchMode::kHybrid: the best on
  // SciFact's training questions, from a plateau of 0.5 to 0.7 (docs/relevance.md).
  double hybrid_weight = 0.6;
};

// One query term's part in a hit's score (SearchOptions::explain).
struct TermWeight {
  std::string term;   // index term, folded and stemmed ("attent"); "title:attent" for a
                      // title word (title:, or RankingOptions::title_weight's boost)
  double weight = 0;  // its part of the hit's score: its BM25 weight in this abstract,
                      // times the boost for a boosted title word. The term "proximity"
                      // (no stem is spelled so) is what proximity rescoring added.
                      // A hybrid score's two parts are "lexical" and "vector".
};

// A byte range [begin, end) of Snippet::text that matched the query.
struct Highlight {
  std::size_t begin = 0;
  std::size_t end = 0;
};

struct Snippet {
  std::string text;                   // display text, "…" where cut
  std::vector<Highlight> highlights;  // ascending, non-overlapping
};

struct Hit {
  std::size_t rank = 0;  // 1-based, counting from the best hit (offset included)
  double score = 0;      // BM25 score (rescored by proximity for a question);
                         // only comparable within one search. SearchMode::kSemantic:
                         // the cosine; kHybrid: the mixed score
  Abstract abstract;
  Snippet snippet;       // empty unless SearchOptions::snippets
  std::vector<TermWeight> explanation;  // empty unless SearchOptions::explain
};

struct SearchResults {
  std::vector<Hit> hits;
  // The number of matching abstracts in the whole index: Xapian's estimate,
  // exact when `exact_matches` (see SearchOptions::count_matches_up_to).
  std::size_t estimated_matches = 0;
  bool exact_matches = false;
  // The number of abstracts in the index searched.
  std::size_t indexed_abstracts = 0;
  // "Did you mean": the query with each word the index does not have replaced
  // by the closest word it has; "" when every word is known (or none is close).
  std::string suggestion;
  // True when the query matched nothing and `hits` are those of `suggestion`.
  bool corrected = false;
  // What the query language read otherwise than its syntax would, to make sense
  // of prose (docs/query-language.md): one line each, such as `"examples:" is no
  // field: read as a word`. Empty for a query that says what it means.
  std::vector<std::string> notes;
  // How the query was understood (SearchOptions::explain): the Xapian query,
  // and one line per expansion applied (stems, acronyms, wildcards).
  std::string parsed;
  std::vector<std::string> expansions;
};

}  // namespace abstracts

#endif  // ABSTRACTS_SEARCH_H_
