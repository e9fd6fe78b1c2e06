// Indexing into a real on-disk index through the public API (Writer): bulk
// builds, re-indexing, files that change, vanish or are bad, and the writer lock.
// Expectations are derived from the corpus files themselves: counts, ids
// (content_id of each line) and line numbers.
#include "abstracts/writer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include <xapian.h>

#include "abstracts/abstract.h"
#include "abstracts/error.h"
#include "abstracts/index.h"
#include "engine/layout.h"
#include "tests/support/corpus.h"
#include "tests/support/test_support.h"

namespace abstracts {
namespace {

namespace fs = std::filesystem;
using namespace testing;  // abstracts::testing: the corpus, temporary directories

// The ids the index has, as seen through get(), for `lines`.
std::set<std::string> present_ids(const Index& index, const std::vector<CorpusLine>& lines) {
  std::set<std::string> ids;
  for (const auto& l : lines) {
    if (index.get(l.id())) ids.insert(l.id());
  }
  return ids;
}

// Rewrites `file` with its lines, joined by '\n' (the corpus files end with one).
void write_lines(const fs::path& file, const std::vector<std::string>& lines) {
  std::string text;
  for (const auto& l : lines) text += l + "\n";
  write_file(file, text);
}

// The ids of an index's abstracts in Xapian document-number order, the order
// in which hits of equal score are listed.
std::vector<std::string> ids_in_docid_order(const fs::path& dir) {
  Xapian::Database db(layout::current_generation(dir).string());
  std::vector<std::string> ids;
  for (auto d = db.postlist_begin(""); d != db.postlist_end(""); ++d) {
    for (auto t = db.termlist_begin(*d); t != db.termlist_end(*d); ++t) {
      if ((*t).starts_with("Q")) ids.push_back((*t).substr(1));
    }
  }
  return ids;
}

// Building the same files twice gives the same document numbers, so ties rank
// the same (the workers once took batches in whatever order they got to them).
TEST(IndexWriter, BulkBuildIsTheSameEveryTime) {
  TempDir dir;
  std::string text = "NeurIPS 2026 Papers\n";
  for (int i = 0; i < 3000; ++i) text += "Abstract " + std::to_string(i) + " about zyzzyva ranking.\n";
  write_file(dir / "many.txt", text);
  std::vector<std::string> first;
  for (int build = 0; build < 3; ++build) {
    const fs::path index = dir / ("index" + std::to_string(build));
    IndexOptions options;
    options.threads = 3;
    ASSERT_EQ(Writer::open(index).index({dir / "many.txt"}, options), 0u);
    const auto ids = ids_in_docid_order(index);
    ASSERT_EQ(ids.size(), 3000u);
    if (build == 0) first = ids;
    EXPECT_EQ(ids, first) << "build " << build;
  }
}

TEST(IndexWriter, ReindexingIsIdempotent) {
  TempDir dir;
  const auto expected = corpus_abstracts();
  auto writer = Writer::open(dir / "index");
  ASSERT_EQ(writer.index_directory(ABSTRACTS_CORPUS_DIR), 0u);

  std::vector<FileReport> again;
  ASSERT_EQ(writer.index_directory(ABSTRACTS_CORPUS_DIR,
                                   [&](const FileReport& r) { again.push_back(r); }),
            0u);
  ASSERT_EQ(again.size(), corpus_files().size());
  for (const auto& r : again) {
    EXPECT_EQ(r.status, FileReport::Status::kUnchanged) << r.path;
    EXPECT_EQ(r.abstracts, abstracts_of(r.path).size()) << r.path;
    EXPECT_EQ(r.removed, 0u);
  }
  for (const auto& f : corpus_files()) {
    auto r = writer.index_file(f);
    EXPECT_EQ(r.status, FileReport::Status::kUnchanged) << f;
    EXPECT_EQ(r.abstracts, abstracts_of(f).size()) << f;
  }
  auto index = Index::open(dir / "index");
  EXPECT_EQ(index.stats().abstracts, expected.size());
  EXPECT_EQ(index.stats().files, corpus_files().size());
  EXPECT_EQ(present_ids(index, expected).size(), expected.size());
}

TEST(IndexWriter, TouchedFileIsUnchanged) {
  TempDir dir;
  auto files = copy_corpus(dir.path() / "corpus");
  const auto expected = corpus_abstracts();
  auto writer = Writer::open(dir / "index");
  ASSERT_EQ(writer.index_directory(dir / "corpus"), 0u);

  fs::last_write_time(files[0], fs::last_write_time(files[0]) + std::chrono::hours(1));
  auto r = writer.index_file(files[0]);
  EXPECT_EQ(r.status, FileReport::Status::kUnchanged);
  EXPECT_EQ(r.abstracts, abstracts_of(files[0]).size());
  EXPECT_EQ(r.removed, 0u);
  // The new time was remembered: still unchanged the next time.
  EXPECT_EQ(writer.index_file(files[0]).status, FileReport::Status::kUnchanged);

  auto index = Index::open(dir / "index");
  EXPECT_EQ(index.stats().abstracts, expected.size());
  // No duplicate: each id once among all abstracts ("-word": everything but it).
  auto ids = hit_ids(index.search("-zyzzyvaquux", {.limit = 1000}));
  EXPECT_EQ(std::set<std::string>(ids.begin(), ids.end()).size(), ids.size());
  EXPECT_EQ(ids.size(), expected.size());
}

TEST(IndexWriter, AbstractRemovedFromFileLeavesTheIndex) {
  TempDir dir;
  const fs::path file = dir / "one.txt";
  fs::copy_file(corpus_files()[0], file);
  auto writer = Writer::open(dir / "index");
  auto first = writer.index_file(file);
  const auto before = abstracts_of(file);
  ASSERT_GE(before.size(), 3u);
  EXPECT_EQ(first.status, FileReport::Status::kIndexed);
  EXPECT_EQ(first.abstracts, before.size());

  // Drop the second abstract's line.
  const CorpusLine dropped = before[1];
  auto lines = raw_lines(file);
  lines.erase(lines.begin() + (dropped.line - 1));
  write_lines(file, lines);
  const auto after = abstracts_of(file);
  ASSERT_EQ(after.size(), before.size() - 1);

  auto r = writer.index_file(file);
  EXPECT_EQ(r.status, FileReport::Status::kIndexed);
  EXPECT_EQ(r.abstracts, after.size());
  EXPECT_EQ(r.removed, 1u);

  auto index = Index::open(dir / "index");
  EXPECT_FALSE(index.get(dropped.id()).has_value());
  EXPECT_EQ(index.stats().abstracts, after.size());
  // The abstracts after it moved up a line, and the index says so.
  for (const auto& l : after) {
    auto a = index.get(l.id());
    ASSERT_TRUE(a.has_value()) << l.line;
    EXPECT_EQ(a->line, l.line);
  }
}

TEST(IndexWriter, EditedAbstractReplacesTheOldOne) {
  TempDir dir;
  const fs::path file = dir / "one.txt";
  fs::copy_file(corpus_files()[0], file);
  auto writer = Writer::open(dir / "index");
  writer.index_file(file);
  const auto before = abstracts_of(file);
  ASSERT_GE(before.size(), 2u);

  const CorpusLine edited = before[0];
  auto lines = raw_lines(file);
  lines[edited.line - 1] = edited.raw + " We also release zyzzyvaquux.";
  write_lines(file, lines);
  const std::string new_id = content_id(lines[edited.line - 1]);
  ASSERT_NE(new_id, edited.id());

  auto r = writer.index_file(file);
  EXPECT_EQ(r.status, FileReport::Status::kIndexed);
  EXPECT_EQ(r.abstracts, before.size());
  EXPECT_EQ(r.removed, 1u);

  auto index = Index::open(dir / "index");
  EXPECT_FALSE(index.get(edited.id()).has_value());
  auto a = index.get(new_id);
  ASSERT_TRUE(a.has_value());
  EXPECT_EQ(a->line, edited.line);
  EXPECT_EQ(index.stats().abstracts, before.size());
  EXPECT_EQ(hit_ids(index.search("zyzzyvaquux", literal())), std::vector<std::string>{new_id});
}

// The directory as the user may spell it: plain, with a trailing slash, with "./".
class FileDeletedFromDirectory : public ::testing::TestWithParam<const char*> {};

TEST_P(FileDeletedFromDirectory, LeavesTheIndex) {
  TempDir dir;
  auto files = copy_corpus(dir.path() / "corpus");
  ASSERT_GE(files.size(), 2u);
  const fs::path spelled = dir.path().string() + GetParam();
  auto writer = Writer::open(dir / "index");
  ASSERT_EQ(writer.index_directory(spelled), 0u);
  const auto gone = abstracts_of(files.back());
  const auto total = corpus_abstracts().size();

  fs::remove(files.back());
  ASSERT_EQ(writer.index_directory(spelled), 0u);

  auto index = Index::open(dir / "index");
  auto stats = index.stats();
  EXPECT_EQ(stats.abstracts, total - gone.size());
  EXPECT_EQ(stats.files, files.size() - 1);
  EXPECT_TRUE(present_ids(index, gone).empty());
  const auto kept = abstracts_of(files.front());
  EXPECT_EQ(present_ids(index, kept).size(), kept.size());
}

INSTANTIATE_TEST_SUITE_P(Spellings, FileDeletedFromDirectory,
                         ::testing::Values("/corpus", "/corpus/", "/./corpus"));

TEST(IndexWriter, RemoveFileForgetsItsAbstracts) {
  TempDir dir;
  auto files = copy_corpus(dir.path() / "corpus");
  auto writer = Writer::open(dir / "index");
  ASSERT_EQ(writer.index_directory(dir / "corpus"), 0u);
  const auto gone = abstracts_of(files.front());
  EXPECT_EQ(writer.remove_file(files.front()), gone.size());
  EXPECT_EQ(writer.remove_file(files.front()), 0u);
  writer.commit();
  auto index = Index::open(dir / "index");
  EXPECT_TRUE(present_ids(index, gone).empty());
  EXPECT_EQ(index.stats().files, files.size() - 1);
  EXPECT_EQ(index.stats().abstracts, corpus_abstracts().size() - gone.size());
  // Forgotten: indexing it again indexes it afresh.
  auto r = writer.index_file(files.front());
  EXPECT_EQ(r.status, FileReport::Status::kIndexed);
  EXPECT_EQ(r.abstracts, gone.size());
}

TEST(IndexWriter, SecondWriterIsLockedOut) {
  TempDir dir;
  const auto expected = corpus_abstracts();
  auto writer = Writer::open(dir / "index");
  ASSERT_EQ(writer.index_directory(ABSTRACTS_CORPUS_DIR), 0u);

  EXPECT_THROW(Writer::open(dir / "index"), IndexLocked);
  try {
    Writer::open(dir / "index");
  } catch (const IndexLocked& e) {
    EXPECT_FALSE(e.hint().empty());
  }

  auto index = Index::open(dir / "index");
  EXPECT_EQ(index.stats().abstracts, expected.size());
  EXPECT_EQ(present_ids(index, expected).size(), expected.size());
  // The first writer still works.
  const std::string id = writer.add(make_abstract("A note on zyzzyvaquux."));
  writer.commit();
  EXPECT_TRUE(index.get(id).has_value());
  EXPECT_EQ(index.stats().abstracts, expected.size() + 1);
}

TEST(IndexWriter, LockIsReleasedWhenTheWriterGoes) {
  TempDir dir;
  { auto writer = Writer::open(dir / "index"); }
  EXPECT_NO_THROW(Writer::open(dir / "index"));
}

TEST(IndexWriter, InvalidUtf8FileThrowsAndChangesNothing) {
  TempDir dir;
  const auto expected = corpus_abstracts();
  auto writer = Writer::open(dir / "index");
  ASSERT_EQ(writer.index_directory(ABSTRACTS_CORPUS_DIR), 0u);

  const fs::path bad = dir / "bad.txt";
  write_file(bad,
             "NeurIPS 2026 Papers\n\nA fine abstract about zyzzyvaquux.\n\nCaf\xe9 au lait, in "
             "Latin-1.\n");
  try {
    writer.index_file(bad);
    ADD_FAILURE() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.line(), 5u) << e.what();
    EXPECT_TRUE(fs::equivalent(e.file(), bad)) << e.file();
    EXPECT_NE(std::string(e.what()).find("UTF-8"), std::string::npos) << e.what();
  }
  writer.commit();

