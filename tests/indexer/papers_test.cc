// Papers: records of one paper, from one file or several, are one document,
// and the index a set of files makes does not depend on the order of the
// changes that led to it (issue 40, finding 4).
#include "indexer/papers.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <compare>
#include <filesystem>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <xapian.h>

#include "abstracts/writer.h"
#include "engine/compression.h"
#include "engine/layout.h"
#include "engine/schema.h"
#include "indexer/document.h"
#include "tests/support/test_support.h"

namespace abstracts::indexer {
namespace papers_test {

namespace fs = std::filesystem;
using abstracts::testing::TempDir;
using abstracts::testing::write_file;

PaperRecord record(std::string id, std::string source, std::uint32_t line, std::string doi = {},
                   std::string arxiv = {}) {
  PaperRecord r;
  r.abstract.id = std::move(id);
  r.abstract.source = std::move(source);
  r.abstract.line = line;
  r.abstract.doi = std::move(doi);
  r.abstract.arxiv_id = std::move(arxiv);
  r.abstract.text = "Text of " + r.abstract.id + " at " + r.abstract.source + ":" + std::to_string(line) + ".";
  return r;
}

std::vector<std::vector<std::string>> grouped_ids(std::vector<PaperRecord> records) {
  std::vector<std::vector<std::string>> out;
  for (const auto& paper : group_papers(std::move(records))) {
    out.emplace_back();
    for (const auto& r : paper) out.back().push_back(r.abstract.source + ":" + std::to_string(r.abstract.line));
  }
  std::sort(out.begin(), out.end());
  return out;
}

TEST(Papers, RecordsLinkThroughEachOthersIdentifiers) {
  // c has the arXiv id, d that arXiv id and DOI z, e DOI z only: one paper.
  // a and b share DOI x: another. f shares nothing.
  const auto groups = grouped_ids({record("x", "/a.bib", 1, "x"), record("x", "/b.ris", 1, "x"),
                                   record("2001.00001", "/c.jsonl", 1, "", "2001.00001"),
                                   record("z", "/d.json", 1, "z", "2001.00001"), record("z", "/e.bib", 1, "z"),
                                   record("f", "/f.txt", 1)});
  const std::vector<std::vector<std::string>> expected{
      {"/a.bib:1", "/b.ris:1"}, {"/c.jsonl:1", "/d.json:1", "/e.bib:1"}, {"/f.txt:1"}};
  EXPECT_EQ(groups, expected);
}

// Issue 43: two entries of one DOI in one .bib are one paper that each one's
// key finds, so neither record is dropped; the last by (source, line) is shown.
TEST(Papers, OfOneFilesRecordsWithOneIdEachIsARecordOfThePaper) {
  const auto groups = grouped_ids({record("k", "/a.bib", 9), record("k", "/a.bib", 2), record("k", "/b.bib", 1)});
  const std::vector<std::vector<std::string>> expected{{"/a.bib:2", "/a.bib:9", "/b.bib:1"}};
  EXPECT_EQ(groups, expected);
}

TEST(Papers, TheRecordShownIsTheLastBySourceAndLine) {
  const auto papers = group_papers({record("k", "/b.bib", 1), record("k", "/a.bib", 7), record("k", "/b.bib", 0)});
  ASSERT_EQ(papers.size(), 1u);
  EXPECT_EQ(papers[0].back().abstract.source, "/b.bib");
  EXPECT_EQ(papers[0].back().abstract.line, 1u);
}

// What a test database writes: documents as the indexer makes them.
struct TestWriter {
  analysis::Analyzer analyzer;
  compression::Compressor compressor{""};
  compression::Decompressor stored{""};
  PaperWriter on(Xapian::WritableDatabase& db) {
    return PaperWriter(
        db, [this](const Abstract& a, bool t) { return make_document(a, t, analyzer, compressor); }, compressor,
        stored);
  }
};

TEST(Papers, RemovingAFileIsOneTransactionByDefault) {
  TempDir dir;
  const std::string path = (dir / "db").string();
  TestWriter w;
  Xapian::WritableDatabase db(path, Xapian::DB_CREATE);
  for (std::uint32_t i = 1; i <= 1200; ++i) w.on(db).add(record("id" + std::to_string(i), "/data/f.jsonl", i));
  w.on(db).add(record("id7", "/data/g.jsonl", 1));  // the same paper in another file
  db.commit();
  const auto ids = w.on(db).remove_file("/data/f.jsonl");
  EXPECT_EQ(ids.size(), 1200u);
  EXPECT_EQ(db.get_doccount(), 1u);  // id7 stays, from g.jsonl
  EXPECT_EQ(Xapian::Database(path).get_doccount(), 1200u);  // a reader sees nothing of it yet
  db.commit();
  Xapian::Database after(path);
  const Abstract kept = schema::stored_abstract(after.get_document(*after.postlist_begin("Qid7")), 0, w.stored);
  EXPECT_EQ(kept.source, "/data/g.jsonl");
  EXPECT_EQ(after.get_termfreq(schema::file_term("/data/f.jsonl")), 0u);
}

TEST(Papers, RemovingAFileCommittedAsItGoesRemovesTheSame) {
  TempDir dir;
  const std::string path = (dir / "db").string();
  TestWriter w;
  Xapian::WritableDatabase db(path, Xapian::DB_CREATE);
  for (std::uint32_t i = 1; i <= 1200; ++i) w.on(db).add(record("id" + std::to_string(i), "/data/f.jsonl", i));
  db.commit();
  EXPECT_EQ(w.on(db).remove_file("/data/f.jsonl", 500).size(), 1200u);
  EXPECT_EQ(Xapian::Database(path).get_doccount(), 200u);  // committed after 500 and 1,000
  db.commit();
  EXPECT_EQ(Xapian::Database(path).get_doccount(), 0u);
}

TEST(Papers, AFileThatLinkedTwoPapersLeavesThemApart) {
  TempDir dir;
  TestWriter w;
  Xapian::WritableDatabase db((dir / "db").string(), Xapian::DB_CREATE);
  w.on(db).add(record("2001.00001", "/c.jsonl", 1, "", "2001.00001"));
  w.on(db).add(record("z", "/e.bib", 1, "z"));
  EXPECT_EQ(db.get_doccount(), 2u);
  w.on(db).add(record("z", "/d.json", 1, "z", "2001.00001"));
  EXPECT_EQ(db.get_doccount(), 1u);
  EXPECT_EQ(db.get_termfreq("XIarxiv:2001.00001"), 1u);
  w.on(db).remove_file("/d.json");
  EXPECT_EQ(db.get_doccount(), 2u);
  EXPECT_EQ(db.get_termfreq("XIarxiv:2001.00001"), 1u);
  EXPECT_EQ(db.get_termfreq("XIdoi:z"), 1u);
  EXPECT_EQ(db.get_termfreq(schema::file_term("/d.json")), 0u);
}

// Everything Xapian holds of a document, its stored abstract and records
// decompressed: equal for equal documents, whatever their number.
struct Doc {
  std::vector<std::pair<std::string, Xapian::termcount>> terms;
  std::vector<std::pair<Xapian::valueno, std::string>> values;
  auto operator<=>(const Doc&) const = default;
};

std::vector<Doc> snapshot(const fs::path& index) {
  Xapian::Database db(layout::current_generation(index).string());
  const compression::Decompressor stored(schema::dictionary_of(db));
  std::vector<Doc> out;
  for (auto d = db.postlist_begin(""); d != db.postlist_end(""); ++d) {
    Doc doc;
    for (auto t = db.termlist_begin(*d); t != db.termlist_end(*d); ++t) doc.terms.emplace_back(*t, t.get_wdf());
    const Xapian::Document x = db.get_document(*d);
    for (auto v = x.values_begin(); v != x.values_end(); ++v) {
      const bool compressed = v.get_valueno() == schema::kStoredSlot || v.get_valueno() == schema::kRecordsSlot;
      doc.values.emplace_back(v.get_valueno(), compressed ? stored.decompress(*v) : *v);
    }
    out.push_back(std::move(doc));
  }
  std::sort(out.begin(), out.end());
  return out;
}

// One CSL-JSON item of a small pool: identifiers and texts repeat across
// items, so records of one paper turn up in many files.
std::string random_item(std::mt19937& rng, int line) {
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
  std::string item = "{\"type\": \"article-journal\", \"title\": \"Paper " + std::to_string(pick(6)) + " at " +
                     std::to_string(line) + "\"";
  if (pick(2) == 0) item += ", \"DOI\": \"10.9/d" + std::to_string(pick(5)) + "\"";
  if (pick(3) == 0) item += ", \"PMID\": \"" + std::to_string(100 + pick(4)) + "\"";
  if (pick(3) == 0) item += ", \"number\": \"arXiv:2001.0000" + std::to_string(pick(4)) + "\"";
  if (pick(4) == 0) item += ", \"citation-key\": \"key" + std::to_string(pick(3)) + "\"";
  static const char* const kTexts[] = {"Lemurs sunbathe in the morning.", "Aardvarks dig burrows at night.",
                                       "Newts regrow their limbs.", "Axolotls keep their gills.",
                                       "Pangolins roll into balls."};
  item += ", \"abstract\": \"" + std::string(kTexts[pick(5)]) + "\"}";
  return item;
}

// A file of 1 to 4 items, now and then two on one line.
std::string random_file(std::mt19937& rng) {
  const int items = 1 + static_cast<int>(rng() % 4);
  std::string text = "[\n";
  for (int i = 0; i < items; ++i) {
    text += random_item(rng, i);
    if (i + 1 < items) text += rng() % 4 == 0 ? ", " : ",\n";
  }
  return text + "\n]\n";
}

void build(const fs::path& index, const fs::path& folder) {
  Writer w = Writer::open(index);
  IndexOptions options;
  options.on_error = [](const std::exception& e) { ADD_FAILURE() << e.what(); };
  w.index({folder}, options);
}

TEST(Issue40, TheSameFilesMakeTheSameIndexWhateverTheOrderOfChanges) {
  for (unsigned seed : {1u, 2u, 3u, 4u}) {
    std::mt19937 rng(seed);
    TempDir dir;
    const fs::path folder = dir / "library", index = dir / "index";
    fs::create_directories(folder);
    for (int step = 0; step < 25; ++step) {
      const std::string name = "f" + std::to_string(rng() % 6) + ".json";
      switch (rng() % 4) {
        case 0:  // gone
          fs::remove(folder / name);
          break;
        case 1:  // changed, but keeps its size and time (cp -p)
          if (fs::exists(folder / name)) {
            const auto time = fs::last_write_time(folder / name);
            std::string text = abstracts::testing::read_file(folder / name);
            std::swap(text[text.find("Paper ") + 6], text[text.rfind("Paper ") + 6]);
            write_file(folder / name, text);
            fs::last_write_time(folder / name, time);
            break;
          }
          [[fallthrough]];
        default:
          write_file(folder / name, random_file(rng));
      }
      build(index, folder);
      TempDir fresh;
      build(fresh.path(), folder);
      const auto changed = snapshot(index), rebuilt = snapshot(fresh.path());
      ASSERT_EQ(changed.size(), rebuilt.size()) << "seed " << seed << ", step " << step;
      ASSERT_TRUE(changed == rebuilt) << "seed " << seed << ", step " << step;
    }
  }
}

TEST(Issue40, ALargeFileSharingPapersMakesTheSameIndexAsAFreshBuild) {
  // Over 10,000 abstracts: indexed into a copy of the index, not a transaction.
  TempDir dir;
  const fs::path folder = dir / "library";
  std::string big = "[\n";
  for (int i = 0; i < 10050; ++i) {
    big += "{\"type\": \"article\", \"DOI\": \"10.9/n" + std::to_string(i) + "\", \"abstract\": \"Numbat " +
           std::to_string(i) + " eats termites.\"},\n";
  }
  big += "{\"type\": \"article\", \"DOI\": \"10.9/last\", \"abstract\": \"Quolls climb.\"}\n]\n";
  write_file(folder / "small.json",
             "[{\"type\": \"article\", \"DOI\": \"10.9/n7\", \"number\": \"arXiv:2001.00007\", \"abstract\": "
             "\"Numbat seven, the preprint.\"},\n{\"type\": \"article\", \"number\": \"arXiv:2001.00007\", "
             "\"abstract\": \"Numbat seven, an arXiv listing.\"}]\n");
  build(dir / "index", folder);
  write_file(folder / "big.json", big);
  build(dir / "index", folder);  // the small file's papers join the big file's
  build(dir / "fresh", folder);
  EXPECT_TRUE(snapshot(dir / "index") == snapshot(dir / "fresh"));
  fs::remove(folder / "big.json");
  build(dir / "index", folder);
  TempDir fresh;
  build(fresh.path(), folder);
  EXPECT_TRUE(snapshot(dir / "index") == snapshot(fresh.path()));
  EXPECT_EQ(snapshot(fresh.path()).size(), 1u);  // the small file's two records: one paper
}

}  // namespace papers_test
}  // namespace abstracts::indexer
