// Issue 40, the second reliability probe: what indexing must get right however
// the files changed before (findings 4, 5, 7 and the summary's counts), run on
// the real binary.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/support/test_support.h"

namespace abstracts::testing::issue40_index_test {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

class Issue40Index : public ::testing::Test {
 protected:
  fs::path index() const { return dir_ / "index"; }

  RunResult abstracts(std::vector<std::string> args, const fs::path& on = {}) const {
    args.insert(args.begin(), {"--index", (on.empty() ? index() : on).string()});
    return run_abstracts(args, sandbox_env(dir_.path()), dir_.path());
  }

  std::size_t count(const fs::path& on = {}) const {
    const auto r = abstracts({"stats", "--json"}, on);
    EXPECT_EQ(r.status, 0) << r.err;
    return r.status == 0 ? json::parse(r.out).at("abstracts").get<std::size_t>() : 0;
  }

  // What `search --json QUERY` answers, one JSON object a hit (score included).
  std::vector<json> hits(const std::string& query, const fs::path& on = {}) const {
    const auto r = abstracts({"search", "--json", "--limit", "100", "--", query}, on);
    EXPECT_LE(r.status, 1) << r.err;
    std::vector<json> out;
    for (const auto& line : lines(r.out)) out.push_back(json::parse(line));
    return out;
  }

