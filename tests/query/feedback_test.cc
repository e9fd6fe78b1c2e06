// Pseudo-relevance feedback (RankingOptions::feedback_*), on a real on-disk
// index built for it: a few abstracts share the query's words and a topic
// vocabulary; one more has the topic's words but none of the query's.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "abstracts/index.h"
#include "abstracts/writer.h"
#include "tests/support/test_support.h"

namespace abstracts {
namespace {

using testing::make_abstract;
using testing::TempDir;

std::set<std::string> hit_id_set(const SearchResults& r) {
  std::set<std::string> ids;
  for (const auto& h : r.hits) ids.insert(h.abstract.id);
  return ids;
}

bool has_note(const SearchResults& r, const std::string& start) {
  return std::any_of(r.expansions.begin(), r.expansions.end(),
                     [&](const std::string& e) { return e.rfind(start, 0) == 0; });
}

// The query's four words are in "q1".."q3" only. Those three also say
// "glimmerwort" and "fernbrake" often, and so does "topic", which has none of
// the query's words. 80 unrelated abstracts keep the topic words rare (feedback
// never picks a word found in more than a tenth of the abstracts).
class Feedback : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir();
    auto writer = Writer::open(dir_->path() / "index");
    const std::string topic = " Glimmerwort fernbrake glimmerwort fernbrake glimmerwort fernbrake.";
    writer.add(make_abstract("Quokka marmot wombat numbat habitats." + topic, "q1"));
    writer.add(make_abstract("Quokka marmot wombat numbat surveys, and more." + topic, "q2"));
    writer.add(make_abstract("Quokka and marmot burrows near wombat and numbat ones." + topic, "q3"));
    writer.add(make_abstract("A census of" + topic + " Seasonal counts.", "topic"));
    for (int i = 0; i < 80; ++i) {
      writer.add(make_abstract("Unrelated abstract number " + std::to_string(i) + " about lattice w" +
                          std::to_string(i) + " and spectra.",
                      "filler" + std::to_string(i)));
    }
    writer.commit();
  }
  static void TearDownTestSuite() {
    delete dir_;
    dir_ = nullptr;
  }
  static Index index() { return Index::open(dir_->path() / "index"); }
  static SearchOptions plain() {
    SearchOptions o;
    o.limit = 100;
    o.syntax = QuerySyntax::kPlainText;
    o.explain = true;
    return o;
  }
  static SearchOptions without_feedback(SearchOptions o) {
    o.ranking.feedback_min_words = 0;
    return o;
  }
  static TempDir* dir_;
};
TempDir* Feedback::dir_ = nullptr;

TEST_F(Feedback, PlainTextQuestionFindsTheTopicsOtherAbstracts) {
  const auto with = index().search("quokka marmot wombat numbat", plain());
  EXPECT_TRUE(hit_id_set(with).contains("topic"));
  EXPECT_TRUE(has_note(with, "feedback: ")) << ::testing::PrintToString(with.expansions);
  // The abstracts that have the query's words still come first.
  ASSERT_GE(with.hits.size(), 4u);
  EXPECT_EQ(with.hits[3].abstract.id, "topic");

  const auto without = index().search("quokka marmot wombat numbat", without_feedback(plain()));
  EXPECT_EQ(hit_id_set(without), (std::set<std::string>{"q1", "q2", "q3"}));
  EXPECT_FALSE(has_note(without, "feedback:"));
  SearchOptions no_mix = plain();
  no_mix.ranking.feedback_mix = 0;
  EXPECT_EQ(hit_id_set(index().search("quokka marmot wombat numbat", no_mix)), hit_id_set(without));
}

TEST_F(Feedback, KeywordQueriesAreNeverWidened) {
  const auto r = index().search("quokka marmot wombat", plain());  // three words
  EXPECT_EQ(hit_id_set(r), (std::set<std::string>{"q1", "q2", "q3"}));
  EXPECT_FALSE(has_note(r, "feedback:"));
}

// A query with operators keeps its matches: feedback only ranks them.
TEST_F(Feedback, QueryLanguageKeepsItsMatches) {
  SearchOptions o = plain();
  o.syntax = QuerySyntax::kQueryLanguage;
  for (const char* q : {"quokka AND marmot AND wombat AND numbat", "+quokka marmot wombat numbat"}) {
    SCOPED_TRACE(q);
    const auto with = index().search(q, o);
    EXPECT_TRUE(has_note(with, "feedback: "));
    EXPECT_EQ(hit_id_set(with), (std::set<std::string>{"q1", "q2", "q3"}));
    EXPECT_EQ(hit_id_set(with), hit_id_set(index().search(q, without_feedback(o))));
  }
}

// Issue 17: words alone mean the same in the query language as in plain text,
// and rank the same, feedback's added matches included.
TEST_F(Feedback, WordsAloneRankAsPlainTextInTheQueryLanguage) {
  SearchOptions o = plain();
  o.syntax = QuerySyntax::kQueryLanguage;
  const char* q = "quokka marmot wombat numbat";
  const auto language = index().search(q, o);
  const auto text = index().search(q, plain());
  EXPECT_EQ(hit_id_set(language), (std::set<std::string>{"q1", "q2", "q3", "topic"}));
  ASSERT_EQ(language.hits.size(), text.hits.size());
  for (std::size_t i = 0; i < text.hits.size(); ++i) {
    EXPECT_EQ(language.hits[i].abstract.id, text.hits[i].abstract.id) << "rank " << i + 1;
    EXPECT_DOUBLE_EQ(language.hits[i].score, text.hits[i].score) << "rank " << i + 1;
  }
}

// --explain's weights still add up to the score, feedback words included, and
// snippets highlight only the user's words.
TEST_F(Feedback, ExplanationAddsUpAndSnippetsShowOnlyTheQuerysWords) {
  const auto r = index().search("quokka marmot wombat numbat", plain());
  ASSERT_FALSE(r.hits.empty());
  for (const Hit& hit : r.hits) {
    SCOPED_TRACE(hit.abstract.id);
    double sum = 0;
    bool feedback_word = false;
    for (const auto& w : hit.explanation) {
      sum += w.weight;
      feedback_word = feedback_word || w.term == "glimmerwort";
    }
    EXPECT_NEAR(sum, hit.score, 1e-6);
    EXPECT_TRUE(feedback_word);
    for (const auto& h : hit.snippet.highlights) {
      const std::string word = hit.snippet.text.substr(h.begin, h.end - h.begin);
      EXPECT_NE(word, "glimmerwort");
      EXPECT_NE(word, "Glimmerwort");
    }
    if (hit.abstract.id == "topic") {
      EXPECT_TRUE(hit.snippet.highlights.empty());
    }
  }
}

}  // namespace
}  // namespace abstracts
