// Issue 40 end to end, on the real binary: a word repeated a thousand times
// costs one word (finding 12), the position checks of a query's phrases are
// bounded and past the bound the search is an error that says so, and `stats`
// counts the size of the index readers open, not what a killed bulk build
// left beside it. Runs under `timeout`, so that a regression cannot hang the
// suite (a guard, not a timing check).
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "tests/support/test_support.h"

namespace abstracts::testing::issue40_query_test {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

const fs::path kRoot = ABSTRACTS_SOURCE_DIR;
const fs::path kCorpus = ABSTRACTS_CORPUS_DIR;

// `s` `n` times, space-separated.
std::string times(const std::string& s, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += (i > 0 ? " " : "") + s;
  return out;
}

// `abstracts --index INDEX ARGS...` under `timeout 300`, in a sandbox.
RunResult abstracts_on(const fs::path& index, const std::vector<std::string>& args, const fs::path& sandbox) {
  std::vector<std::string> all{"300", ABSTRACTS_BIN, "--index", index.string()};
  all.insert(all.end(), args.begin(), args.end());
  return run("/usr/bin/timeout", all, sandbox_env(sandbox), kRoot);
}

std::vector<std::string> ids(const std::string& json_lines) {
  std::vector<std::string> out;
  for (const auto& l : lines(json_lines)) out.push_back(json::parse(l).at("id").get<std::string>());
  return out;
}

std::string said(const RunResult& r) { return "exit " + std::to_string(r.status) + "\n" + r.err; }

class Issue40Query : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    sandbox_ = new TempDir;
    auto r = abstracts_on(index(), {"index", "--quiet", kCorpus.string()}, sandbox_->path());
    ASSERT_EQ(r.status, 0) << r.err;
  }
  static void TearDownTestSuite() {
    delete sandbox_;
    sandbox_ = nullptr;
  }
  static fs::path index() { return sandbox_->path() / "index"; }
  static RunResult search(const std::vector<std::string>& options, const std::string& query) {
    std::vector<std::string> args{"search"};
    args.insert(args.end(), options.begin(), options.end());
    args.insert(args.end(), {"--", query});
    return abstracts_on(index(), args, sandbox_->path());
  }

  static TempDir* sandbox_;
};
TempDir* Issue40Query::sandbox_ = nullptr;

// The query was an OR of a thousand copies of `model`: a thousand posting
// lists (3 s on arXiv). It is one word, weighed a thousand times, so its hits
// are those of `model`, in the same order.
TEST_F(Issue40Query, AWordWrittenAThousandTimesIsOneWord) {
  const std::string thousand = times("model", 1000);
  auto r = search({"--explain"}, thousand);
  ASSERT_EQ(r.status, 0) << said(r);
  const auto err = lines(r.err);
  ASSERT_FALSE(err.empty());
  EXPECT_EQ(err[0], "query: Query(1000 * model)");
  auto once = search({"--json", "--limit", "100"}, "model");
  ASSERT_EQ(once.status, 0) << said(once);
  r = search({"--json", "--limit", "100"}, thousand);
  ASSERT_EQ(r.status, 0) << said(r);
  EXPECT_EQ(ids(r.out), ids(once.out));
  EXPECT_FALSE(ids(r.out).empty());
}

// Fifty phrases of the bundled corpus's commonest words: a search, not an error.
TEST_F(Issue40Query, FiftyPhrasesOfCommonWordsAreSearched) {
  const std::vector<std::string> words = {"language", "models", "learning", "data", "training",
                                          "reasoning", "agents", "performance"};
  std::string query;
  int n = 0;
  for (const auto& a : words) {
    for (const auto& b : words) {
      if (a == b || n == 50) continue;
      query += "\"" + a + " " + b + "\" ";
      ++n;
    }
  }
  ASSERT_EQ(n, 50);
  for (const auto& options : std::vector<std::vector<std::string>>{{}, {"--count"}, {"--explain"}}) {
    auto r = search(options, query);
    EXPECT_TRUE(r.status == 0 || r.status == 1) << said(r);
    EXPECT_EQ(r.err.find("error:"), std::string::npos) << said(r);
  }
}

