// Proximity rescoring (RankingOptions::proximity_*) through Index::search, on a
// real on-disk index: two abstracts with the same words, as often and nearly as long,
// one with the query's words together and one with them spread out.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "abstracts/index.h"
#include "abstracts/writer.h"
#include "tests/support/test_support.h"

namespace abstracts {
namespace {

using testing::hit_ids;
using testing::make_abstract;
using testing::TempDir;

std::string lorem(int n) { return testing::repeated("lorem", n); }

class ProximityRanking : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir();
    auto writer = Writer::open(dir_->path() / "index");
    auto add = [&](std::string id, std::string text) {
      // One title for all, so none is derived from the words.
      writer.add(make_abstract(std::move(text), std::move(id), "Field notes"));
    };
    // "together" is a little longer, so BM25 alone ranks it below "spread".
    add("spread", "quokka" + lorem(12) + " marmot" + lorem(12) + " wombat" + lorem(12) + " numbat");
    add("together", "quokka marmot wombat numbat" + lorem(40));
    add("three", "quokka marmot wombat" + lorem(37));
    for (int i = 0; i < 20; ++i) add("filler" + std::to_string(i), "lorem ipsum dolor sit amet" + lorem(i));
    writer.commit();
  }
  static void TearDownTestSuite() { delete dir_; }
  static Index index() { return Index::open(dir_->path() / "index"); }
  static SearchOptions options(double proximity_weight) {
    SearchOptions o;
    o.ranking.feedback_min_words = 0;  // isolate proximity from feedback
    o.ranking.proximity_weight = proximity_weight;
    return o;
  }
  static TempDir* dir_;
};
TempDir* ProximityRanking::dir_ = nullptr;

TEST_F(ProximityRanking, WordsTogetherRankAboveTheSameWordsSpreadOut) {
  const std::string q = "quokka marmot wombat numbat";
  const auto without = index().search(q, options(0));
  ASSERT_EQ(hit_ids(without), (std::vector<std::string>{"spread", "together", "three"}));
  EXPECT_EQ(hit_ids(index().search(q, options(RankingOptions{}.proximity_weight))),
            (std::vector<std::string>{"together", "spread", "three"}));
  // The defaults (feedback on) agree, in both syntaxes.
  EXPECT_EQ(hit_ids(index().search(q, {})).front(), "together");
  SearchOptions plain;
  plain.syntax = QuerySyntax::kPlainText;
  EXPECT_EQ(hit_ids(index().search(q, plain)).front(), "together");
}

TEST_F(ProximityRanking, KeywordQueriesAreNotRescored) {
  auto o = options(RankingOptions{}.proximity_weight);
  o.explain = true;
  const auto r = index().search("quokka marmot wombat", o);
  ASSERT_EQ(hit_ids(r).size(), 3u);
  EXPECT_EQ(hit_ids(r).front(), "spread");
  for (const auto& h : r.hits) {
    for (const auto& w : h.explanation) EXPECT_NE(w.term, "proximity") << h.abstract.id;
  }
  for (const auto& e : r.expansions) EXPECT_FALSE(e.starts_with("proximity:")) << e;
}

TEST_F(ProximityRanking, ExplanationAddsUpToTheRescoredScore) {
  SearchOptions o;
  o.explain = true;
  const auto r = index().search("quokka marmot wombat numbat", o);
  ASSERT_FALSE(r.hits.empty());
  bool proximity = false;
  for (const auto& h : r.hits) {
    double sum = 0;
    for (const auto& w : h.explanation) {
      sum += w.weight;
      proximity = proximity || w.term == "proximity";
    }
    EXPECT_NEAR(sum, h.score, 1e-9 * h.score) << h.abstract.id;
  }
  EXPECT_TRUE(proximity);
  EXPECT_TRUE(std::any_of(r.expansions.begin(), r.expansions.end(),
                          [](const std::string& e) { return e.starts_with("proximity: the 30 best hits"); }));
}

TEST_F(ProximityRanking, PagesFollowTheRescoredOrder) {
  const std::string q = "quokka marmot wombat numbat";
  const auto all = hit_ids(index().search(q, {}));
  ASSERT_EQ(all.size(), 3u);
  for (std::size_t i = 0; i < all.size(); ++i) {
    SearchOptions page;
    page.offset = i;
    page.limit = 1;
    const auto r = index().search(q, page);
    ASSERT_EQ(r.hits.size(), 1u);
    EXPECT_EQ(r.hits[0].abstract.id, all[i]);
    EXPECT_EQ(r.hits[0].rank, i + 1);
  }
}

}  // namespace
}  // namespace abstracts
