// "Did you mean": suggest_word() and correct_query() on a small real index.
// Expectations follow the rules in query/spelling.h: the closest word of the
// index by the distance between stems (at most 1 for stems of up to 4 letters,
// 2 for longer ones), same first letter; ties go to the longer common prefix,
// then to the word in more abstracts.
#include "query/spelling.h"

#include <gtest/gtest.h>
#include <xapian.h>

#include <memory>
#include <string>

#include "abstracts/abstract.h"
#include "abstracts/writer.h"
#include "engine/analysis/analyzer.h"
#include "engine/compression.h"
#include "engine/schema.h"
#include "tests/support/test_support.h"

namespace abstracts::query {
namespace {

using abstracts::testing::TempDir;

// Stems: spars, attent (2 abstracts), agent (4 abstracts: more than attent),
// model, mice, card (3), cart (1), text.
const char* const kAbstracts[] = {
    "Sparse attention for long sequences.",
    "Sparse attention scales to long contexts.",
    "Web agents act in browsers.",
    "Language agents plan with tools.",
    "Agents model mice.",
    "Agents for the web.",
    "A card game.",
    "Card tricks.",
    "Cards on tables.",
    "A cart ride.",
    "Plain text tools.",
};

class Spelling : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir();
    {
      Writer writer = Writer::open(dir_->path());
      for (const char* text : kAbstracts) {
        Abstract a;
        a.text = text;
        a.venue = "NeurIPS";
        a.year = 2026;
        writer.add(a);
      }
      writer.commit();
    }
    db_ = new Xapian::Database(dir_->path().string());
    stored_ = new compression::Decompressor(schema::dictionary_of(*db_));
  }
  static void TearDownTestSuite() {
    delete stored_;
    delete db_;
    delete dir_;
  }

  std::string suggest(const std::string& word) const { return suggest_word(*db_, *stored_, word, analyzer_); }
  std::string correct(std::string_view query) const {
    return correct_query(*db_, *stored_, query, analyzer_);
  }

  static TempDir* dir_;
  static Xapian::Database* db_;
  static compression::Decompressor* stored_;
  analysis::Analyzer analyzer_;
};

TempDir* Spelling::dir_ = nullptr;
Xapian::Database* Spelling::db_ = nullptr;
compression::Decompressor* Spelling::stored_ = nullptr;

TEST_F(Spelling, TheIndexHasTheWordsTheTestsAssume) {
  for (const char* term : {"spars", "attent", "agent", "model", "mice", "card", "cart"}) {
    EXPECT_TRUE(db_->term_exists(term)) << term;
  }
  EXPECT_GT(db_->get_termfreq("agent"), db_->get_termfreq("attent"));
  EXPECT_GT(db_->get_termfreq("card"), db_->get_termfreq("cart"));
}

TEST_F(Spelling, SuggestsTheClosestWordAsWritten) {
  // The suggestion is a word as it appears in the abstracts, not a stem.
  EXPECT_EQ(suggest("sparce"), "sparse");
  // "atent" is one edit from both "attent" and "agent" (which is in more
  // abstracts): the longer common prefix wins.
  EXPECT_EQ(suggest("atention"), "attention");
  // A transposition is one edit.
  EXPECT_EQ(suggest("attnetion"), "attention");
  EXPECT_EQ(suggest("agnets"), "agents");
  // Stems of up to 4 letters allow one edit.
  EXPECT_EQ(suggest("mdel"), "model");
  // Same distance, same common prefix: the word in more abstracts.
  EXPECT_EQ(suggest("carx"), "card");
}

TEST_F(Spelling, LeavesKnownWordsAlone) {
  EXPECT_EQ(suggest("attention"), "");
  EXPECT_EQ(suggest("sparse"), "");
  // Another inflection of a known word is known: the index holds stems.
  EXPECT_EQ(suggest("agent"), "");
  EXPECT_EQ(suggest("cart"), "");
}

