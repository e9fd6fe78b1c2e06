// A search's time limit (query/deadline.h) on a real on-disk index (issue 16):
// Bm25 ticks the deadline for each posting it weighs, so a match past it stops
// with a QueryError, and weighs exactly as Xapian's BM25Weight otherwise; the
// position checks of phrases tick it too.
#include "query/deadline.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <xapian.h>

#include "abstracts/error.h"
#include "abstracts/search.h"
#include "abstracts/writer.h"
#include "engine/analysis/analyzer.h"
#include "engine/layout.h"
#include "query/parser.h"
#include "query/positional.h"
#include "query/ranking.h"
#include "tests/support/test_support.h"

namespace abstracts::query {
namespace {

using testing::make_abstract;
using testing::TempDir;

class Issue16Deadline : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir();
    auto writer = Writer::open(dir_->path() / "index");
    for (int i = 0; i < 40; ++i) {
      writer.add(make_abstract("sparse attention for long context" + testing::repeated("lorem", i % 7) +
                                   (i % 3 == 0 ? " graph neural networks" : " attention heads"),
                               "doc" + std::to_string(i)));
    }
    writer.commit();
    db_ = new Xapian::Database(layout::current_generation(dir_->path() / "index").string());
  }
  static void TearDownTestSuite() {
    delete db_;
    delete dir_;
  }

  // The weights of `query`'s hits under `weight`.
  static std::vector<double> weights(const Xapian::Query& query, const Xapian::Weight& weight,
                                     const Xapian::MatchDecider* decider = nullptr) {
    Xapian::Enquire enquire(*db_);
    enquire.set_query(query);
    enquire.set_weighting_scheme(weight);
    std::vector<double> out;
    const Xapian::MSet mset = enquire.get_mset(0, 100, nullptr, decider);
    for (auto it = mset.begin(); it != mset.end(); ++it) out.push_back(it.get_weight());
    return out;
  }

  static Xapian::Query query() {
    return Xapian::Query(Xapian::Query::OP_OR, Xapian::Query("attent"), Xapian::Query("graph"));
  }

  static TempDir* dir_;
  static Xapian::Database* db_;
};
TempDir* Issue16Deadline::dir_ = nullptr;
Xapian::Database* Issue16Deadline::db_ = nullptr;

TEST_F(Issue16Deadline, Bm25WeighsAsXapiansBm25) {
  const RankingOptions r;
  const Deadline none(0);
  const std::vector<double> expected = weights(query(), Xapian::BM25Weight(r.k1, 0, 1, r.b, 0.5));
  ASSERT_EQ(expected.size(), 40u);
  EXPECT_EQ(weights(query(), bm25(r)), expected);
  EXPECT_EQ(weights(query(), bm25(r, &none)), expected);
}

TEST_F(Issue16Deadline, AMatchPastTheDeadlineIsAQueryErrorNamingTheLimit) {
  const Deadline past(1e-9);  // over before the match starts
  try {
    weights(query(), bm25(RankingOptions{}, &past));
    ADD_FAILURE() << "the match ran past its deadline";
  } catch (const QueryError& e) {
    EXPECT_NE(std::string(e.what()).find("ran past its time limit of 1e-09 s"), std::string::npos) << e.what();
    EXPECT_FALSE(e.hint().empty());
  }
}

TEST_F(Issue16Deadline, PositionChecksKeepToTheDeadline) {
  analysis::Analyzer analyzer;
  const Deadline past(1e-9);
  ParserContext context;
  context.db = db_;
  context.deadline = &past;
  // Filtered in the query, and deferred to the decider: both check positions.
  const Xapian::Query phrase = Parser(analyzer, context).parse("\"graph neural\" OR heads");
  EXPECT_THROW(weights(phrase, Xapian::BM25Weight()), QueryError);
  const Deadline also_past(1e-9);  // a fresh one: tick() looks at the clock on its first call
  context.deadline = &also_past;
  PositionChecks checks(*db_);
  const Xapian::Query deferred = Parser(analyzer, context).parse("\"graph neural\"", nullptr, &checks);
  ASSERT_EQ(checks.size(), 1u);
  EXPECT_THROW(weights(deferred, Xapian::BM25Weight(), &checks), QueryError);
  // Without a deadline the same queries run.
  context.deadline = nullptr;
  EXPECT_EQ(weights(Parser(analyzer, context).parse("\"graph neural\" OR heads"), Xapian::BM25Weight()).size(), 40u);
}

TEST(Issue16DeadlineClock, NoneOrFarOffNeverThrows) {
  const Deadline none(0), negative(-1), far(1e300);
  for (int i = 0; i < 1000; ++i) {
    none.tick();
    negative.tick();
    far.tick();
  }
  EXPECT_NO_THROW(none.check());
  EXPECT_NO_THROW(far.check());
}

}  // namespace
}  // namespace abstracts::query
