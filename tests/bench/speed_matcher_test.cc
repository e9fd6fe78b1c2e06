// Tests of the matcher's floor (bench/speed/matcher_system.cc) on an index of
// the bundled corpus: Xapian's matcher alone finds what the engine finds, so
// the time it takes is a floor under the engine's, not the time of other work.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "abstracts/index.h"
#include "bench/speed/system.h"
#include "tests/support/corpus.h"

namespace abstracts::speed {
namespace {

using Kind = BenchQuery::Kind;

class SpeedMatcher : public ::testing::Test {
 protected:
  static const std::filesystem::path& index() { return abstracts::testing::corpus_index(); }

  // The engine's matches of `query`, counted exactly.
  static std::size_t engine_matches(const BenchQuery& query) {
    SearchOptions options;
    options.count_matches_up_to = 1000;
    const SearchResults r = Index::open(index()).search(xapian_syntax(query), options);
    EXPECT_TRUE(r.exact_matches);
    return r.estimated_matches;
  }
};

// Keywords and boolean queries match the same abstracts (top 10 of them); a
// phrase's words, all there, match at least the phrase's abstracts.
TEST_F(SpeedMatcher, MatchesWhatTheEngineMatches) {
  auto matcher = open_matcher(index());
  const std::vector<BenchQuery> same = {{Kind::kKeyword, {"sparse", "attention"}, ""},
                                        {Kind::kKeyword, {"models"}, ""},
                                        {Kind::kKeyword, {"zebra"}, ""},
                                        {Kind::kBoolean, {"diffusion", "models"}, "AND"},
                                        {Kind::kBoolean, {"diffusion", "graph"}, "OR"},
                                        {Kind::kBoolean, {"learning", "language"}, "NOT"}};
  for (const auto& q : same) {
    const std::size_t engine = engine_matches(q);
    EXPECT_EQ(matcher->search(q), std::min<std::size_t>(engine, kTopK)) << xapian_syntax(q) << ": " << engine;
  }
  EXPECT_GT(matcher->search(same[1]), 0u);
  const BenchQuery phrase{Kind::kPhrase, {"language", "models"}, ""};
  const std::size_t in_phrase = engine_matches(phrase);
  ASSERT_GT(in_phrase, 0u);
  EXPECT_GE(matcher->search(phrase), std::min<std::size_t>(in_phrase, kTopK));
}

}  // namespace
}  // namespace abstracts::speed
