// Proximity::coverage (query/proximity.h) on a real on-disk index: how much of
// a query's idf the best window of an abstract holds, at the window's edges.
#include "query/proximity.h"

#include <gtest/gtest.h>
#include <string>
#include <vector>

#include <xapian.h>

#include "abstracts/writer.h"
#include "engine/layout.h"
#include "engine/schema.h"
#include "tests/support/test_support.h"

namespace abstracts::query {
namespace {

using testing::make_abstract;
using testing::TempDir;

std::string lorem(int n) { return testing::repeated("lorem", n); }

// Every abstract has each of the four query words once, so they share one idf
// and a window's coverage is the share of the four it holds. Ten more abstracts
// without them keep that idf above 0.
class ProximityCoverage : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir();
    auto writer = Writer::open(dir_->path() / "index");
    auto add = [&](std::string id, std::string text, std::string title = {}) {
      writer.add(make_abstract(std::move(text), std::move(id), std::move(title)));
    };
    add("together", "quokka marmot wombat numbat" + lorem(30));
    // numbat is 29 positions after quokka: one window of 30 holds all four.
    add("edge", "quokka marmot wombat" + lorem(26) + " numbat");
    // 30 positions: quokka falls out of the window that reaches numbat.
    add("past_edge", "quokka marmot wombat" + lorem(27) + " numbat");
    add("pairs", "quokka marmot" + lorem(40) + " wombat numbat");
    add("title", "wombat numbat" + lorem(10), "Quokka marmot");
    // Half the words each (so every word is still in the same number of abstracts).
    add("first_half", "quokka marmot" + lorem(10));
    add("second_half", "wombat numbat" + lorem(10));
    // For an acronym-like word, "dk" or the two words "dingo kiwi" (none of them
    // the four words above, whose abstract counts stay equal).
    add("short_form", "dk emu" + lorem(10));
    add("long_form", "dingo kiwi emu" + lorem(10));
    add("half_form", "dingo emu" + lorem(10));
    add("zebra", "zebra" + lorem(10));
    for (int i = 0; i < 10; ++i) add("filler" + std::to_string(i), "lorem ipsum dolor" + lorem(i));
    writer.commit();
    db_ = new Xapian::Database(layout::current_generation(dir_->path() / "index").string());
  }
  static void TearDownTestSuite() {
    delete db_;
    delete dir_;
  }
  static Xapian::docid docid(const std::string& id) { return *db_->postlist_begin(schema::id_term(id)); }
  static Xapian::Query any_of(const std::vector<std::string>& words) {
    return Xapian::Query(Xapian::Query::OP_OR, words.begin(), words.end());
  }
  static double coverage(const std::string& id, const Xapian::Query& query = any_of(kWords)) {
    return Proximity(*db_, query, 30).coverage({docid(id)}).at(0);
  }
  static inline const std::vector<std::string> kWords{"quokka", "marmot", "wombat", "numbat"};
  static TempDir* dir_;
  static Xapian::Database* db_;
};
TempDir* ProximityCoverage::dir_ = nullptr;
Xapian::Database* ProximityCoverage::db_ = nullptr;

TEST_F(ProximityCoverage, AllWordsInOneWindowCoverTheQuery) {
  EXPECT_DOUBLE_EQ(coverage("together"), 1.0);
  EXPECT_DOUBLE_EQ(coverage("edge"), 1.0);
}

TEST_F(ProximityCoverage, AWordOneWindowPastTheFirstDropsIt) {
  EXPECT_DOUBLE_EQ(coverage("past_edge"), 0.75);
}

TEST_F(ProximityCoverage, TheBestWindowCounts) {
  EXPECT_DOUBLE_EQ(coverage("pairs"), 0.5);
}

TEST_F(ProximityCoverage, TitleAndTextAreNotOneWindow) {
  EXPECT_DOUBLE_EQ(coverage("title"), 0.5);
}

TEST_F(ProximityCoverage, AWordTheAbstractLacksCoversNothing) {
  EXPECT_DOUBLE_EQ(coverage("first_half"), 0.5);
  EXPECT_DOUBLE_EQ(coverage("filler0"), 0.0);
}

TEST_F(ProximityCoverage, WordsTheIndexLacksWeighNothing) {
  std::vector<std::string> words = kWords;
  words.push_back("unicorn");
  EXPECT_DOUBLE_EQ(coverage("together", any_of(words)), 1.0);
  EXPECT_DOUBLE_EQ(coverage("together", any_of({"unicorn"})), 0.0);
}

TEST_F(ProximityCoverage, TinyWindows) {
  EXPECT_DOUBLE_EQ(Proximity(*db_, any_of(kWords), 1).coverage({docid("together")}).at(0), 0.25);
  EXPECT_DOUBLE_EQ(Proximity(*db_, any_of(kWords), 2).coverage({docid("together")}).at(0), 0.5);
  EXPECT_DOUBLE_EQ(Proximity(*db_, any_of(kWords), 0).coverage({docid("together")}).at(0), 0.0);
}

TEST_F(ProximityCoverage, ManyAbstractsInAnyOrder) {
  const std::vector<Xapian::docid> docs{docid("second_half"), docid("together"), docid("past_edge"),
                                        docid("filler3"), docid("pairs")};
  EXPECT_EQ(Proximity(*db_, any_of(kWords), 30).coverage(docs), (std::vector<double>{0.5, 1.0, 0.75, 0.0, 0.5}));
}

TEST_F(ProximityCoverage, AnAcronymIsOneWordFoundByAnyOfItsSpellings) {
  const Xapian::Query dk(Xapian::Query::OP_SYNONYM, Xapian::Query("dk"),
                         Xapian::Query(Xapian::Query::OP_PHRASE, Xapian::Query("dingo"), Xapian::Query("kiwi")));
  const Xapian::Query query(Xapian::Query::OP_OR, dk, Xapian::Query("emu"));
  EXPECT_DOUBLE_EQ(coverage("short_form", query), 1.0);
  EXPECT_DOUBLE_EQ(coverage("long_form", query), 1.0);
  const double half = coverage("half_form", query);  // dingo without kiwi is not the word
  EXPECT_GT(half, 0.0);
  EXPECT_LT(half, 1.0);
}

TEST_F(ProximityCoverage, WordsExcludedWithNotAreNotTheQuerys) {
  const Xapian::Query query(Xapian::Query::OP_AND_NOT, any_of(kWords), Xapian::Query("zebra"));
  EXPECT_DOUBLE_EQ(coverage("together", query), 1.0);
  EXPECT_DOUBLE_EQ(coverage("past_edge", query), 0.75);
}

}  // namespace
}  // namespace abstracts::query