  TempDir dir_;
};

// Finding 4: five files, where a.bib and b.ris share DOI x; c.jsonl has arXiv
// 2001.00001; d.json has DOI z and that arXiv id; e.bib has DOI z only.
TEST_F(Issue40Index, SharedIdentifiersGiveTheSameIndexWhateverTheOrderOfChanges) {
  const fs::path lib = dir_ / "lib", out = dir_ / "out";
  fs::create_directories(out);
  write_file(lib / "a.bib", "@article{a1,\n  title = {Paper X from BibTeX},\n  doi = {10.9/x},\n"
                            "  abstract = {Aardvarks dig burrows in the savanna at night.}\n}\n");
  write_file(lib / "b.ris", "TY  - JOUR\nTI  - Paper X from RIS\nDO  - 10.9/X\n"
                            "AB  - Aardvarks dig burrows, the RIS version.\nER  - \n");
  write_file(lib / "c.jsonl", "{\"id\": \"2001.00001\", \"title\": \"Lemur paper\", \"authors\": \"A. Lemurologist\", "
                              "\"abstract\": \"Ring-tailed lemurs sunbathe in the morning.\"}\n");
  write_file(lib / "d.json", "[{\"type\": \"article-journal\", \"title\": \"Lemur paper, the journal version\", "
                             "\"DOI\": \"10.9/z\", \"number\": \"arXiv:2001.00001\", "
                             "\"abstract\": \"Ring-tailed lemurs sunbathe, the journal says.\"}]\n");
  write_file(lib / "e.bib", "@article{e1,\n  title = {Lemur paper, BibTeX},\n  doi = {10.9/z},\n"
                            "  abstract = {Lemurs of Madagascar sunbathe, the BibTeX version.}\n}\n");
  ASSERT_EQ(abstracts({"index", lib.string()}).status, 0);
  EXPECT_EQ(count(), 2u);  // paper x, and c, d and e's paper (once: d links the other two)

  fs::rename(lib / "e.bib", out / "e.bib");
  ASSERT_EQ(abstracts({"index", lib.string()}).status, 0);
  fs::rename(lib / "d.json", out / "d.json");
  ASSERT_EQ(abstracts({"index", lib.string()}).status, 0);
  fs::rename(out / "e.bib", lib / "e.bib");
  fs::rename(out / "d.json", lib / "d.json");
  const auto r = abstracts({"index", lib.string()});
  ASSERT_EQ(r.status, 0) << r.err;

  ASSERT_EQ(abstracts({"index", lib.string()}, dir_ / "fresh").status, 0);
  EXPECT_EQ(count(), 2u);
  EXPECT_EQ(count(dir_ / "fresh"), 2u);
  for (const std::string q : {"arxiv:2001.00001", "doi:10.9/z", "doi:10.9/x", "lemurs", "aardvarks", "sunbathe"}) {
    const auto changed = hits(q), fresh = hits(q, dir_ / "fresh");
    ASSERT_EQ(changed.size(), 1u) << q;
    EXPECT_EQ(changed, fresh) << q;
  }
  // The paper is found by each of its records' ids, and shows e.bib, whose path sorts last.
  for (const std::string id : {"2001.00001", "10.9/z"}) {
    const auto shown = abstracts({"show", "--json", id});
    ASSERT_EQ(shown.status, 0) << id << ": " << shown.err;
    EXPECT_EQ(json::parse(shown.out).at("source"), "lib/e.bib") << id;
  }
}

// Finding 5: a file renamed, then shortened, is no error, and no hit claims a
// line the file does not have.
TEST_F(Issue40Index, ARenamedFileLeavesNoStaleLocation) {
  write_file(dir_ / "f/b.txt", "V 2020\nA about axolotls.\nB about newts.\n");
  ASSERT_EQ(abstracts({"index", "f/b.txt"}).status, 0);
  fs::rename(dir_ / "f/b.txt", dir_ / "f/c.txt");
  ASSERT_EQ(abstracts({"index", "f/c.txt"}).status, 0);
  write_file(dir_ / "f/c.txt", "V 2020\nA about axolotls.\n");
  const auto r = abstracts({"index", "f/c.txt"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_FALSE(contains(r.err, "b.txt")) << r.err;
  // b.txt is gone: its abstracts left the index, and c.txt has no newts now.
  EXPECT_TRUE(hits("newts").empty());
  const auto axolotls = hits("axolotls");
  ASSERT_EQ(axolotls.size(), 1u);
  EXPECT_EQ(axolotls[0].at("source"), "f/c.txt");
  EXPECT_EQ(axolotls[0].at("line"), 2);
}

// Finding 7: a changed file that keeps its size and modification time (`cp -p`,
// `touch -r`, coarse timestamps) is read again.
TEST_F(Issue40Index, AChangedFileWithTheSameSizeAndTimeIsReadAgain) {
  const fs::path file = dir_ / "notes.txt";
  write_file(file, "V 2020\nAbout the aardvark.\n");
  ASSERT_EQ(abstracts({"index", file.string()}).status, 0);
  const auto time = fs::last_write_time(file);
  write_file(file, "V 2020\nAbout the pangolin.\n");  // as many bytes
  fs::last_write_time(file, time);
  const auto r = abstracts({"index", file.string()});
  EXPECT_TRUE(contains(r.err, "1 new or changed")) << r.err;
  EXPECT_EQ(hits("pangolin").size(), 1u);
  EXPECT_EQ(hits("aardvark").size(), 0u);
}

// Finding 14: the summary agrees with `stats`: two records of one DOI in one
// file are one abstract, and a file letting go of an abstract another file has
// is counted once, not read again.
TEST_F(Issue40Index, TheSummaryAgreesWithStats) {
  write_file(dir_ / "lib/two.ris", "TY  - JOUR\nDO  - 10.9/one\nAB  - Okapis browse leaves.\nER  - \n"
                                   "TY  - JOUR\nDO  - 10.9/ONE\nAB  - Okapis browse, again.\nER  - \n");
  auto r = abstracts({"index", "lib"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(contains(r.err, "(2 records)")) << r.err;
  EXPECT_TRUE(contains(r.err, "1 record the same paper as another")) << r.err;
  EXPECT_TRUE(contains(r.err, "the index holds 1 abstract\n")) << r.err;
  EXPECT_EQ(count(), 1u);

  write_file(dir_ / "lib/a.txt", "V 2020\nShared about quokkas.\nOnly a, about numbats.\n");
  write_file(dir_ / "lib/b.txt", "V 2020\nShared about quokkas.\n");
  r = abstracts({"index", "lib"});
  EXPECT_TRUE(contains(r.err, "1 record the same paper as another; the index holds 3 abstracts")) << r.err;
  fs::remove(dir_ / "lib/b.txt");
  r = abstracts({"index", "lib"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(contains(r.err, "indexed 2 files (4 records)")) << r.err;  // two.ris and a.txt, each once
  EXPECT_TRUE(contains(r.err, "0 new or changed, 2 unchanged, 1 file gone, 0 abstracts removed")) << r.err;
  EXPECT_TRUE(contains(r.err, "the index holds 3 abstracts")) << r.err;
  EXPECT_EQ(count(), 3u);
}

// Finding 11: what a record stores and shows is bounded, and the count of its
// authors kept.
TEST_F(Issue40Index, AuthorsPastTheCapAreCountedNotStoredAndShownShort) {
  std::string authors;
  for (int i = 0; i < 12000; ++i) authors += (i == 0 ? "" : " and ") + std::string("Author") + std::to_string(i);
  write_file(dir_ / "atlas.bib", "@article{atlas, doi = {10.9/atlas}, author = {" + authors +
                                     "}, abstract = {Collaborations of aardwolves measure things.}}\n");
  std::string text = "TY  - JOUR\nDO  - 10.9/long\nAB  - Long about bettongs.\n";
  for (int i = 0; i < 30000; ++i) text += "   and then the bettongs dug another burrow, number " + std::to_string(i) + "\n";
  write_file(dir_ / "long.ris", text + "ER  - \n");
  ASSERT_EQ(abstracts({"index", "atlas.bib", "long.ris"}).status, 0);
  auto r = abstracts({"show", "--json", "10.9/atlas"});
  ASSERT_EQ(r.status, 0) << r.err;
  const json shown = json::parse(r.out);
  EXPECT_EQ(shown.at("author_count"), 12000);
  EXPECT_EQ(shown.at("authors").size(), 10000u);
  r = abstracts({"show", "10.9/atlas"});
  EXPECT_TRUE(contains(r.out, "Author8, Author9 and 11990 others\n")) << r.out.substr(0, 300);
  EXPECT_LT(r.out.size(), 2000u);
  r = abstracts({"show", "--json", "10.9/long"});
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string stored = json::parse(r.out).at("text");
  EXPECT_LE(stored.size(), std::size_t{1} << 20);
  EXPECT_TRUE(stored.ends_with("\u2026")) << stored.substr(stored.size() - 40);
  EXPECT_EQ(count(), 2u);
}

}  // namespace
}  // namespace abstracts::testing::issue40_index_test
