#include "query/parallel_match.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <string>
#include <system_error>
#include <thread>
#include <utility>

#include "query/deadline.h"
#include "query/document_list.h"
#include "query/positional.h"
#include "query/tiers.h"

namespace abstracts::query {
namespace {

std::atomic<int> searches{0};
std::atomic<std::uint64_t> split_matches{0};
std::atomic<Xapian::doccount> policy_from{ParallelPolicy{}.from};
std::atomic<int> policy_cores{ParallelPolicy{}.cores};
std::atomic<Xapian::doccount> policy_matches{ParallelPolicy{}.matches};

// The document numbers first..last: a filter, weighing nothing.
class DocumentRange : public Xapian::PostingSource {
 public:
  DocumentRange(Xapian::docid first, Xapian::docid last) : first_(first), last_(last) {}
  DocumentRange* clone() const override { return new DocumentRange(first_, last_); }
  void init(const Xapian::Database&) override { at_ = 0; }
  Xapian::doccount get_termfreq_min() const override { return last_ - first_ + 1; }
  Xapian::doccount get_termfreq_est() const override { return last_ - first_ + 1; }
  Xapian::doccount get_termfreq_max() const override { return last_ - first_ + 1; }
  void next(double) override { at_ = at_ == 0 ? first_ : at_ + 1; }
  void skip_to(Xapian::docid did, double) override { at_ = std::max({at_, did, first_}); }
  bool at_end() const override { return at_ > last_; }
  Xapian::docid get_docid() const override { return at_; }
  std::string get_description() const override {
    return "DocumentRange(" + std::to_string(first_) + ".." + std::to_string(last_) + ")";
  }

