// Phrases, NEAR and ADJ over positions kept in a value (query/positional.h),
// checked against Xapian's own OP_PHRASE and OP_NEAR over its position table:
// the bundled corpus indexed both ways, on disk, and the same questions asked.
#include "query/positional.h"

#include <gtest/gtest.h>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include <xapian.h>

#include "engine/analysis/analyzer.h"
#include "engine/analysis/stop_words.h"
#include "engine/compression.h"
#include "indexer/document.h"
#include "indexer/reader.h"
#include "tests/support/test_support.h"

namespace abstracts::query {
namespace {

namespace fs = std::filesystem;
using testing::TempDir;

// The first `n` hits, best first.
std::vector<Xapian::docid> top(const Xapian::Database& db, const Xapian::Query& q,
                               Xapian::doccount n, const Xapian::MatchDecider* decider = nullptr) {
  Xapian::Enquire enquire(db);
  enquire.set_query(q);
  std::vector<Xapian::docid> out;
  Xapian::MSet m = enquire.get_mset(0, n, nullptr, decider);
  for (auto it = m.begin(); it != m.end(); ++it) out.push_back(*it);
  return out;
}

std::set<Xapian::docid> matches(const Xapian::Database& db, const Xapian::Query& q,
                                const Xapian::MatchDecider* decider = nullptr) {
  Xapian::Enquire enquire(db);
  enquire.set_query(q);
  std::set<Xapian::docid> out;
  Xapian::MSet m = enquire.get_mset(0, db.get_doccount(), nullptr, decider);
  for (auto it = m.begin(); it != m.end(); ++it) out.insert(*it);
  return out;
}

class PositionalAgainstXapian : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir();
    Xapian::WritableDatabase ours((*dir_ / "ours").string(), Xapian::DB_CREATE);
    Xapian::WritableDatabase native((*dir_ / "native").string(), Xapian::DB_CREATE);
    analysis::Analyzer analyzer;
    compression::Compressor compressor("");
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(ABSTRACTS_CORPUS_DIR)) files.push_back(e.path());
    std::sort(files.begin(), files.end());
    for (const auto& file : files) {
      auto reader = indexer::Reader::open(file);
      while (auto record = reader->next()) {
        Abstract a =
            indexer::make_abstract(*record, file.string(), reader->venue(), reader->year());
        ours.add_document(indexer::make_document(a, true, analyzer, compressor));
        Xapian::Document doc;
        std::vector<std::string> words;
        for (const auto& t : analyzer.tokenize(a.text)) {
          if (analysis::is_stop_word(t.term)) continue;
          doc.add_posting(t.term, t.position);
          words.push_back(t.term);
        }
        native.add_document(doc);
        texts_->push_back(std::move(words));
      }
    }
    ours.commit();
    native.commit();
  }
  static void TearDownTestSuite() {
    delete dir_;
    texts_->clear();
  }

  static TempDir* dir_;
  static std::vector<std::vector<std::string>>* texts_;
};

TempDir* PositionalAgainstXapian::dir_ = nullptr;
std::vector<std::vector<std::string>>* PositionalAgainstXapian::texts_ =
    new std::vector<std::vector<std::string>>;

