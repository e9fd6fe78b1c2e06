// Phrases, NEAR and ADJ over the positions the index keeps in a value
// (engine/positions.h): Xapian's OP_PHRASE and OP_NEAR read its position table,
// which this index does not write.
#ifndef ABSTRACTS_QUERY_POSITIONAL_H_
#define ABSTRACTS_QUERY_POSITIONAL_H_

#include <atomic>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include <xapian.h>

namespace abstracts::query {

enum class WordOrder { kAsWritten, kAny };

// Words that must be near each other: all of `terms` within a window of `window`
// positions, in the order given (a phrase, ADJ) or in any order (NEAR), each word
// at its own position, as Xapian's OP_PHRASE and OP_NEAR count windows. A single
// term is just that term.
struct Words {
  WordOrder order = WordOrder::kAsWritten;
  std::vector<std::string> terms;
  Xapian::termcount window = 0;
};

// The position check of a phrase or proximity group, shared by the filter
// that runs it inside a query and, once deferred, by PositionChecks.
class PositionCheck;
using PositionCheckRef = std::shared_ptr<PositionCheck>;

// A query and the position check it carries (null for a single term).
struct PositionalQuery {
  Xapian::Query query;
  PositionCheckRef check;
};

class Deadline;

// The bound on a search's position checks (docs/query-language.md, "Limits"):
// how many times an abstract's positions may be checked for a phrase or group,
// summed over the query's phrases and the passes of its ranking. A query of
// phrases takes time in proportion (about 2 us a check), and a phrase of the
// commonest words may need a check of half the abstracts: fifty of them took
// 4-5 s. An abstract checked again for the same phrase in the same search
// costs nothing (PositionValues keeps the answers). One per search; its
// threads (query/parallel_match.h) may spend it at once.
class PositionBudget {
 public:
  // About a second of checks: enough to count the matches of a phrase of the
  // commonest words exactly on a million arXiv abstracts ("we propose" checks
  // 9,385 of 20,000 for `search --count`), not for 50 such phrases on 20,000
  // (174,285 checks) once the index is a few times larger.
  static constexpr std::size_t kDefaultLimit = 500000;

  explicit PositionBudget(std::size_t limit = kDefaultLimit) : limit_(limit) {}

  // Counts one check; throws QueryError (column 1) once past the limit.
  void spend();
  std::size_t spent() const { return spent_.load(std::memory_order_relaxed); }
  std::size_t limit() const { return limit_; }

 private:
  std::size_t limit_;
  std::atomic<std::size_t> spent_{0};
};

// What the position checks of one query share: the search's deadline, which
// they tick for each abstract they read (null: none; else it must outlive the
// query), its position budget (null: none; else it must outlive the query),
// the positions values they read lately, so that the checks of many phrases
// read an abstract's value once between them, not once each, and the answers
// they gave, so that the same phrase written twice, or an abstract asked about
// again by another pass of the ranking, is checked once. The query must run on
// one database.
//
// With `xapian_positions`, for the shards of a cluster (engine/cluster.h), the
// checks are Xapian's own OP_PHRASE and OP_NEAR over its position table, which
// shards keep: a PostingSource cannot run inside xapian-tcpsrv, nor a
// MatchDecider on a remote database. The matches and the ranking are the same.
// The budget does not apply to them (the cluster file's timeout bounds each
// shard's work).
class PositionValues;
using PositionValuesRef = std::shared_ptr<PositionValues>;
PositionValuesRef position_values(const Deadline* deadline, bool xapian_positions = false,
                                  PositionBudget* budget = nullptr);

// The abstracts with `words`, ranked like the AND of its terms (a word it
// repeats weighs as often). Its check shares `values` (its own if null).
PositionalQuery words_query(const Words& words, const PositionValuesRef& values = nullptr);

// The abstracts with any of `spellings`, ranked as one term (Xapian's OP_SYNONYM):
// an acronym and its long forms. `values` as for words_query().
PositionalQuery synonym_query(const std::vector<Words>& spellings, const PositionValuesRef& values = nullptr);

// Position checks done after ranking. A query must match for its abstract to be
// a hit; when it cannot match without a phrase (the phrase is ANDed, or the
// whole query), checking that phrase can wait until an abstract's weight would
// put it in the top hits: a Xapian::MatchDecider, which the matcher asks only
// then. Checking every candidate in the filter instead costs ~2 us each, 40 ms
// for "large language models" over 115k arXiv abstracts (docs/performance.md).
//
// A phrase the query can match without ("LLM agents", where LLM's long form is
// a phrase) can wait too: ranked as if it held wherever its words are, an
// abstract weighs at least what it truly weighs. An abstract with the words but
// not the phrase that would rank among the best is refused here and kept in
// demoted(), for the ranking to weigh again with the phrase checked
// (query/ranking.h); every other abstract weighs what it truly does.
// Thread-compatible: one per search, over the database it searches.
class PositionChecks : public Xapian::MatchDecider {
 public:
  explicit PositionChecks(const Xapian::Database& db);
  ~PositionChecks() override;