  auto index = Index::open(dir / "index");
  EXPECT_EQ(index.stats().abstracts, expected.size());
  EXPECT_EQ(index.stats().files, corpus_files().size());
  EXPECT_EQ(present_ids(index, expected).size(), expected.size());
  EXPECT_TRUE(index.search("zyzzyvaquux", literal()).hits.empty());
}

TEST(IndexWriter, FileThatTurnsBadKeepsItsOldAbstracts) {
  TempDir dir;
  const fs::path file = dir / "one.txt";
  fs::copy_file(corpus_files()[0], file);
  const auto before = abstracts_of(file);
  auto writer = Writer::open(dir / "index");
  writer.index_file(file);

  // Drop an abstract and add a bad byte: the whole file is refused.
  auto lines = raw_lines(file);
  lines.erase(lines.begin() + (before[0].line - 1));
  lines.push_back("Bad \xff byte.");
  write_lines(file, lines);
  EXPECT_THROW(writer.index_file(file), InputError);
  writer.commit();

  auto index = Index::open(dir / "index");
  EXPECT_EQ(index.stats().abstracts, before.size());
  EXPECT_EQ(present_ids(index, before).size(), before.size());
}

TEST(IndexWriter, DirectoryWithABadFileIndexesTheOthers) {
  TempDir dir;
  auto files = copy_corpus(dir.path() / "corpus");
  write_file(dir.path() / "corpus" / "zz_bad.txt", "NeurIPS 2026 Papers\n\nBad \xff byte.\n");
  auto writer = Writer::open(dir / "index");
  std::vector<std::string> errors;
  std::size_t failed = writer.index_directory(
      dir / "corpus", {}, [&](const std::exception& e) { errors.push_back(e.what()); });
  EXPECT_EQ(failed, 1u);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].find("zz_bad.txt"), std::string::npos) << errors[0];
  EXPECT_EQ(Index::open(dir / "index").stats().abstracts, corpus_abstracts().size());
}

