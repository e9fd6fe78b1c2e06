// What a search reads of its hits (query/hit_reads.h). On remote shards a hit's
// words are counted again from its stored abstract, not read from its term list
// (a message per term): the two must agree for every abstract, or a question's
// feedback on a cluster would pick other words than on one index.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include <xapian.h>

#include "abstracts/error.h"
#include "abstracts/writer.h"
#include "engine/compression.h"
#include "engine/layout.h"
#include "engine/schema.h"
#include "query/hit_reads.h"
#include "tests/support/test_support.h"

namespace abstracts {
namespace hit_reads_test {
namespace {

namespace fs = std::filesystem;
using testing::make_abstract;
using testing::TempDir;

// For every abstract of the index in `dir`: the words and id term counted from
// its stored abstract are its term list's. Returns how many abstracts it checked.
std::size_t expect_counted_as_listed(const fs::path& dir) {
  const Xapian::Database db(layout::current_generation(dir).string());
  const compression::Decompressor stored(schema::dictionary_of(db));
  query::HitReads listed(db), counted(db, /*remote=*/true, &stored);
  std::size_t checked = 0;
  for (auto it = db.postlist_begin(""); it != db.postlist_end(""); ++it) {
    query::HitReads::Terms want;  // the id term and word terms of the term list
    for (const auto& t : listed.words(*it)) {
      if (t.first.starts_with(schema::kIdPrefix) || schema::is_word_term(t.first)) want.push_back(t);
    }
    const auto id = std::find_if(want.begin(), want.end(),
                                 [](const auto& t) { return t.first.starts_with(schema::kIdPrefix); });
    EXPECT_NE(id, want.end()) << *it;
    EXPECT_EQ(counted.words(*it), want) << (id != want.end() ? id->first : std::to_string(*it));
    ++checked;
  }
  return checked;
}

TEST(HitReads, WordsCountedFromTheStoredAbstractAreItsTermList) {
  TempDir dir;
  auto writer = Writer::open(dir / "index");
  writer.index({ABSTRACTS_CORPUS_DIR});
  // A title of its own (its words count three times, at positions of their own),
  // a title repeating its words and the text's, stop words, LaTeX, accents.
  writer.add(make_abstract("Diffusion models denoise; the diffusion of heat is older. $\\Omega(1/T)$ regret.",
                           "titled", "Diffusion of Diffusion Models and the Pok\\'emon Grévy's zebra"));
  writer.add(make_abstract("A text-only abstract with no title: large language models (LLMs) reason.", "untitled"));
  writer.commit();
  EXPECT_EQ(expect_counted_as_listed(dir / "index"), 59u);
}

TEST(HitReads, WordsCountedFromTheStoredAbstractAreItsTermListForRealExports) {
  const fs::path formats = fs::path(ABSTRACTS_SHARED_DATA_DIR) / "formats";
  if (!fs::is_directory(formats)) GTEST_SKIP() << "no " << formats << " (the shared data is not beside the project)";
  TempDir dir;
  auto writer = Writer::open(dir / "index");
  // BibTeX, RIS, CSL-JSON, PubMed XML, arXiv and OpenAlex records: titles of their
  // own, LaTeX, markup, every script the exports hold.
  writer.index({formats});
  EXPECT_GT(expect_counted_as_listed(dir / "index"), 1000u);
}

}  // namespace
}  // namespace hit_reads_test
}  // namespace abstracts