  // Moves `check` (if any) here: its filter in the query passes everything
  // from now on. Only for a check the query cannot match without. A check
  // that Xapian's positions run stays in the query.
  void defer(const PositionCheckRef& check);
  // As defer(), for a check of a part the query can match without, where
  // matching more abstracts only adds hits (not under NOT or XOR).
  void defer_optional(const PositionCheckRef& check);
  bool empty() const { return checks_.empty() && optional_.empty(); }
  std::size_t size() const { return checks_.size(); }  // required
  std::size_t optional_size() const { return optional_.size(); }

  // Whether optional checks wait for the best candidates (the default), or
  // run in the query's filters again, exactly: for a pass over the demoted
  // abstracts, or one that counts every match.
  bool has_optional() const { return !optional_.empty(); }
  void check_optional_in_query(bool in_query);

  // The abstracts refused since the last clear_demoted() for lacking an
  // optional phrase whose words they have, in increasing docid order.
  const std::vector<Xapian::docid>& demoted() const { return demoted_; }
  void clear_demoted() { demoted_.clear(); }

  // Asked about abstracts that match the query, in increasing docid order.
  bool operator()(const Xapian::Document& doc) const override;

  // For a match split over two threads (query/parallel_match.h): the same
  // checks, required and optional, as they run now, over `db`, another handle
  // on the same index, for the other thread, reading `values` (that thread's).
  // Call it on this object's thread.
  std::unique_ptr<PositionChecks> twin(const Xapian::Database& db, const PositionValuesRef& values) const;
  // Appends the abstracts `twin` demoted, all numbered above this one's (the
  // upper half of the split), so the list stays in increasing order.
  void take_demoted(PositionChecks& twin);

 private:
  // `check`'s filter over db_, marking it deferred; null if it stays in the query.
  std::unique_ptr<Xapian::PostingSource> take(const PositionCheckRef& check);

  Xapian::Database db_;
  std::vector<std::unique_ptr<Xapian::PostingSource>> checks_;    // the required checks' filters
  std::vector<std::unique_ptr<Xapian::PostingSource>> optional_;  // the optional checks' filters
  bool optional_in_query_ = false;
  mutable std::vector<Xapian::docid> demoted_;
};

// What a query copied to another thread (Query::serialise, for
// query/parallel_match.h) is read back with (Query::unserialise): its phrase
// and group filters check with `values`, that thread's; one that waits for a
// PositionChecks passes everything there too (give that thread a twin()).
Xapian::Registry position_registry(const PositionValuesRef& values);

// True if `q` is the check of a phrase or group as Xapian's positions run it
// (position_values() with xapian_positions): what an OP_FILTER over its words
// filters by. Its terms repeat the words that rank, so walks over a query's
// words (proximity, feedback's word count) leave it out.
bool is_xapian_position_check(const Xapian::Query& q);

// The number of subqueries of `q` that a walk over its words visits: all of
// them, but not the xapian position check an OP_FILTER filters by.
std::size_t ranked_subqueries(const Xapian::Query& q);

// Xapian's description of `query`, with each positional filter shown as the
// operator it stands for: "(agent NEAR 3 mice)", not the AND and filter that
// run it, and weight scales to three digits ("0.143 * web", not Xapian's 20).
// Linear in the description's length.
std::string describe(const Xapian::Query& query);

}  // namespace abstracts::query

#endif  // ABSTRACTS_QUERY_POSITIONAL_H_