TEST(IndexWriter, AddedAbstractComesBackWithDerivedFields) {
  TempDir dir;
  auto writer = Writer::open(dir / "index");
  const std::string raw = R"(We teach Pok\'emon agents to trade. They trade well.)";
  const std::string id = writer.add(make_abstract(raw));
  EXPECT_EQ(id, content_id(raw));
  const std::string given = writer.add(make_abstract("Some text.", "my-id", "A \\textbf{bold} title"));
  EXPECT_EQ(given, "my-id");
  writer.commit();

  auto index = Index::open(dir / "index");
  auto a = index.get(id);
  ASSERT_TRUE(a.has_value());
  EXPECT_EQ(a->id, id);
  EXPECT_EQ(a->text, "We teach Pokémon agents to trade. They trade well.");
  EXPECT_EQ(a->title, "We teach Pokémon agents to trade");
  EXPECT_EQ(a->source, "");
  EXPECT_EQ(a->line, 0u);
  EXPECT_EQ(a->venue, "");
  EXPECT_EQ(a->year, 0);
  EXPECT_EQ(hit_ids(index.search("pokemon")), std::vector<std::string>{id});
  EXPECT_EQ(hit_ids(index.search(R"(Pok\'emon)")), std::vector<std::string>{id});

  auto b = index.get("my-id");
  ASSERT_TRUE(b.has_value());
  EXPECT_EQ(b->title, "A bold title");
  EXPECT_EQ(b->text, "Some text.");

  // Adding the same id again replaces, not duplicates.
  writer.add(make_abstract("Other text.", "my-id"));
  writer.commit();
  EXPECT_EQ(index.stats().abstracts, 2u);
  EXPECT_EQ(index.get("my-id")->text, "Other text.");
}

