// Issue 44: a match split over two threads (query/parallel_match.h), a
// question's or a phrase's, finds exactly what one thread finds: the same hits
// in the same order, the same scores to the last bit, the same snippets, and an
// exact count where one thread's is exact. Small indexes split here only
// because the tests set the policy (ParallelPolicy) that keeps real ones below
// 250,000 abstracts whole. The index has impact tiers, as large ones do.
#include <gtest/gtest.h>

#include <cctype>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include <xapian.h>

#include "abstracts/error.h"
#include "abstracts/index.h"
#include "abstracts/writer.h"
#include "engine/analysis/analyzer.h"
#include "engine/layout.h"
#include "engine/schema.h"
#include "indexer/tiers.h"
#include "query/database_pool.h"
#include "query/parallel_match.h"
#include "query/parser.h"
#include "query/positional.h"
#include "query/ranking.h"
#include "tests/support/corpus.h"
#include "tests/support/test_support.h"

namespace abstracts {
namespace parallel_match_test {
namespace {

using testing::make_abstract;
using testing::TempDir;

// The bundled corpus, and 2,000 abstracts made of its sentences, a tenth of
// them copies of another (the same weight: ties, across the two halves too).
class ParallelMatchTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir;
    auto writer = Writer::open(*dir_ / "index");
    writer.index({ABSTRACTS_CORPUS_DIR});
    std::vector<std::string> sentences;
    for (const auto& a : testing::corpus_abstracts()) {
      texts_.push_back(a.raw);
      for (std::size_t at = 0, end; at < a.raw.size(); at = end + 2) {
        end = a.raw.find(". ", at);
        if (end == std::string::npos) end = a.raw.size();
        sentences.push_back(a.raw.substr(at, end - at) + ".");
      }
    }
    std::mt19937 random(44);
    std::vector<std::string> made;
    for (int i = 0; i < 2000; ++i) {
      std::string text;
      if (i % 10 == 9) {
        text = made[random() % made.size()];
      } else {
        for (int k = 0; k < 4; ++k) text += sentences[random() % sentences.size()] + " ";
      }
      made.push_back(text);
      writer.add(make_abstract(text, "made" + std::to_string(i)));
    }
    writer.commit();
    const auto generation = layout::current_generation(*dir_ / "index");
    indexer::build_tiers(generation, Xapian::Database(generation.string()));
  }
  static void TearDownTestSuite() {
    query::set_parallel_policy({});
    delete dir_;
  }
  void TearDown() override { query::set_parallel_policy({}); }

  // Questions: eight words from the middle of each bundled abstract.
  static std::vector<std::string> questions() {
    std::vector<std::string> out;
    for (const auto& text : texts_) {
      std::vector<std::string> words;
      std::size_t at = 0;
      for (int w = 0; w < 20 && at != std::string::npos; ++w) {
        const std::size_t end = text.find(' ', at);
        words.push_back(text.substr(at, end == std::string::npos ? end : end - at));
        at = end == std::string::npos ? end : end + 1;
      }
      if (words.size() < 16) continue;
      std::string q;
      for (std::size_t w = 8; w < 16; ++w) q += words[w] + " ";
      out.push_back(q);
    }
    return out;
  }

  // Phrases of two and three words from each bundled abstract, alone, beside
  // a word, in a NEAR group, under NOT and in a question (a phrase the query
  // can match without, whose abstracts without it are demoted and weighed
  // again): checks deferred, optional and in the query.
  static std::vector<std::string> phrases() {
    std::vector<std::string> out;
    for (const auto& text : texts_) {
      std::vector<std::string> words;
      std::string word;
      bool plain = true;  // no digit or sign in it (else left out)
      for (char c : text + " ") {
        if (c == ' ') {
          if (plain && word.size() > 3) words.push_back(word);
          word.clear();
          plain = true;
        } else if (std::isalpha(static_cast<unsigned char>(c))) {
          word += c;
        } else {
          plain = false;
        }
      }
      if (words.size() < 12) continue;
      out.push_back("\"" + words[3] + " " + words[4] + " " + words[5] + "\"");
      out.push_back("\"" + words[6] + " " + words[7] + "\"");
      out.push_back("\"" + words[8] + " " + words[9] + "\" " + words[11]);
      out.push_back(words[8] + " NEAR/4 " + words[10]);
      out.push_back(words[9] + " -\"" + words[10] + " " + words[11] + "\"");
      out.push_back(words[2] + " " + words[4] + "-" + words[5] + " " + words[7] + " " + words[9] + " " + words[11]);
      out.push_back(words[1] + " \"" + words[3] + " " + words[4] + "\" " + words[8] + " " + words[10]);
    }
    out.push_back("sparse attention for serving \"large language models\" at scale");
    return out;
  }

