// The command line's manners (issue 17), as ripgrep and git have them: each
// test runs the real binary on a real index of the bundled corpus. Expected
// hits and counts come from the binary's own single-query answers, never from
// hard-coded numbers, so the corpus can change without rewriting the tests.
#include <gtest/gtest.h>
#include <poll.h>
#include <pty.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/support/test_support.h"

namespace abstracts::testing::manners_test {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;
using Env = std::map<std::string, std::string>;

// Runs the binary with its stdout and stderr on a pseudo-terminal, as a
// person at a terminal runs it; returns what the terminal showed (CRLF line
// ends, as a terminal's line discipline writes them, made "\n").
RunResult run_on_terminal(const std::vector<std::string>& args, const Env& env) {
  SpawnArgs spawn(ABSTRACTS_BIN, args, env);
  int master = -1;
  const pid_t pid = forkpty(&master, nullptr, nullptr, nullptr);
  if (pid == 0) {
    execve(ABSTRACTS_BIN, spawn.argv(), spawn.envp());
    _exit(127);
  }
  RunResult result;
  if (pid < 0) return result;
  char buffer[4096];
  for (;;) {
    const ssize_t n = read(master, buffer, sizeof buffer);
    if (n <= 0) break;  // EIO once the child has exited and the terminal is closed
    result.out.append(buffer, static_cast<std::size_t>(n));
  }
  close(master);
  int status = 0;
  waitpid(pid, &status, 0);
  result.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  for (std::size_t at; (at = result.out.find("\r\n")) != std::string::npos;) result.out.erase(at, 1);
  return result;
}

class Issue17Cli : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir();
    auto r = run_abstracts({"--index", index().string(), "index", "-q", ABSTRACTS_CORPUS_DIR}, env());
    ASSERT_EQ(r.status, 0) << r.err;
  }
  static void TearDownTestSuite() { delete dir_; }

  static fs::path index() { return dir_->path() / "index"; }
  static Env env() {
    Env e = sandbox_env(dir_->path());
    e["TERM"] = "xterm";  // as a terminal has it, whatever TERM the tests run under
    return e;
  }

  // abstracts --index INDEX ARGS..., with `input` on stdin.
  static RunResult abstracts(std::vector<std::string> args, const std::string& input = {}) {
    args.insert(args.begin(), {"--index", index().string()});
    return run(ABSTRACTS_BIN, args, env(), dir_->path(), input);
  }

  // The JSON hits of one query, as `search --json` prints them.
  static std::vector<json> hits(const std::string& query, const std::string& limit = "10") {
    auto r = abstracts({"search", "--json", "--limit", limit, "--", query});
    EXPECT_TRUE(r.status == 0 || r.status == 1) << r.err;
    std::vector<json> out;
    for (const auto& line : lines(r.out)) out.push_back(json::parse(line));
    return out;
  }

  static TempDir* dir_;
};

TempDir* Issue17Cli::dir_ = nullptr;

TEST_F(Issue17Cli, AMistypedCommandGetsTheOneMeant) {
  for (const auto& [typed, meant] : std::vector<std::pair<std::string, std::string>>{
           {"serach", "search"}, {"sarch", "search"}, {"indx", "index"}, {"stat", "stats"}, {"simliar", "similar"}}) {
    auto r = abstracts({typed, "attention"});
    EXPECT_EQ(r.status, 2) << typed;
    EXPECT_TRUE(contains(r.err, "error: '" + typed + "' is not an abstracts command")) << r.err;
    EXPECT_TRUE(contains(r.err, "hint: did you mean '" + meant + "'?")) << r.err;
    EXPECT_TRUE(r.out.empty());
  }
  // Nothing close: the list of commands.
  auto r = abstracts({"frobnicate"});
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(contains(r.err, "hint: the commands are index, search, show, similar, stats, acronyms")) << r.err;
  // Global options and their values before it are skipped over.
  r = run(ABSTRACTS_BIN, {"--color", "never", "--index=" + index().string(), "serach", "x"}, env());
  EXPECT_TRUE(contains(r.err, "did you mean 'search'?")) << r.err;
}