TEST(IndexWriter, RemoveReturnsWhetherThereWasOne) {
  TempDir dir;
  auto writer = Writer::open(dir / "index");
  const std::string id = writer.add(make_abstract("An abstract about zyzzyvaquux."));
  writer.commit();
  EXPECT_TRUE(writer.remove(id));
  EXPECT_FALSE(writer.remove(id));
  EXPECT_FALSE(writer.remove("no-such-id"));
  writer.commit();
  auto index = Index::open(dir / "index");
  EXPECT_FALSE(index.get(id).has_value());
  EXPECT_TRUE(index.search("zyzzyvaquux", literal()).hits.empty());
  EXPECT_EQ(index.stats().abstracts, 0u);
}

TEST(IndexWriter, StopWordsAreGapsInPhrases) {
  TempDir dir;
  auto writer = Writer::open(dir / "index");
  const std::string art = writer.add(make_abstract("We beat the state of the art in zyzzyva ranking."));
  const std::string apart = writer.add(make_abstract("The state funds zyzzyva work, and the art is ours."));
  writer.commit();
  auto index = Index::open(dir / "index");
  // "of the" are not indexed; the phrase still needs state and art 3 positions apart.
  EXPECT_EQ(hit_ids(index.search("\"state of the art\"")), std::vector<std::string>{art});
  EXPECT_EQ(hit_ids(index.search("state-of-the-art")), std::vector<std::string>{art});
  EXPECT_EQ(hit_ids(index.search("\"the zyzzyva\"")).size(), 2u);
  EXPECT_THROW(index.search("the of"), QueryError);
  EXPECT_EQ(index.stats().abstracts, 2u);
  (void)apart;
}