 private:
  Xapian::docid first_, last_;
  Xapian::docid at_ = 0;  // 0: not started
};

// The best `n` of `query` among documents first..last of `db`, as `checks`
// (may be null) decide.
Xapian::MSet half(const Xapian::Database& db, const Xapian::Query& query, Xapian::docid first, Xapian::docid last,
                  const RankingOptions& r, const Deadline* deadline, std::size_t n, Xapian::doccount check_at_least,
                  const PositionChecks* checks) {
  Xapian::Enquire enquire(db);
  enquire.set_query(Xapian::Query(Xapian::Query::OP_FILTER, query,
                                  Xapian::Query((new DocumentRange(first, last))->release())));
  enquire.set_weighting_scheme(bm25(r, deadline));
  return enquire.get_mset(0, static_cast<Xapian::doccount>(n), check_at_least, nullptr, checks);
}

}  // namespace

ParallelPolicy parallel_policy() {
  return {policy_from.load(std::memory_order_relaxed), policy_cores.load(std::memory_order_relaxed),
          policy_matches.load(std::memory_order_relaxed)};
}

void set_parallel_policy(ParallelPolicy policy) {
  policy_from.store(policy.from, std::memory_order_relaxed);
  policy_cores.store(policy.cores, std::memory_order_relaxed);
  policy_matches.store(policy.matches, std::memory_order_relaxed);
}

std::uint64_t ParallelMatch::splits() { return split_matches.load(std::memory_order_relaxed); }

InFlight::InFlight() { searches.fetch_add(1, std::memory_order_relaxed); }
InFlight::~InFlight() { searches.fetch_sub(1, std::memory_order_relaxed); }
int InFlight::now() { return searches.load(std::memory_order_relaxed); }

ParallelMatch::ParallelMatch(DatabasePool& pool, const Xapian::Database& db, const RankingOptions& r,
                             const Deadline* deadline, PositionBudget* budget)
    : pool_(pool),
      db_(db),
      r_(r),
      deadline_(deadline),
      budget_(budget),
      large_(!pool.is_cluster() && db.get_doccount() >= parallel_policy().from) {}

ParallelMatch::~ParallelMatch() = default;

std::optional<Ranking> ParallelMatch::top(const Xapian::Query& query, std::size_t first, std::size_t count,
                                          Xapian::doccount check_at_least, PositionChecks* checks) {
  const ParallelPolicy policy = parallel_policy();
  const int cores = policy.cores > 0 ? policy.cores : static_cast<int>(std::thread::hardware_concurrency());
  if (!large_ || no_twin_ || InFlight::now() >= cores) return std::nullopt;
  // The helper gets the query as a string: a Query's reference counts are not
  // atomic, so no Query object may be shared between threads.
  std::string copy;
  try {
    copy = query.serialise();
  } catch (const Xapian::Error&) {
    return std::nullopt;  // a posting source that cannot be serialised
  }
  const bool tiered = copy.find(kTieredWordName) != std::string::npos;
  if (tiered && checks == nullptr) return std::nullopt;  // words alone skip most postings: fast on one thread
  // The whole query's bounds on its matches, read without a match.
  Xapian::Enquire whole(db_);
  whole.set_query(query);
  const Xapian::MSet stats = whole.get_mset(0, 0);
  if (stats.get_matches_estimated() < policy.matches) return std::nullopt;
  if (!twin_) {
    twin_ = pool_.twin(db_);
    if (!twin_) {
      no_twin_ = true;
      return std::nullopt;
    }
  }
  const Xapian::docid last = db_.get_lastdocid();
  const Xapian::docid middle = last / 2;
  const std::size_t n = first + count;
  // The helper keeps time on a copy of the deadline (Deadline counts its
  // ticks), checks positions with values and checks of its own, and spends the
  // search's position budget.
  std::optional<Deadline> helper_deadline;
  if (deadline_ != nullptr) helper_deadline.emplace(*deadline_);
  const PositionValuesRef values = position_values(helper_deadline ? &*helper_deadline : nullptr, false, budget_);
  Xapian::Registry registry = position_registry(values);
  registry.register_posting_source(DocumentList(std::vector<Xapian::docid>()));  // a search within ids
  if (tiered) {
    if (!tiers_) tiers_ = std::make_unique<TierCopies>(pool_.dir(), db_);
    if (!tiers_->add_to(registry, helper_deadline ? &*helper_deadline : nullptr)) return std::nullopt;
  }
  const std::unique_ptr<PositionChecks> helper_checks = checks != nullptr ? checks->twin(twin_->db(), values) : nullptr;
  Xapian::MSet upper;
  std::exception_ptr helper_failed;
  std::thread helper;
  try {
    helper = std::thread([&, twin = &twin_->db()] {
      try {
        upper = half(*twin, Xapian::Query::unserialise(copy, registry), middle + 1, last, r_,
                     helper_deadline ? &*helper_deadline : nullptr, n, check_at_least, helper_checks.get());
      } catch (...) {
        helper_failed = std::current_exception();
      }
    });
  } catch (const std::system_error&) {
    return std::nullopt;  // no thread to be had: one thread matches
  }
  Xapian::MSet lower;
  std::exception_ptr failed;
  try {
    lower = half(db_, query, 1, middle, r_, deadline_, n, check_at_least, checks);
  } catch (...) {
    failed = std::current_exception();
  }
  helper.join();
  if (failed) std::rethrow_exception(failed);
  if (helper_failed) std::rethrow_exception(helper_failed);
  if (checks != nullptr) checks->take_demoted(*helper_checks);

  split_matches.fetch_add(1, std::memory_order_relaxed);
  Ranking out{lower, {}};
  out.matches = Ranking::Matches{lower.get_matches_lower_bound() + upper.get_matches_lower_bound(),
                                 lower.get_matches_estimated() + upper.get_matches_estimated(),
                                 lower.get_matches_upper_bound() + upper.get_matches_upper_bound()};
  if (out.matches->lower != out.matches->upper) {
    // A half's bounds are looser than one match's where the query's own
    // statistics settle the count ("rare AND_MAYBE common" matches what "rare"
    // does, but "rare" within a half could be anything up to the half's size):
    // narrowed by the whole query's.
    // With position checks, only from above: the query without them matches
    // at least what it matches with them.
    auto& m = *out.matches;
    if (checks == nullptr) m.lower = std::max(m.lower, stats.get_matches_lower_bound());
    m.upper = std::min(m.upper, stats.get_matches_upper_bound());
    m.estimated = std::clamp(m.estimated, m.lower, std::max(m.lower, m.upper));
  }
  // By weight, then document number: the lower half's first among equals.
  auto a = lower.begin(), b = upper.begin();
  while (out.hits.size() < n && (a != lower.end() || b != upper.end())) {
    const bool from_lower = b == upper.end() || (a != lower.end() && a.get_weight() >= b.get_weight());
    auto& it = from_lower ? a : b;
    out.hits.push_back({it, it.get_weight()});
    ++it;
  }
  out.hits.erase(out.hits.begin(), out.hits.begin() + static_cast<long>(std::min(first, out.hits.size())));
  return out;
}

}  // namespace abstracts::query
