// End-to-end tests of the query limits (issue 16, items 4 and 5): the real
// binary on a real on-disk index of the bundled corpus, given each query a
// reliability probe found crashing it (nested parentheses overflowed the
// parser's stack) or running for minutes (cost quadratic in the query's length).
// Each must end in a status of 0, 1 or 2, with a clear `error:` line for 2,
// never a signal. They run under `timeout 60` so that a regression cannot hang
// the suite: a guard, not a timing check (124 fails the test).
//
// No test touches the user's index: ABSTRACTS_INDEX, XDG_DATA_HOME and HOME
// always point into temporary directories.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "tests/support/test_support.h"

namespace abstracts::testing::query_limits_test {
namespace {

namespace fs = std::filesystem;
using Env = std::map<std::string, std::string>;

const fs::path kRoot = ABSTRACTS_SOURCE_DIR;
const fs::path kCorpus = ABSTRACTS_CORPUS_DIR;

// `s` `n` times, as Python's s * n writes it.
std::string times(const std::string& s, std::size_t n) {
  std::string out;
  out.reserve(s.size() * n);
  for (std::size_t i = 0; i < n; ++i) out += s;
  return out;
}

class Issue16QueryLimits : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    sandbox_ = new TempDir;
    auto r = run_abstracts({"--index", index().string(), "index", kCorpus.string(), "--quiet"}, env(), kRoot);
    ASSERT_EQ(r.status, 0) << r.err;
  }
  static void TearDownTestSuite() {
    delete sandbox_;
    sandbox_ = nullptr;
  }

  static fs::path index() { return sandbox_->path() / "index"; }

  // HOME and XDG_DATA_HOME in the sandbox, no ABSTRACTS_* from outside.
  static Env env() { return sandbox_env(sandbox_->path()); }

  // `abstracts --index INDEX search [options] -- QUERY`, as a user types it, under `timeout 60`.
  static RunResult search(const std::string& query, const std::vector<std::string>& options = {}) {
    std::vector<std::string> args{"60", ABSTRACTS_BIN, "--index", index().string(), "search"};
    args.insert(args.end(), options.begin(), options.end());
    args.push_back("--");
    args.push_back(query);
    return run("/usr/bin/timeout", args, env(), kRoot);
  }

  // Expects `r` to be an error (status 2) whose `error:` line has `message`,
  // followed by a hint.
  static void expect_error(const RunResult& r, const std::string& message) {
    ASSERT_NE(r.status, 124) << "timed out";
    EXPECT_EQ(r.status, 2) << r.err;
    const auto err = lines(r.err);
    ASSERT_EQ(err.size(), 2u) << r.err;
    EXPECT_TRUE(err[0].starts_with("error: ")) << r.err;
    EXPECT_NE(err[0].find(message), std::string::npos) << "expected [" << message << "] in " << err[0];
    EXPECT_TRUE(err[1].starts_with("hint: ")) << r.err;
    EXPECT_EQ(r.out, "");
  }

  // Expects `r` to be a search that ran: hits (0) or none (1), no error.
  static void expect_searched(const RunResult& r) {
    ASSERT_NE(r.status, 124) << "timed out";
    EXPECT_TRUE(r.status == 0 || r.status == 1) << "status " << r.status << "\n" << r.err;
    EXPECT_EQ(r.err.find("error:"), std::string::npos) << r.err;
  }

  static TempDir* sandbox_;
};

TempDir* Issue16QueryLimits::sandbox_ = nullptr;

// The parser recursed once per '(' and overflowed its stack: SIGSEGV.
TEST_F(Issue16QueryLimits, SixThousandNestedParenthesesAreTooLong) {
  expect_error(search(times("(", 6000) + "graph" + times(")", 6000)), "12005 bytes long, more than the 10000");
}

TEST_F(Issue16QueryLimits, UnclosedParenthesesPastTheDepthLimitAreAnErrorAtTheirColumn) {
  expect_error(search(times("(", 7218)), "nests more than 32 levels deep at column 33");
  expect_error(search(times("(", 33) + "graph" + times(")", 33)), "nests more than 32 levels deep at column 33");
}

TEST_F(Issue16QueryLimits, ThirtyTwoLevelsOfParenthesesAreSearched) {
  expect_searched(search(times("(", 32) + "graph" + times(")", 32)));
  expect_searched(search(times("(graph AND ", 32) + "neural" + times(")", 32)));
}

// Every LLM also matches the phrase "large language models", whose positions are
// checked: the 51st is one check too many.
TEST_F(Issue16QueryLimits, AThousandAcronymsAreTooManyPhrases) {
  expect_error(search(times("LLM ", 1000)), "more than 50 phrases and NEAR or ADJ groups, reached at column 201");
}

TEST_F(Issue16QueryLimits, AcronymsUpToTheLimitAreSearched) {
  expect_searched(search(times("LLM ", 50)));
  expect_searched(search(times("LLM AND ", 49) + "LLM"));
}

TEST_F(Issue16QueryLimits, LongRepetitionsAreTooLong) {
  expect_error(search(times("LLM ", 5000)), "20000 bytes long");
  expect_error(search(times("\"large language models\" ", 3000)), "72000 bytes long");
  expect_error(search(times("ab ", 33000)), "99000 bytes long");
  expect_error(search(times("1a", 50000)), "100000 bytes long");
}

// "a" is a stop word, but the prefix "a" is not: each a* is a wildcard.
TEST_F(Issue16QueryLimits, ThreeThousandWildcardsAreAnError) {
  const RunResult r = search(times("a* ", 3000));
  ASSERT_NE(r.status, 124) << "timed out";
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_TRUE(r.err.starts_with("error: ")) << r.err;
}

// One word the analyser splits into 1,002 terms ("1b1b..." is 1 b 1 b ...).
TEST_F(Issue16QueryLimits, AWordOfTooManyTermsIsAnError) {
  expect_error(search(times("1b", 501)), "more than 1000 terms once expanded, reached at column 1");
}

TEST_F(Issue16QueryLimits, AThousandWordsAreSearched) {
  expect_searched(search(times("graph ", 1000)));
  expect_searched(search(times("graph AND ", 999) + "graph"));
  expect_searched(search(times("\"graph neural\" ", 50) + times("graph ", 900)));
}

TEST_F(Issue16QueryLimits, TooManyWordsAreAnError) {
  expect_error(search(times("graph ", 1001)), "more than 1000 terms once expanded, reached at column 6001");
}

TEST_F(Issue16QueryLimits, ExplainOfALongQueryWorks) {
  expect_searched(search(times("\"graph neural\" OR ", 50) + times("graph OR ", 800) + "graph", {"--explain"}));
}

}  // namespace
}  // namespace abstracts::testing::query_limits_test
