// Tests of `speed throughput` (bench/speed/throughput.h) on an index of the
// bundled corpus: any thread count does the same work, whole passes over the
// query set, every query once a pass.
#include <gtest/gtest.h>

#include <numeric>
#include <vector>

#include "bench/speed/throughput.h"
#include "tests/support/corpus.h"

namespace abstracts::speed {
namespace {

class SpeedThroughput : public ::testing::Test {
 protected:
  static const std::filesystem::path& index() { return abstracts::testing::corpus_index(); }

  static std::vector<BenchQuery> queries() {
    using Kind = BenchQuery::Kind;
    return {{Kind::kKeyword, {"sparse", "attention"}, ""},
            {Kind::kPhrase, {"language", "models"}, ""},
            {Kind::kBoolean, {"diffusion", "graph"}, "OR"},
            {Kind::kQuestion, {"which", "models", "learn", "from", "sparse", "rewards"}, ""},
            {Kind::kKeyword, {"zebra"}, ""}};
  }
};

std::size_t sum(const std::vector<std::size_t>& v) {
  return std::accumulate(v.begin(), v.end(), std::size_t{0});
}

// Issue 20: threads that started at their own offsets for a fixed time ran
// different parts of the set when one pass outlasted the time, so 2 threads
// against 1 compared different queries.
TEST_F(SpeedThroughput, Issue20AnyThreadCountRunsTheSameWholePasses) {
  for (std::size_t threads : {1, 2, 3}) {
    ThroughputOptions options;
    options.threads = threads;
    options.passes = 3;
    const ThroughputResult r = measure_throughput(index(), queries(), options);
    EXPECT_EQ(r.errors, 0u) << r.first_error;
    EXPECT_EQ(r.passes, 3u);
    EXPECT_EQ(r.queries, 3 * queries().size()) << threads << " threads";
    ASSERT_EQ(r.per_thread.size(), threads);
    EXPECT_EQ(sum(r.per_thread), r.queries);
    EXPECT_GT(r.qps, 0);
  }
}

TEST_F(SpeedThroughput, SecondsRunWholePassesFillingThem) {
  ThroughputOptions options;
  options.threads = 2;
  options.seconds = 0.05;
  const ThroughputResult r = measure_throughput(index(), queries(), options);
  EXPECT_EQ(r.errors, 0u) << r.first_error;
  ASSERT_GE(r.passes, 1u);
  // As many passes as the warm-up pass (one thread) says fill the time.
  EXPECT_GE(static_cast<double>(r.passes) * r.warmup_seconds, options.seconds);
  EXPECT_EQ(r.queries, r.passes * queries().size());
  EXPECT_EQ(sum(r.per_thread), r.queries);
}

}  // namespace
}  // namespace abstracts::speed
