// A query's common words weighed from the index's impact tiers (engine/tiers.h),
// when it has them: the same hits and scores as plain terms, for a fraction of
// the postings.
#ifndef ABSTRACTS_QUERY_TIERS_H_
#define ABSTRACTS_QUERY_TIERS_H_

#include <filesystem>

#include <xapian.h>

#include "abstracts/search.h"

namespace abstracts::query {

class Deadline;

// Returns `query` with its tiered words, where each is weighed on its own (under
// OR, AND, AND_MAYBE, and the weighed side of AND_NOT and FILTER; not in a
// phrase, a synonym or a scaled subquery), matched through their tiers; or
// `query` itself when the index has no tiers for `db` as it is now, or for r's
// k1 and b, or the query has more than kMostTieredWords words (a question's
// many words bring the top hits' scores up together, and the tiers only add
// their cost: 20 -> 24 ms p50 at 1M on the matcher, 9046f44). `dir` is the index directory, `db` its one local
// database (not a cluster's). The side database is opened once per thread and
// index. Thread-safe; the query returned must be run on this thread, with
// `deadline` (may be null) alive.
Xapian::Query with_tiers(const std::filesystem::path& dir, const Xapian::Database& db, const Xapian::Query& query,
                         const RankingOptions& r, const Deadline* deadline);

inline constexpr std::size_t kMostTieredWords = 3;

}  // namespace abstracts::query

#endif  // ABSTRACTS_QUERY_TIERS_H_