TEST(IndexWriter, TitleWordsOutrankTheSameWordsInTheText) {
  TempDir dir;
  auto writer = Writer::open(dir / "index");
  // Same words, same length: one has "zyzzyva" in its title, the other in its text.
  const std::string in_title = writer.add(make_abstract("Plain words about ranking here.", "t", "Zyzzyva ranking"));
  const std::string in_text = writer.add(make_abstract("Plain words about zyzzyva here.", "x", "Ranking words"));
  writer.commit();
  auto index = Index::open(dir / "index");
  EXPECT_EQ(hit_ids(index.search("zyzzyva")), (std::vector<std::string>{in_title, in_text}));
}

TEST(IndexWriter, ReaderSeesCommitsOnItsNextCall) {
  TempDir dir;
  auto writer = Writer::open(dir / "index");
  ASSERT_EQ(writer.index_directory(ABSTRACTS_CORPUS_DIR), 0u);
  auto index = Index::open(dir / "index");
  // Use the reader once so it holds an open handle on the old revision.
  ASSERT_TRUE(index.search("zyzzyvaquux", literal()).hits.empty());
  const auto count = index.stats().abstracts;

  const std::string id = writer.add(make_abstract("A study of zyzzyvaquux."));
  // Not visible before commit.
  EXPECT_TRUE(index.search("zyzzyvaquux", literal()).hits.empty());
  writer.commit();

  EXPECT_EQ(hit_ids(index.search("zyzzyvaquux", literal())), std::vector<std::string>{id});
  EXPECT_TRUE(index.get(id).has_value());
  EXPECT_EQ(index.stats().abstracts, count + 1);

  ASSERT_TRUE(writer.remove(id));
  writer.commit();
  EXPECT_TRUE(index.search("zyzzyvaquux", literal()).hits.empty());
}

// Issue 16 (found while writing the reader fuzzer): a header of 38 "ﷺ" (U+FDFA)
// and a year is 119 bytes, but folded (NFKC) its venue is 1,256, past Xapian's
// 245-byte terms, and indexing the file failed. The venue term is cut, the same
// way for venue: queries.
TEST(Issue16, VenueThatFoldsLongIsCutNotRefused) {
  TempDir dir;
  std::string venue;
  for (int i = 0; i < 38; ++i) venue += "\uFDFA";
  write_file(dir / "long-venue.txt", venue + " 2026\nAn abstract about okapis.\n");
  auto writer = Writer::open(dir / "index");
  EXPECT_EQ(writer.index_file(dir / "long-venue.txt").abstracts, 1u);
  writer.commit();
  const auto index = Index::open(dir / "index");
  EXPECT_EQ(hit_ids(index.search("okapis venue:" + venue)).size(), 1u);
}

}  // namespace
}  // namespace abstracts
