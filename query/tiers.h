// A query's common words weighed from the index's impact tiers (engine/tiers.h),
// when it has them: the same hits and scores as plain terms, for a fraction of
// the postings.
#ifndef ABSTRACTS_QUERY_TIERS_H_
#define ABSTRACTS_QUERY_TIERS_H_

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

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

// The name a tiered word is serialised under (Xapian::PostingSource::name()),
// which a serialised query holds once for each.
inline constexpr std::string_view kTieredWordName = "abstracts.TieredWord";

// What tiered words copied to another thread (Query::serialise, for
// query/parallel_match.h) are read back with: words that walk their tiers
// through a handle of their own on the index's side database (one no other
// thread uses, kept for the next TierCopies once this one is gone).
// Made on the searching thread with its handle `db` on the index in `dir`,
// then used by the other thread only.
class TierCopies {
 public:
  TierCopies(const std::filesystem::path& dir, const Xapian::Database& db);
  ~TierCopies();
  TierCopies(const TierCopies&) = delete;
  TierCopies& operator=(const TierCopies&) = delete;
  // Adds to `registry` what reads the copies, ticking `deadline` (may be null;
  // else it must outlive their match). False if the index has no tiers as
  // `db` sees it, or they were replaced since: no copy can be read.
  bool add_to(Xapian::Registry& registry, const Deadline* deadline) const;

 private:
  std::string path_;
  std::optional<Xapian::Database> side_;
  std::shared_ptr<const std::vector<Xapian::termcount>> lengths_;
};

}  // namespace abstracts::query

#endif  // ABSTRACTS_QUERY_TIERS_H_