// Twelve thousand abstracts of forty words drawn from twelve: every abstract
// has the words of every phrase of two of them, and so fifty such phrases need
// a check of nearly every abstract each (600,000, when every match is counted),
// past the bound: an error naming it, before the work is done. Ten phrases
// (about 120,000 checks) are searched.
TEST(Issue40QueryBound, PhraseChecksPastTheBoundAreAnErrorNamingIt) {
  TempDir dir;
  const std::vector<std::string> words = {"bcd", "fgh", "jkl", "mnp", "qrt", "vwx",
                                          "zbc", "dfg", "hjk", "lmn", "pqr", "tvw"};
  std::string file;
  std::uint32_t state = 40;  // a fixed seed: the same abstracts every run
  for (int a = 0; a < 12000; ++a) {
    std::string text;
    for (int w = 0; w < 40; ++w) {
      state = state * 1664525u + 1013904223u;
      text += (w > 0 ? " " : "") + words[(state >> 16) % words.size()];
    }
    file += json{{"_id", "s" + std::to_string(a)}, {"title", ""}, {"text", text}}.dump() + "\n";
  }
  write_file(dir / "synthetic.jsonl", file);
  auto r = abstracts_on(dir / "index", {"index", "--quiet", (dir / "synthetic.jsonl").string()}, dir.path());
  ASSERT_EQ(r.status, 0) << said(r);
  std::vector<std::string> phrases;
  for (const auto& a : words) {
    for (const auto& b : words) {
      if (a != b && phrases.size() < 50) phrases.push_back("\"" + a + " " + b + "\"");
    }
  }
  std::string fifty, ten;
  for (std::size_t i = 0; i < phrases.size(); ++i) {
    fifty += phrases[i] + " ";
    if (i < 10) ten += phrases[i] + " ";
  }
  r = abstracts_on(dir / "index", {"search", "--count", "--", fifty}, dir.path());
  ASSERT_NE(r.status, 124) << "timed out";
  EXPECT_EQ(r.status, 2) << said(r);
  const auto err = lines(r.err);
  ASSERT_EQ(err.size(), 2u) << r.err;
  EXPECT_EQ(err[0],
            "error: the query's phrases and NEAR or ADJ groups need more than 500000 checks of where their words "
            "are in an abstract");
  EXPECT_TRUE(err[1].starts_with("hint: ")) << r.err;
  EXPECT_EQ(r.out, "");

  r = abstracts_on(dir / "index", {"search", "--count", "--", ten}, dir.path());
  EXPECT_EQ(r.status, 0) << said(r);
  EXPECT_GT(std::stoul(r.out), 1000u) << r.out;
}

// ---------------------------------------------------------------------------
// stats: the size of the index as readers open it.

// The bytes of the stub and of the generation it names.
std::uintmax_t current_size(const fs::path& index) {
  const std::string stub = read_file(index / "XAPIANDB");
  const std::string generation = stub.substr(stub.find(' ') + 1, stub.find('\n') - stub.find(' ') - 1);
  std::uintmax_t bytes = fs::file_size(index / "XAPIANDB");
  for (const auto& e : fs::recursive_directory_iterator(index / generation)) {
    if (e.is_regular_file()) bytes += e.file_size();
  }
  return bytes;
}

// What a `kill -9` of a bulk build leaves: its shards in a tmp-* folder, and a
// generation that the next Writer removes (copies of the current one: real
// Xapian databases of the same size).
void leave_leftovers(const fs::path& index) {
  const std::string stub = read_file(index / "XAPIANDB");
  const fs::path generation = index / stub.substr(stub.find(' ') + 1, stub.find('\n') - stub.find(' ') - 1);
  fs::create_directories(index / "tmp-4012345");
  fs::copy(generation, index / "tmp-4012345" / "shard-0", fs::copy_options::recursive);
  fs::copy(generation, index / "gen-000000", fs::copy_options::recursive);
}

std::uintmax_t stats_size(const fs::path& index, const fs::path& sandbox) {
  auto r = abstracts_on(index, {"stats", "--json"}, sandbox);
  if (r.status != 0) throw std::runtime_error("stats failed: " + said(r));
  return json::parse(r.out).at("size_bytes").get<std::uintmax_t>();
}

TEST(Issue40Stats, SizeIsTheCurrentGenerationsNotAKilledBuildsLeftovers) {
  TempDir dir;
  auto r = abstracts_on(dir / "index", {"index", "--quiet", kCorpus.string()}, dir.path());
  ASSERT_EQ(r.status, 0) << said(r);
  const std::uintmax_t before = stats_size(dir / "index", dir.path());
  EXPECT_EQ(before, current_size(dir / "index"));
  leave_leftovers(dir / "index");
  EXPECT_EQ(stats_size(dir / "index", dir.path()), before);

  // The local shards of a cluster, likewise.
  for (const std::string k : {"1", "2"}) {
    r = abstracts_on(dir / ("shard-" + k), {"index", "--quiet", "--shard", k + "/2", kCorpus.string()}, dir.path());
    ASSERT_EQ(r.status, 0) << said(r);
  }
  write_file(dir / "cluster", "auto shard-1\nauto shard-2\n");
  const std::uintmax_t shards = current_size(dir / "shard-1") + current_size(dir / "shard-2");
  EXPECT_EQ(stats_size(dir / "cluster", dir.path()), shards);
  leave_leftovers(dir / "shard-1");
  EXPECT_EQ(stats_size(dir / "cluster", dir.path()), shards);
}

}  // namespace
}  // namespace abstracts::testing::issue40_query_test
