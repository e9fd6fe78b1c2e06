// Ranking: BM25 with the RankingOptions, the query as ranked (function words out
// of plain text, the title boost, pseudo-relevance feedback), and its hits in
// ranked order, a question's best ones scored up by proximity (query/proximity.h).
#ifndef ABSTRACTS_QUERY_RANKING_H_
#define ABSTRACTS_QUERY_RANKING_H_

#include <algorithm>
#include <cstddef>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include <xapian.h>

#include "abstracts/search.h"

namespace abstracts::query {

class Deadline;
class HitReads;
class ParallelMatch;
class PositionChecks;

// Xapian's BM25 that also ticks a Deadline for each posting it weighs, so that a
// match stops (QueryError) once past the search's time limit. Weighs exactly as
// Xapian::BM25Weight does.
class Bm25 : public Xapian::BM25Weight {
 public:
  // `deadline` may be null (no limit); else it must outlive every Enquire given this.
  Bm25(double k1, double b, const Deadline* deadline);

  double get_sumpart(Xapian::termcount wdf, Xapian::termcount doclen, Xapian::termcount uniqterms) const override;

 private:
  Bm25* clone() const override;

  double k1_, b_;
  const Deadline* deadline_;
};

// BM25 with the ranking options' parameters (k2 = 0, k3 = 1, min_normlen = 0.5 as
// in Xapian), keeping to `deadline` if given.
Bm25 bm25(const RankingOptions& r, const Deadline* deadline = nullptr);

// The weights rank() gave the words pseudo-relevance feedback added (a word of
// the query may be one of them too).
using FeedbackWeights = std::unordered_map<std::string, double>;

// A hit as ranked: where it is in its MSet, and its score, which is the MSet's
// weight unless proximity rescored it.
struct Ranked {
  Xapian::MSetIterator it;
  double score;
};

// Hits in ranked order, and the MSet they come from (or the first of the MSets,
// when the match ran in parts: query/parallel_match.h).
struct Ranking {
  Xapian::MSet mset;
  std::vector<Ranked> hits;
  bool rescored = false;  // by proximity
  // How many abstracts match: set when the match ran in parts, else mset's.
  struct Matches {
    Xapian::doccount lower, estimated, upper;
  };
  std::optional<Matches> matches = std::nullopt;
  Matches counted() const {
    return matches.value_or(
        Matches{mset.get_matches_lower_bound(), mset.get_matches_estimated(), mset.get_matches_upper_bound()});
  }
};

// The hits of `mset`, in its order, with its weights as their scores.
Ranking as_ranking(Xapian::MSet mset);

// Every match of `enquire`'s query, with the position checks of `checks` (if
// any) made on each, as an exact count makes them; a MatchSpy added to
// `enquire` sees each. `doccount` is the database's.
Xapian::MSet all_matches(Xapian::Enquire& enquire, PositionChecks* checks, Xapian::doccount doccount);

// Orders hits of equal score newest first, then by id, as one
// index and the shards of a cluster (which number documents differently) both
// can. (Xapian's remote backend takes a value slot, not a KeyMaker.)
void order_ties_by_id(Xapian::Enquire& enquire);

// Xapian's check_at_least for SearchOptions::count_matches_up_to.
inline Xapian::doccount check_at_least(const Xapian::Database& db, const SearchOptions& options) {
  return static_cast<Xapian::doccount>(std::min<std::size_t>(options.count_matches_up_to, db.get_doccount()));
}

// The number of distinct words `q` was written with: an acronym's or a
// wildcard's expansion (OP_SYNONYM) counts as the one word that was expanded
// ("LLM agents" is two words, not five).
std::size_t count_user_words(const Xapian::Query& q);

// Hits `offset` to `offset + limit` of `enquire`'s query. When `asked`, written
// with `user_words` distinct words (count_user_words), is a question or claim
// (RankingOptions::proximity_min_words), the best proximity_depth are first
// rescored by how close together they have its words. The MSet counts at least
// `check_at_least` matches exactly (Xapian's get_mset).
// With `ties_by_id`, hits of equal score are in order_ties_by_id()'s order;
// else in `enquire`'s own (`--sort date`). `enquire` is left as given.
// Proximity reads the hits through `reads` if given (query/hit_reads.h). A
// question's match runs through `parallel` if given (query/parallel_match.h),
// which splits it when it can: `enquire` must then rank by relevance with
// bm25() of the options `parallel` was made with.
Ranking best_hits(const Xapian::Database& db, Xapian::Enquire& enquire, const Xapian::Query& asked,
                  std::size_t user_words, const RankingOptions& r, std::size_t offset, std::size_t limit,
                  PositionChecks* checks, Xapian::doccount check_at_least = 0, bool ties_by_id = true,
                  HitReads* reads = nullptr, ParallelMatch* parallel = nullptr);

// The query as ranked: with a title boost and pseudo-relevance feedback when the
// options ask for them. The set of matches only grows for plain text (where
// everything is ORed anyway); query-language matches stay as the user wrote them.
// The feedback words' weights go to `feedback`. Feedback's passes keep to
// `deadline` if given. `remote`: `db` has remote shards (with_feedback()). The
// first pass's hits are read through `reads` if given, which keeps them for the
// search's final pass; its match runs through `parallel` if given (best_hits()).
Xapian::Query rank(Xapian::Database& db, Xapian::Query query, bool plain, const RankingOptions& r,
                   PositionChecks* checks, std::vector<std::string>* notes,
                   FeedbackWeights* feedback, const Deadline* deadline = nullptr, bool remote = false,
                   HitReads* reads = nullptr, ParallelMatch* parallel = nullptr);

}  // namespace abstracts::query

#endif  // ABSTRACTS_QUERY_RANKING_H_