  static TempDir* dir_;
  static std::vector<std::string> texts_;
};

TempDir* ParallelMatchTest::dir_ = nullptr;
std::vector<std::string> ParallelMatchTest::texts_;

// What a user sees of a search, bit for bit.
std::string seen(const SearchResults& r) {
  std::string out = r.exact_matches ? std::to_string(r.estimated_matches) + "\n" : "about\n";
  for (const auto& h : r.hits) {
    char score[32];
    std::snprintf(score, sizeof score, "%a", h.score);  // every bit
    out += h.abstract.id + " " + score + " " + h.snippet.text + "\n";
  }
  return out;
}

TEST_F(ParallelMatchTest, TopIsOneThreadsMatchTiesIncluded) {
  query::set_parallel_policy({0, 64, 0});
  query::DatabasePool pool(*dir_ / "index");
  const RankingOptions r;
  pool.with_db([&](Xapian::Database& db, const compression::Decompressor&) {
    query::ParallelMatch parallel(pool, db, r, nullptr);
    std::mt19937 random(7);
    std::vector<std::string> words;
    for (auto t = db.allterms_begin(); t != db.allterms_end(); ++t) {
      if (schema::is_word_term(*t) && t.get_termfreq() > 5) words.push_back(*t);
    }
    ASSERT_GT(words.size(), 300u);
    std::size_t ties = 0, checked = 0;
    for (int i = 0; i < 200; ++i) {
      std::vector<Xapian::Query> parts;
      for (int k = 0; k < 3 + i % 6; ++k) {
        Xapian::Query word(words[random() % words.size()]);
        parts.push_back(k % 3 == 2 ? Xapian::Query(Xapian::Query::OP_SCALE_WEIGHT, word, 0.4) : word);
      }
      const Xapian::Query q(i % 4 == 3 ? Xapian::Query::OP_AND_MAYBE : Xapian::Query::OP_OR, parts.begin(),
                            parts.end());
      const std::size_t first = i % 5 == 4 ? 7 : 0, count = i % 2 == 0 ? 10 : 30;
      const Xapian::doccount at_least = i % 3 == 0 ? 10000 : 0;
      Xapian::Enquire one(db);
      one.set_query(q);
      one.set_weighting_scheme(query::bm25(r));
      const Xapian::MSet want = one.get_mset(first, count, at_least);
      const auto got = parallel.top(q, first, count, at_least);
      ASSERT_TRUE(got) << q.get_description();
      ASSERT_EQ(got->hits.size(), want.size()) << q.get_description();
      std::size_t k = 0;
      for (auto it = want.begin(); it != want.end(); ++it, ++k) {
        EXPECT_EQ(*got->hits[k].it, *it) << q.get_description() << " #" << k;
        EXPECT_EQ(got->hits[k].score, it.get_weight()) << q.get_description() << " #" << k;
        ties += k > 0 && got->hits[k].score == got->hits[k - 1].score;
      }
      const auto counted = got->counted();
      if (want.get_matches_lower_bound() == want.get_matches_upper_bound()) {
        EXPECT_EQ(counted.lower, want.get_matches_lower_bound()) << q.get_description();
        EXPECT_EQ(counted.upper, counted.lower) << q.get_description();
      }
      checked += want.size();
    }
    EXPECT_GT(ties, 20u);
    EXPECT_GT(checked, 2000u);
  });
}

// Each of `asked` searched on one thread and then split, counting no matches
// and then up to 10,000: the same answers, an estimate apart (a split pass of a
// phrase the query can match without counts less exactly; an exact count may
// not differ). Most must have hits, and each must split at least once.
void expect_answers_of_one_thread(const Index& index, const std::vector<std::string>& asked) {
  for (const std::size_t count_up_to : {0, 10000}) {
    SearchOptions options;
    options.limit = 20;
    options.count_matches_up_to = count_up_to;
    auto ask = [&](const std::string& q) {
      try {
        return seen(index.search(q, options));
      } catch (const QueryError& e) {  // a stop word next to NEAR
        return std::string("error: ") + e.what();
      }
    };
    std::vector<std::string> one;
    query::set_parallel_policy({});
    for (const auto& q : asked) one.push_back(ask(q));
    query::set_parallel_policy({0, 64, 0});
    const auto before = query::ParallelMatch::splits();
    std::size_t hits = 0;
    for (std::size_t i = 0; i < asked.size(); ++i) {
      std::string got = ask(asked[i]);
      if (one[i].rfind("about\n", 0) == 0) got.replace(0, got.find('\n'), "about");
      EXPECT_EQ(got, one[i]) << asked[i];
      hits += one[i].find(" 0x") != std::string::npos;
    }
    EXPECT_GT(hits, asked.size() / 2);
    EXPECT_GE(query::ParallelMatch::splits() - before, asked.size());
  }
}

TEST_F(ParallelMatchTest, QuestionsFindWhatOneThreadFinds) {
  const Index index = Index::open(*dir_ / "index");
  const auto asked = questions();
  ASSERT_GT(asked.size(), 40u);
  expect_answers_of_one_thread(index, asked);
}

TEST_F(ParallelMatchTest, PhrasesFindWhatOneThreadFinds) {
  const Index index = Index::open(*dir_ / "index");
  const auto asked = phrases();
  ASSERT_GT(asked.size(), 200u);
  expect_answers_of_one_thread(index, asked);
}

TEST_F(ParallelMatchTest, NoCoreToSpareOrFewMatchesMatchOnOneThread) {
  const Index index = Index::open(*dir_ / "index");
  const std::string q = questions().front();
  query::set_parallel_policy({0, 1, 0});  // this search is the one core's
  auto before = query::ParallelMatch::splits();
  index.search(q);
  EXPECT_EQ(query::ParallelMatch::splits(), before);
  query::set_parallel_policy({0, 64, 100000});  // more matches than the index has abstracts
  index.search(q);
  EXPECT_EQ(query::ParallelMatch::splits(), before);
  query::set_parallel_policy({0, 64, 0});
  index.search(q);
  EXPECT_GT(query::ParallelMatch::splits(), before);
}

// A hostile phrase query, split: the position budget is the search's on both
// threads, so it stops a split search as it stops one thread's, with the same
// QueryError, and neither thread goes on past it.
TEST_F(ParallelMatchTest, PastThePositionBudgetEitherHalfStopsTheSearch) {
  query::DatabasePool pool(*dir_ / "index");
  pool.with_db([&](Xapian::Database& db, const compression::Decompressor&) {
    // Counting every match checks every abstract with the phrase's words. (In
    // Xapian's order: ties ordered by id would be a second pass, on one thread.)
    auto search = [&](query::PositionBudget& budget) {
      const RankingOptions r;
      query::ParallelMatch parallel(pool, db, r, nullptr, &budget);
      query::ParserContext context;
      context.db = &db;
      context.position_budget = &budget;
      query::Parser parser(analysis::thread_analyzer(), context);
      query::PositionChecks checks(db);
      const Xapian::Query asked = parser.parse("\"language models\"", nullptr, &checks);
      Xapian::Enquire enquire(db);
      enquire.set_query(asked);
      enquire.set_weighting_scheme(query::bm25(r));
      return query::best_hits(db, enquire, asked, query::count_user_words(asked), r, 0, 10, &checks,
                              db.get_doccount(), false, nullptr, &parallel);
    };
    query::PositionBudget one;  // the checks one thread makes
    query::set_parallel_policy({});
    EXPECT_FALSE(search(one).hits.empty());
    ASSERT_GT(one.spent(), 20u);
    query::set_parallel_policy({0, 64, 0});
    query::PositionBudget enough;
    const auto before = query::ParallelMatch::splits();
    EXPECT_FALSE(search(enough).hits.empty());
    EXPECT_GT(query::ParallelMatch::splits(), before);
    // Less than the two halves need together, more than either needs alone.
    query::PositionBudget small(one.spent() * 3 / 4);
    try {
      search(small);
      ADD_FAILURE() << "the split search went past its budget of " << small.limit() << " checks";
    } catch (const QueryError& e) {
      EXPECT_NE(std::string(e.what()).find("need more than " + std::to_string(small.limit()) + " checks"),
                std::string::npos)
          << e.what();
    }
    // Each thread stops at its first check past the limit.
    EXPECT_GT(small.spent(), small.limit());
    EXPECT_LE(small.spent(), small.limit() + 2);
  });
}

TEST_F(ParallelMatchTest, PastTheTimeLimitEitherHalfStopsTheSearch) {
  const Index index = Index::open(*dir_ / "index");
  query::set_parallel_policy({0, 64, 0});
  SearchOptions options;
  options.time_limit = 1e-9;
  for (const auto& q : questions()) EXPECT_THROW(index.search(q, options), QueryError) << q;
}

}  // namespace
}  // namespace parallel_match_test
}  // namespace abstracts
