// Issue 57 through the real binary: a full disk while a large file is indexed
// is an error that leaves the index as it was and nothing behind; vectors with
// no buckets, and options out of range; a strict run reads again an unchanged
// file a lenient run left records of out; the demo corpus stays out of an index
// whose sources were forgotten.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/mount.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/corpus.h"
#include "tests/support/test_support.h"

namespace abstracts::testing::issue57_index_test {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

const std::string kHeader = "NeurIPS 2026 Papers\n";

class Issue57Index : public ::testing::Test {
 protected:
  RunResult abstracts(const fs::path& index, std::vector<std::string> args) const {
    args.insert(args.begin(), {"--index", index.string()});
    return run_abstracts(args, sandbox_env(dir_.path()), dir_.path());
  }
  RunResult abstracts(std::vector<std::string> args) const { return abstracts(dir_ / "index", std::move(args)); }

  // What the index directory holds: "XAPIANDB gen-000002 writer.lock".
  static std::string entries(const fs::path& dir) {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    std::string out;
    for (const auto& n : names) out += (out.empty() ? "" : " ") + n;
    return out;
  }

  TempDir dir_;
};

// Finding 1: on a disk too small for it, a file of more than 10,000 abstracts
// (written into a copy of the index, published when whole) fails with an
// error, exit 2: the index keeps what it had, and no half-written generation
// stays. Into a new index, no index is left at all. Needs root for the small
// disk (a tmpfs): skipped without.
TEST_F(Issue57Index, AFullDiskWhileIndexingALargeFileIsAnError) {
  const fs::path disk = dir_ / "disk";
  fs::create_directories(disk);
  if (::mount("tmpfs", disk.c_str(), "tmpfs", 0, "size=20m") != 0) {
    GTEST_SKIP() << "cannot mount a small tmpfs to fill (needs root): " << std::strerror(errno);
  }
  struct Unmount {
    fs::path path;
    ~Unmount() { ::umount2(path.c_str(), MNT_DETACH); }
  } unmount{disk};
  // 12,000 abstracts of 120 to 220 words of the bundled corpus each, from
  // places in it a fixed generator picks: an index over 20 MB, of text as real.
  std::vector<std::string> words;
  for (const auto& line : corpus_abstracts()) {
    std::istringstream in(line.raw);
    for (std::string w; in >> w;) words.push_back(w);
  }
  std::mt19937 random(57);
  std::string big;
  for (int i = 0; i < 12000; ++i) {
    const std::size_t n = 120 + random() % 101, at = random() % (words.size() - n - 8);
    std::string text, title;
    for (std::size_t w = at; w < at + n; ++w) text += words[w] + " ";
    for (std::size_t w = at + n; w < at + n + 8; ++w) title += words[w] + " ";
    big += json{{"_id", "doc" + std::to_string(i)}, {"title", title}, {"text", text}}.dump() + "\n";
  }
  write_file(dir_ / "big.jsonl", big);
  write_file(dir_ / "small.txt", kHeader + "About aardvarks.\nAbout bilbies.\n");

  const fs::path index = disk / "idx";
  ASSERT_EQ(abstracts(index, {"index", "-q", "small.txt"}).status, 0);
  const std::string before = entries(index);
  auto r = abstracts(index, {"index", "big.jsonl"});
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_TRUE(contains(r.err, "error: ")) << r.err;
  EXPECT_FALSE(contains(r.err, "terminate")) << r.err;
  EXPECT_EQ(entries(index), before) << "a half-written generation stayed";
  r = abstracts(index, {"stats", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(json::parse(r.out).at("abstracts"), 2);

  // Into a new index, whose bulk build fails: no index is left.
  const fs::path fresh = disk / "fresh";
  r = abstracts(fresh, {"index", "big.jsonl"});
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_FALSE(contains(r.err, "terminate")) << r.err;
  EXPECT_FALSE(fs::exists(fresh)) << entries(fresh);
  EXPECT_EQ(entries(disk), "idx");
}

// Finding 2: --buckets 0 learns whole words only, where it divided by zero.
TEST_F(Issue57Index, VectorsWithoutBucketsLearnWholeWords) {
  ASSERT_EQ(abstracts({"index", "-q", ABSTRACTS_CORPUS_DIR}).status, 0);
  auto r = abstracts({"vectors", "build", "--buckets", "0", "--epochs", "1", "--quiet", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(json::parse(r.out).at("abstracts"), 57);
  r = abstracts({"search", "--semantic", "--count", "animals in the wild"});
  EXPECT_EQ(r.status, 0) << r.err;
}

// Finding 14: --max-training below 0 is refused; vectors that no abstract
// would get (no word comes twice) are an error, as for one abstract.
TEST_F(Issue57Index, VectorOptionsAndTooLittleTextAreRefused) {
  write_file(dir_ / "three.txt", kHeader + "Alpha bravo charlie.\nDelta echo foxtrot.\nGolf hotel india.\n");
  ASSERT_EQ(abstracts({"index", "-q", "three.txt"}).status, 0);
  for (const char* bad : {"-1", "-5000000000"}) {
    const auto r = abstracts({"vectors", "build", "--quiet", "--max-training", bad});
    EXPECT_EQ(r.status, 2) << bad << ": " << r.err;
    EXPECT_TRUE(contains(r.err, "--max-training")) << r.err;
  }
  const auto r = abstracts({"vectors", "build", "--quiet", "--epochs", "1"});
  EXPECT_EQ(r.status, 2) << r.out << r.err;
  EXPECT_TRUE(contains(r.err, "too little text to learn vectors from")) << r.err;
}

// Finding 12: a file indexed leniently with a bad record fails `index --strict`
// unchanged, as it would have changed.
TEST_F(Issue57Index, AStrictRunReadsAgainWhatALenientRunLeftOut) {
  write_file(dir_ / "a.jsonl", "{\"_id\": \"a\", \"text\": \"About aardvarks.\"}\n{\"_id\": broken\n"
                               "{\"_id\": \"b\", \"text\": \"About bilbies.\"}\n");
  auto r = abstracts({"index", "a.jsonl"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(contains(r.err, "1 record that could not be read")) << r.err;
  r = abstracts({"index", "--strict", "a.jsonl"});
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_TRUE(contains(r.err, "a.jsonl:2")) << r.err;
  r = abstracts({"index", "--strict"});  // a sync likewise
  EXPECT_EQ(r.status, 2) << r.err;
  r = abstracts({"index"});  // and a lenient run is content as before
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(contains(r.err, "0 new or changed, 1 unchanged")) << r.err;
}

// Finding 8's class: a record keeps its first 1,000 keywords, however many it
// names (each was a term of its document).
TEST_F(Issue57Index, ARecordKeepsItsFirstThousandKeywords) {
  std::string ris = "TY  - JOUR\nDO  - 10.9/kw\nAB  - Many keywords about tapirs.\n";
  for (int i = 0; i < 5000; ++i) ris += "KW  - keyword" + std::to_string(i) + "\n";
  write_file(dir_ / "kw.ris", ris + "ER  - \n");
  ASSERT_EQ(abstracts({"index", "-q", "kw.ris"}).status, 0);
  const auto r = abstracts({"show", "--json", "10.9/kw"});
  ASSERT_EQ(r.status, 0) << r.err;
  const json shown = json::parse(r.out);
  ASSERT_EQ(shown.at("categories").size(), 1000u);
  EXPECT_EQ(shown.at("categories").front(), "keyword0");
  EXPECT_EQ(shown.at("categories").back(), "keyword999");
}

// Finding 14: once the demo corpus is forgotten, a plain `index` of the default
// index says there is nothing to index, rather than putting it back.
TEST_F(Issue57Index, AForgottenDemoCorpusStaysOut) {
  const auto env = sandbox_env(dir_.path());
  auto r = run_abstracts({"search", "--count", "attention"}, env, dir_.path());  // builds the default index
  ASSERT_EQ(r.status, 0) << r.err;
  r = run_abstracts({"sources", "--json"}, env, dir_.path());
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string demo = json::parse(lines(r.out).at(0)).at("path");
  ASSERT_EQ(run_abstracts({"forget", demo}, env, dir_.path()).status, 0);
  r = run_abstracts({"index"}, env, dir_.path());
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_TRUE(contains(r.err, "nothing to index")) << r.err;
  r = run_abstracts({"stats", "--json"}, env, dir_.path());
  EXPECT_EQ(json::parse(r.out).at("abstracts"), 0) << r.out;
}

}  // namespace
}  // namespace abstracts::testing::issue57_index_test