TEST_F(Issue17Cli, ARepeatedOptionTakesItsLastValue) {
  ASSERT_GE(hits("model", "100").size(), 5u) << "the corpus has five abstracts about models";
  EXPECT_EQ(lines(abstracts({"search", "--json", "--limit", "3", "--limit", "5", "model"}).out).size(), 5u);
  EXPECT_EQ(lines(abstracts({"search", "--json", "-n", "5", "--limit", "3", "model"}).out).size(), 3u);
  auto r = run(ABSTRACTS_BIN, {"--color", "always", "--color", "never", "--index", index().string(), "search", "model"},
               env());
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_FALSE(contains(r.out, "\x1b[")) << "--color never came last";
}

TEST_F(Issue17Cli, AQueryWordStartingWithADashGetsAHint) {
  auto r = abstracts({"search", "attention", "-survey"});
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(contains(r.err, "hint: a query word that starts with '-'")) << r.err;
  EXPECT_TRUE(contains(r.err, "abstracts search -- attention -survey")) << r.err;
  // As the hint says: the same query after `--` runs, and excludes the word.
  ASSERT_FALSE(hits("attention").empty());
  r = abstracts({"search", "--json", "--", "attention", "-survey"});
  EXPECT_EQ(r.status, 0) << r.err;
  // Another subcommand's stray option keeps the usual advice.
  r = abstracts({"stats", "-survey"});
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(contains(r.err, "hint: run `abstracts --help` for usage")) << r.err;
}