// Word groups taken from the abstracts themselves, checked inside the query and
// after ranking (neighbours, words a few
// apart, in and out of order), so many match somewhere and many only nearly.
TEST_F(PositionalAgainstXapian, PhraseAndNearMatchTheSameAbstracts) {
  Xapian::Database ours((*dir_ / "ours").string());
  Xapian::Database native((*dir_ / "native").string());
  ASSERT_FALSE(ours.has_positions());  // nothing in Xapian's position table
  ASSERT_TRUE(native.has_positions());
  ASSERT_EQ(ours.get_doccount(), native.get_doccount());
  std::size_t compared = 0, nonempty = 0, narrower = 0;
  for (std::size_t d = 0; d < texts_->size(); d += 3) {
    const auto& words = (*texts_)[d];
    for (std::size_t i = 0; i + 6 < words.size(); i += 17) {
      for (std::size_t gap : {1, 2, 4}) {
        std::vector<std::vector<std::string>> groups = {
            {words[i], words[i + gap]},
            {words[i + gap], words[i]},
            {words[i], words[i + 1], words[i + 1 + gap]},
            {words[i], words[i]}};
        for (const auto& terms : groups) {
          for (Xapian::termcount window : {2u, 3u, 5u, 12u}) {
            if (window < terms.size()) continue;
            for (auto order : {WordOrder::kAsWritten, WordOrder::kAny}) {
              auto op =
                  order == WordOrder::kAny ? Xapian::Query::OP_NEAR : Xapian::Query::OP_PHRASE;
              const auto want =
                  matches(native, Xapian::Query(op, terms.begin(), terms.end(), window));
              const auto group = words_query({order, terms, window});
              ASSERT_EQ(matches(ours, group.query), want) << describe(group.query);
              // The same check deferred to after ranking (PositionChecks).
              const auto later = words_query({order, terms, window});
              PositionChecks checks(ours);
              checks.defer(later.check);
              ASSERT_EQ(matches(ours, later.query, &checks), want)
                  << describe(later.query) << ", deferred";
              // Asked for the top 3 only, the matcher skips candidates that cannot
              // make them: the same hits in the same order.
              const auto later3 = words_query({order, terms, window});
              PositionChecks checks3(ours);
              checks3.defer(later3.check);
              ASSERT_EQ(top(ours, later3.query, 3, &checks3), top(ours, group.query, 3))
                  << describe(group.query);
              ++compared;
              nonempty += !want.empty();
              const auto all =
                  matches(native, Xapian::Query(Xapian::Query::OP_AND, terms.begin(), terms.end()));
              narrower += want.size() < all.size();
            }
          }
        }
      }
    }
  }
  EXPECT_GT(compared, 1000u);
  EXPECT_GT(nonempty, compared / 3);  // many groups come from a real text
  EXPECT_GT(narrower, 100u);          // and many rule out abstracts that have the words
}

// Weight scales (feedback's) are shown to three digits; a number term is not a scale.
TEST(Describe, RoundsWeightScalesButNotTerms) {
  const Xapian::Query scaled(Xapian::Query::OP_SCALE_WEIGHT, Xapian::Query("web"), 0.14282837364287723);
  const Xapian::Query q(Xapian::Query::OP_AND_MAYBE, Xapian::Query("3.14159265"), scaled);
  EXPECT_EQ(describe(q), "Query((3.14159265 AND_MAYBE 0.143 * web))");
}

// An acronym's long form is a phrase inside an OP_SYNONYM: the synonym matches
// the abstracts with the phrase or with the acronym, and ranks them as one term.
TEST_F(PositionalAgainstXapian, SynonymOfPhraseAndTerm) {
  Xapian::Database ours((*dir_ / "ours").string());
  Xapian::Database native((*dir_ / "native").string());
  const std::vector<std::string> phrase{"larg", "languag", "model"};
  const auto want = matches(
      native, Xapian::Query(Xapian::Query::OP_OR,
                            Xapian::Query(Xapian::Query::OP_PHRASE, phrase.begin(), phrase.end()),
                            Xapian::Query("llm")));
  const std::vector<Words> spellings{{WordOrder::kAsWritten, phrase, 3},
                                     {WordOrder::kAsWritten, {"llm"}, 1}};
  EXPECT_FALSE(want.empty());
  EXPECT_EQ(matches(ours, synonym_query(spellings).query), want);
  const auto later = synonym_query(spellings);
  PositionChecks checks(ours);
  checks.defer(later.check);
  EXPECT_EQ(matches(ours, later.query, &checks), want) << "deferred";
  EXPECT_EQ(describe(later.query), "Query(((larg PHRASE 3 languag PHRASE 3 model) SYNONYM llm))");
}

}  // namespace
}  // namespace abstracts::query
