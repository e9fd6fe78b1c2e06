// A query's match over a large index on two cores. Xapian 1.4 matches on
// one thread; here the document numbers are split in two halves, each matched
// on a thread of its own with a database handle of its own (a Xapian::Database
// is not to be shared between threads), and the halves' best hits merged. Each
// abstract weighs what it weighs in one match (the halves share the whole
// index's statistics, and the filter that makes a half weighs nothing), and
// Xapian orders equal weights by document number, which the lower half's come
// first in: so the hits are exactly one match's, in its order. The phrases
// and groups the engine checks are checked by each thread over its own half.
#ifndef ABSTRACTS_QUERY_PARALLEL_MATCH_H_
#define ABSTRACTS_QUERY_PARALLEL_MATCH_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>

#include <xapian.h>

#include "abstracts/search.h"
#include "query/database_pool.h"
#include "query/ranking.h"

namespace abstracts::query {

class Deadline;
class PositionBudget;
class PositionChecks;
class TierCopies;

// The searches running in this process, counted while an InFlight is in scope
// (one per search): a search splits its match only while a core is left over
// for the helper, so many searches at once (a server's threads) run as before.
class InFlight {
 public:
  InFlight();
  ~InFlight();
  InFlight(const InFlight&) = delete;
  InFlight& operator=(const InFlight&) = delete;
  static int now();
};

// When a search splits a match: from an index of `from` abstracts
// (smaller ones take a few milliseconds, little more than a thread and a
// second handle cost), while fewer than `cores` searches run, for a query
// Xapian estimates at `matches` matches or more (a phrase of 5,000 estimated
// matches checks about 10,000 abstracts, some 20 ms at 1M; with fewer, the
// split costs more than it saves: median phrase 5.0 -> 6.1 ms at 1M).
struct ParallelPolicy {
  Xapian::doccount from = 250000;
  int cores = 0;  // 0: the machine's (std::thread::hardware_concurrency())
  Xapian::doccount matches = 5000;
};
// The process's policy; set_parallel_policy() is for tests, which split the
// matches of small indexes to compare them with one thread's. Thread-safe.
ParallelPolicy parallel_policy();
void set_parallel_policy(ParallelPolicy policy);

// One search's split matches. Not thread-safe: one per search, on its thread.
class ParallelMatch {
 public:
  // `db` is the search's handle from `pool`; `r`, `deadline` and `budget` (may
  // be null) as the search ranks, keeps time and bounds its position checks.
  // All must outlive this object.
  ParallelMatch(DatabasePool& pool, const Xapian::Database& db, const RankingOptions& r, const Deadline* deadline,
                PositionBudget* budget = nullptr);
  ~ParallelMatch();
  ParallelMatch(const ParallelMatch&) = delete;
  ParallelMatch& operator=(const ParallelMatch&) = delete;

  // Hits first..first+count of `query` as Xapian's get_mset ranks them by
  // relevance (bm25(r)), then document number, over `db`, with `checks` (may
  // be null) as the match decider: the abstracts it demotes on either thread
  // are its demoted() after. The count of the
  // matches (Ranking::matches) is the halves', each counting at least
  // `check_at_least` exactly, narrowed by the whole query's bounds: exact
  // wherever one match's is. nullopt when the match runs on one thread: a small
  // index, no core to spare, no second handle at `db`'s revision, no thread,
  // a query Xapian estimates at fewer than the policy's matches, a query
  // Xapian cannot copy to another thread (one with a posting source of the
  // engine's other than a phrase's filter, a tiered word or a DocumentList),
  // or tiered words without position checks (they skip most of their
  // postings: one thread matches them fast). Throws what get_mset throws, on
  // either thread (QueryError past the time limit or the position budget,
  // Xapian's errors).
  // Some hits read through a second handle, which this object keeps: they
  // must not outlive it.
  std::optional<Ranking> top(const Xapian::Query& query, std::size_t first, std::size_t count,
                             Xapian::doccount check_at_least = 0, PositionChecks* checks = nullptr);
  // How many matches were split so far in this process (for tests).
  static std::uint64_t splits();

 private:
  DatabasePool& pool_;
  const Xapian::Database& db_;
  RankingOptions r_;
  const Deadline* deadline_;
  PositionBudget* budget_;
  bool large_;
  std::unique_ptr<DatabasePool::Twin> twin_;  // opened at the first split
  bool no_twin_ = false;
  std::unique_ptr<TierCopies> tiers_;  // opened at the first split with tiered words
};

}  // namespace abstracts::query

#endif  // ABSTRACTS_QUERY_PARALLEL_MATCH_H_