TEST_F(Issue17Cli, SpellingSuggestionsLeaveExcludedWordsAlone) {
  ASSERT_FALSE(hits("attention").empty());
  // "surveyy" is no word of the corpus, but it is excluded: no suggestion.
  auto r = abstracts({"search", "--", "attention", "-surveyy"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_FALSE(contains(r.err, "did you mean")) << r.err;
  // A misspelt wanted word is still corrected, the excluded one kept as typed.
  r = abstracts({"search", "--", "atention", "-surveyy"});
  EXPECT_TRUE(contains(r.err, "\"attention -surveyy\"")) << r.err;
}

TEST_F(Issue17Cli, QueriesFromAFileEachLabelledByIdOrLine) {
  const std::vector<std::string> queries{"sparse attention", "language models", "\"reinforcement learning\""};
  for (const auto& q : queries) ASSERT_FALSE(hits(q, "3").empty()) << q;
  // Line 1 has an id; line 2 is blank (skipped, but counted); line 3 is
  // labelled by its number; line 4 has an id and CRLF.
  const std::string file = "q1\t" + queries[0] + "\n\n" + queries[1] + "\nrl\t" + queries[2] + "\r\n";
  write_file(dir_->path() / "queries.tsv", file);
  const std::vector<std::string> labels{"q1", "3", "rl"};

  for (const std::string from : {"file", "stdin"}) {
    auto r = from == "file" ? abstracts({"search", "--json", "--limit", "3", "--queries",
                                         (dir_->path() / "queries.tsv").string()})
                            : abstracts({"search", "--json", "--limit", "3", "--queries", "-"}, file);
    ASSERT_EQ(r.status, 0) << r.err;
    std::vector<nlohmann::ordered_json> got;  // in the printed order of keys
    for (const auto& line : lines(r.out)) got.push_back(nlohmann::ordered_json::parse(line));
    // Each query's hits are its single search's, in order, with "query" added.
    std::vector<json> want;
    for (std::size_t i = 0; i < queries.size(); ++i) {
      for (json h : hits(queries[i], "3")) {
        json labelled = {{"query", labels[i]}};
        labelled.update(h);
        want.push_back(labelled);
      }
    }
    ASSERT_EQ(got.size(), want.size()) << from;
    for (std::size_t i = 0; i < got.size(); ++i) {
      EXPECT_EQ(got[i].at("query").get<std::string>(), want[i].at("query")) << from << " " << i;
      EXPECT_EQ(got[i].at("id").get<std::string>(), want[i].at("id")) << from << " " << i;
      EXPECT_EQ(got[i].at("rank").get<int>(), want[i].at("rank")) << from << " " << i;
      EXPECT_EQ(got[i].begin().key(), "query") << "the label comes first";
    }
  }

  // Text output heads each query's hits.
  auto r = abstracts({"search", "--limit", "1", "--queries", "-"}, file);
  ASSERT_EQ(r.status, 0) << r.err;
  const auto out = lines(r.out);
  ASSERT_FALSE(out.empty());
  EXPECT_EQ(out.front(), "query q1: sparse attention");
  EXPECT_TRUE(contains(r.out, "\n\nquery 3: language models\n1  ")) << r.out;
  EXPECT_TRUE(contains(r.out, "\n\nquery rl: \"reinforcement learning\"\n1  ")) << r.out;
}

TEST_F(Issue17Cli, ABadQueryInABatchIsReportedAndTheRestRun) {
  auto r = abstracts({"search", "--json", "--queries", "-"}, "year:abc\nsparse attention\n");
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(contains(r.err, "error: query 1: year:abc")) << r.err;
  EXPECT_FALSE(r.out.empty()) << "query 2 still ran";
  for (const auto& line : lines(r.out)) EXPECT_EQ(json::parse(line).at("query"), "2");
  // Nothing found by any query: 1, as for a single query.
  r = abstracts({"search", "--queries", "-", "--no-correct"}, "zzqqxv\nqqzzvx\n");
  EXPECT_EQ(r.status, 1) << r.err;
  // A file that is not there: 2 before any search.
  r = abstracts({"search", "--queries", (dir_->path() / "missing.tsv").string()});
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(contains(r.err, "missing.tsv: cannot read")) << r.err;
  // A query and --queries, or neither: usage errors.
  EXPECT_EQ(abstracts({"search", "--queries", "-", "attention"}, "x\n").status, 2);
  r = abstracts({"search"});
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(contains(r.err, "search needs a query")) << r.err;
}

TEST_F(Issue17Cli, CountPrintsTheExactNumberOfMatches) {
  for (const std::string q : {"attention", "\"language models\"", "model NOT language", "attention NEAR/5 sparse"}) {
    const std::size_t all = hits(q, "100000").size();
    auto r = abstracts({"search", "--count", "--", q});
    EXPECT_EQ(r.status, all > 0 ? 0 : 1) << q;
    EXPECT_EQ(r.out, std::to_string(all) + "\n") << q;
    r = abstracts({"search", "--count", "--json", "--", q});
    EXPECT_EQ(json::parse(r.out), json({{"count", all}})) << q;
  }
  auto r = abstracts({"search", "-c", "--no-correct", "zzqqxv"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, "0\n");
  // With --queries: "LABEL<TAB>COUNT".
  r = abstracts({"search", "-c", "--queries", "-"}, "attention\nid7\tsparse attention\n");
  EXPECT_EQ(r.out, "1\t" + std::to_string(hits("attention", "100000").size()) + "\nid7\t" +
                       std::to_string(hits("sparse attention", "100000").size()) + "\n");
}

TEST_F(Issue17Cli, OnATerminalTheLastLineSaysHowManyMatched) {
  const std::size_t all = hits("attention", "100000").size();
  ASSERT_GT(all, 2u) << "the corpus has three abstracts about attention";
  std::size_t indexed = 0;
  {
    auto r = abstracts({"stats", "--json"});
    indexed = json::parse(r.out).at("abstracts").get<std::size_t>();
  }
  const std::string of = std::to_string(all) + " of " + std::to_string(indexed) + " abstracts";
  auto r = run_on_terminal({"--index", index().string(), "--color", "never", "search", "attention", "-n", "2"}, env());
  EXPECT_EQ(r.status, 0) << r.out;
  auto shown = lines(r.out);
  ASSERT_FALSE(shown.empty());
  EXPECT_EQ(shown.back(), of + ", 2 shown");
  r = run_on_terminal({"--index", index().string(), "--color", "never", "search", "attention", "-n", "1000"}, env());
  shown = lines(r.out);
  ASSERT_FALSE(shown.empty());
  EXPECT_EQ(shown.back(), of);
  // Piped, the output is the hits and nothing else.
  r = abstracts({"search", "attention", "-n", "2"});
  EXPECT_FALSE(contains(r.out, " of " + std::to_string(indexed) + " abstracts")) << r.out;
}

class Issue17Index : public ::testing::Test {
 protected:
  Env env() const { return sandbox_env(dir_.path()); }
  RunResult abstracts(std::vector<std::string> args) const {
    args.insert(args.begin(), {"--index", (dir_ / "index").string()});
    return run(ABSTRACTS_BIN, args, env(), dir_.path());
  }
  TempDir dir_;
};

TEST_F(Issue17Index, AFileNamedTwiceIsCountedOnceAndOneAbstractIsSingular) {
  write_file(dir_ / "one.txt", "NeurIPS 2026 Papers\nSparse attention for long contexts.\n");
  auto r = abstracts({"index", "one.txt", "one.txt", "./one.txt", (dir_ / "one.txt").string()});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(contains(r.err, "indexed 1 file (1 record) into")) << r.err;
  EXPECT_TRUE(contains(r.err, "0 abstracts removed")) << r.err;
  // A file and its folder: once.
  r = abstracts({"index", ".", "one.txt"});
  EXPECT_TRUE(contains(r.err, "indexed 1 file (1 record) into")) << r.err;
  EXPECT_TRUE(contains(r.err, "0 new or changed, 1 unchanged")) << r.err;
}

TEST_F(Issue17Index, TheIndexInTheFolderIndexedIsNotReadAsInput) {
  write_file(dir_ / "one.txt", "NeurIPS 2026 Papers\nSparse attention for long contexts.\n");
  for (int run = 0; run < 2; ++run) {  // the second run finds the index's files in "."
    auto r = abstracts({"index", "."});
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_FALSE(contains(r.err, "error")) << r.err;
    EXPECT_TRUE(contains(r.err, "indexed 1 file (1 record)")) << r.err;
  }
}

TEST_F(Issue17Index, RemovedFilesAndAbstractsAreCounted) {
  write_file(dir_ / "in" / "a.txt", "NeurIPS 2026 Papers\nAlpha abstract.\nBeta abstract.\n");
  write_file(dir_ / "in" / "b.txt", "NeurIPS 2026 Papers\nGamma abstract.\n");
  ASSERT_EQ(abstracts({"index", "in"}).status, 0);
  fs::remove(dir_ / "in" / "a.txt");
  auto r = abstracts({"index", "in"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(contains(r.err, "indexed 1 file (1 record)")) << r.err;
  EXPECT_TRUE(contains(r.err, "1 file gone, 2 abstracts removed")) << r.err;
}

TEST_F(Issue17Index, AFailedFirstIndexLeavesNoIndexBehind) {
  write_file(dir_ / "bad.txt", "NeurIPS 2026 Papers\nnot UTF-8: \xff\n");
  auto r = abstracts({"index", "bad.txt"});
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(contains(r.err, "no index written")) << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "index"));
  // So the next command says there is no index, rather than searching an empty one.
  r = abstracts({"search", "attention"});
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(contains(r.err, "no index")) << r.err;
  // An index that exists is never removed, whatever fails.
  write_file(dir_ / "good.txt", "NeurIPS 2026 Papers\nSparse attention.\n");
  ASSERT_EQ(abstracts({"index", "good.txt"}).status, 0);
  EXPECT_EQ(abstracts({"index", "bad.txt"}).status, 2);
  EXPECT_EQ(abstracts({"search", "attention"}).status, 0);
}

}  // namespace
}  // namespace abstracts::testing::manners_test