TEST_F(Spelling, SuggestsNothingWhenNothingIsClose) {
  EXPECT_EQ(suggest("zebra"), "");      // no word starts with z
  EXPECT_EQ(suggest("mdl"), "");        // 3 letters: "model" is 2 edits away
  EXPECT_EQ(suggest("spaghetti"), "");  // more than 2 edits from every s-word
  EXPECT_EQ(suggest("btention"), "");   // the first letter must match
  EXPECT_EQ(suggest("ab"), "");         // too short to correct
  EXPECT_EQ(suggest("2026"), "");       // numbers are never corrected
  EXPECT_EQ(suggest("3.5"), "");
}

TEST_F(Spelling, CorrectsEachUnknownWordOfAQuery) {
  EXPECT_EQ(correct("sparce atention"), "sparse attention");
  EXPECT_EQ(correct("sparce attention"), "sparse attention");
  // The rest of the query is kept as typed.
  EXPECT_EQ(correct("  sparce   \"atention\" "), "  sparse   \"attention\" ");
  EXPECT_EQ(correct("(sparce OR web) -atention"), "(sparse OR web) -atention");
}

// Issue 17: an excluded word says what to leave out; correcting it would leave
// out something else, so "did you mean" keeps it as typed (a hyphen inside a
// word, "sparce-atention", is no exclusion).
TEST_F(Spelling, Issue17LeavesExcludedWordsAlone) {
  EXPECT_EQ(correct("sparse -atention"), "");
  EXPECT_EQ(correct("sparce -atention"), "sparse -atention");
  EXPECT_EQ(correct("-atention sparce"), "-atention sparse");
  EXPECT_EQ(correct("sparce NOT atention"), "sparse NOT atention");
  EXPECT_EQ(correct("sparce NOT (atention OR agnets) mdel"), "sparse NOT (atention OR agnets) model");
  EXPECT_EQ(correct("sparce -\"atention agnets\" mdel"), "sparse -\"atention agnets\" model");
  EXPECT_EQ(correct("sparce-atention"), "sparse-attention");
}

TEST_F(Spelling, LeavesOperatorsFieldsNumbersAndWildcardsAlone) {
  EXPECT_EQ(correct("sparce AND atention"), "sparse AND attention");
  EXPECT_EQ(correct("sparce OR atention NOT agnets"), "sparse OR attention NOT agnets");
  EXPECT_EQ(correct("sparce XOR atention"), "sparse XOR attention");
  EXPECT_EQ(correct("atention NEAR/2 agnets"), "attention NEAR/2 agents");
  EXPECT_EQ(correct("atention ADJ/3 agnets"), "attention ADJ/3 agents");
  // Field names and their values.
  EXPECT_EQ(correct("venue:NeurIPS year:2026 atention"), "venue:NeurIPS year:2026 attention");
  EXPECT_EQ(correct("venue:NeurIPS"), "");
  EXPECT_EQ(correct("source:papers"), "");
  // Numbers, wildcards.
  EXPECT_EQ(correct("atention 2026"), "attention 2026");
  EXPECT_EQ(correct("atenti*"), "");
}

// Regression (issue 3): only the first word of a field value was left alone,
// so the file extension of a source: filter was "corrected":
// "source:papers.txt" -> "source:papers.text".
TEST_F(Spelling, LeavesWholeFieldValuesAlone) {
  ASSERT_TRUE(db_->term_exists("text"));
  EXPECT_EQ(correct("source:papers.txt"), "");
  EXPECT_EQ(correct("atention source:papers.txt"), "attention source:papers.txt");
}

TEST_F(Spelling, ReturnsNothingWhenNothingChanges) {
  EXPECT_EQ(correct("sparse attention"), "");
  EXPECT_EQ(correct("sparse AND attention"), "");
  EXPECT_EQ(correct("zebra"), "");
  EXPECT_EQ(correct(""), "");
}

}  // namespace
}  // namespace abstracts::query
