// End-to-end tests of the `abstracts` command line: they run the real binary on
// a real on-disk index of the bundled corpus and check stdout, stderr and the
// exit status. Expectations are derived from the corpus files, never hard-coded
// ids, so that the corpus can change without rewriting the tests.
//
// No test touches the user's index: ABSTRACTS_INDEX, XDG_DATA_HOME and HOME
// always point into temporary directories.

#include <fcntl.h>
#include <gtest/gtest.h>
#include <pty.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "abstracts/writer.h"
#include "tests/support/test_support.h"


namespace abstracts::testing::cli_test {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;
using Env = std::map<std::string, std::string>;

const fs::path kRoot = ABSTRACTS_SOURCE_DIR;
const fs::path kCorpus = ABSTRACTS_CORPUS_DIR;

// ---------------------------------------------------------------------------
// The corpus, read directly from its files.

struct CorpusLine {
  fs::path file;  // canonical
  std::size_t line = 0;
  std::string text;
};

// Every abstract of the text-format files in `dir`: the non-empty lines after
// the header line.
std::vector<CorpusLine> abstracts_in(const fs::path& dir) {
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.is_regular_file() && entry.path().extension() == ".txt") {
      files.push_back(fs::canonical(entry.path()));
    }
  }
  std::sort(files.begin(), files.end());
  std::vector<CorpusLine> result;
  for (const auto& file : files) {
    auto text = lines(read_file(file));
    for (std::size_t i = 1; i < text.size(); ++i) {
      if (!text[i].empty()) result.push_back({file, i + 1, text[i]});
    }
  }
  return result;
}

const std::vector<CorpusLine>& corpus() {
  static const auto* all = new std::vector<CorpusLine>(abstracts_in(kCorpus));
  return *all;
}

std::size_t corpus_file_count() {
  std::set<fs::path> files;
  for (const auto& a : corpus()) files.insert(a.file);
  return files.size();
}

// "file:line" with the canonical file path: how hits and corpus lines compare.
std::string location(const fs::path& file, std::size_t line) {
  return fs::weakly_canonical(file).string() + ":" + std::to_string(line);
}

// Lines of the corpus for which `pred` holds, as locations.
template <typename Pred>
std::set<std::string> corpus_where(Pred pred) {
  std::set<std::string> result;
  for (const auto& a : corpus()) {
    if (pred(a.text)) result.insert(location(a.file, a.line));
  }
  return result;
}

// Line `line` (1-based) of `file`, or "" if there is none.
std::string line_of(const fs::path& file, std::size_t line) {
  auto text = lines(read_file(file));
  return line >= 1 && line <= text.size() ? text[line - 1] : std::string();
}

// ASCII-lowercased, every run of bytes that are not ASCII letters or digits
// (punctuation, "‑", "’", "é") turned into one space, padded with spaces: lets a
// test ask "does this line contain these words in this order".
std::string normalized(const std::string& text) {
  std::string out = " ";
  for (unsigned char c : text) {
    if (std::isalnum(c) && c < 0x80) {
      out += static_cast<char>(std::tolower(c));
    } else if (out.back() != ' ') {
      out += ' ';
    }
  }
  if (out.back() != ' ') out += ' ';
  return out;
}

// Whether `text` has `words` in this order; the last word may go on ("model"
// is in "models"), as phrase search tolerates inflection.
bool contains_words(const std::string& text, const std::string& words) {
  auto needle = normalized(words);
  needle.pop_back();
  return contains(normalized(text), needle);
}

bool icontains(const std::string& haystack, const std::string& needle) {
  auto lower = [](std::string s) {
    for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
  };
  return contains(lower(haystack), lower(needle));
}

std::string describe(const std::set<std::string>& locations) {
  std::string out;
  for (const auto& l : locations) out += "  " + l + "\n";
  return out.empty() ? "  (none)\n" : out;
}

bool is_subset(const std::set<std::string>& small, const std::set<std::string>& big) {
  return std::includes(big.begin(), big.end(), small.begin(), small.end());
}

// ---------------------------------------------------------------------------
// Output parsing.

std::vector<json> parse_json_lines(const std::string& out) {
  std::vector<json> result;
  for (const auto& l : lines(out)) result.push_back(json::parse(l));  // throws if not JSON
  return result;
}

struct TextHit {
  std::size_t rank = 0;
  std::string source;
  std::size_t line = 0;
  std::string id;
  double score = 0;
  std::string title;
  std::string snippet;
};

const std::regex kHitHeader(R"(^ *(\d+)  (\S+):(\d+)  id ([0-9a-z]+)  score (-?\d+(\.\d+)?)$)");

// Parses the text output of `search`; records a failure for any line that does
// not fit the documented layout.
std::vector<TextHit> parse_text_hits(const std::string& out) {
  std::vector<TextHit> hits;
  auto text = lines(out);
  for (std::size_t i = 0; i < text.size();) {
    std::smatch m;
    if (!std::regex_match(text[i], m, kHitHeader)) {
      ADD_FAILURE() << "not a hit header: [" << text[i] << "]\nin:\n" << out;
      return hits;
    }
    TextHit hit;
    hit.rank = std::stoul(m[1]);
    hit.source = m[2];
    hit.line = std::stoul(m[3]);
    hit.id = m[4];
    hit.score = std::stod(m[5]);
    ++i;
    std::vector<std::string> body;
    for (; i < text.size() && !text[i].empty(); ++i) {
      EXPECT_TRUE(text[i].starts_with(" ")) << "not indented: [" << text[i] << "]";
      body.push_back(text[i].substr(text[i].find_first_not_of(' ')));
    }
    EXPECT_GE(body.size(), 2u) << "hit " << hit.rank << " lacks a title or a snippet:\n" << out;
    if (!body.empty()) hit.title = body[0];
    for (std::size_t b = 1; b < body.size(); ++b) hit.snippet += (b > 1 ? " " : "") + body[b];
    hits.push_back(hit);
    if (i < text.size()) {
      ++i;  // the blank line between hits
      EXPECT_TRUE(i < text.size()) << "output ends with a blank line:\n" << out;
    }
  }
  return hits;
}

bool crashed(const RunResult& r) {
  return r.status >= 128 || contains(r.err, "terminate called") || contains(r.err, "Sanitizer") ||
         contains(r.err, "runtime error");
}

// The lines of `text` that start with `prefix`.
std::vector<std::string> lines_starting(const std::string& text, const std::string& prefix) {
  std::vector<std::string> result;
  for (const auto& l : lines(text)) {
    if (l.starts_with(prefix)) result.push_back(l);
  }
  return result;
}

// ---------------------------------------------------------------------------
// Running the binary with its stdout on a terminal.

// Like run_abstracts(), with stdout on a fresh pseudo-terminal (stdin and stderr
// on /dev/null), so that `--color auto` sees a terminal. Returns stdout in `out`.
RunResult run_on_terminal(const std::vector<std::string>& args, const Env& env) {
  int master = -1, slave = -1;
  if (openpty(&master, &slave, nullptr, nullptr, nullptr) != 0) {
    ADD_FAILURE() << "openpty failed: " << std::strerror(errno);
    return {};
  }
  SpawnArgs spawn_args(ABSTRACTS_BIN, args, env);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, slave, 1);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addclose(&actions, master);
  posix_spawn_file_actions_addclose(&actions, slave);
  posix_spawn_file_actions_addchdir_np(&actions, kRoot.c_str());
  pid_t pid;
  int rc = posix_spawn(&pid, ABSTRACTS_BIN, &actions, nullptr, spawn_args.argv(), spawn_args.envp());
  posix_spawn_file_actions_destroy(&actions);
  close(slave);
  RunResult result;
  if (rc != 0) {
    close(master);
    ADD_FAILURE() << "cannot run " << ABSTRACTS_BIN << ": " << std::strerror(rc);
    return result;
  }
  char buf[65536];
  for (;;) {
    ssize_t n = read(master, buf, sizeof buf);
    if (n > 0) {
      result.out.append(buf, static_cast<std::size_t>(n));
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else {
      break;  // EIO once the child has closed the terminal
    }
  }
  close(master);
  int wstatus = 0;
  while (waitpid(pid, &wstatus, 0) < 0 && errno == EINTR) {
  }
  result.status = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : 128 + WTERMSIG(wstatus);
  return result;
}

// ---------------------------------------------------------------------------
// The fixture: one index of the bundled corpus for the whole suite.

class CliTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    sandbox_ = new TempDir;
    index_ = sandbox_->path() / "index";
    auto r = run_abstracts({"--index", index_.string(), "index", kCorpus.string(), "--quiet"},
                           sandbox_env(), kRoot);
    ASSERT_EQ(r.status, 0) << r.err;
  }
  static void TearDownTestSuite() {
    delete sandbox_;
    sandbox_ = nullptr;
  }

  // An environment that keeps the binary away from the user's files: HOME and
  // XDG_DATA_HOME in the sandbox, no ABSTRACTS_* or NO_COLOR from outside.
  static Env sandbox_env() { return testing::sandbox_env(sandbox_->path()); }

  // sandbox_env() with ABSTRACTS_INDEX set to the suite's index, changed by `extra`.
  static Env env(const Env& extra = {}) {
    Env e = sandbox_env();
    e["ABSTRACTS_INDEX"] = index_.string();
    for (const auto& [k, v] : extra) e[k] = v;
    return e;
  }

  // Runs abstracts from the repository root on the suite's index.
  static RunResult abstracts(const std::vector<std::string>& args, const Env& extra = {},
                             const fs::path& cwd = kRoot) {
    return run_abstracts(args, env(extra), cwd);
  }

  // The hits of `query` as parsed JSON objects; fails the test unless the
  // status is 0 or 1. By default without learned acronyms and spelling
  // correction, so the literal matching rules are what is tested (both have
  // tests of their own in query_language_test.cc).
  static std::vector<json> search_json(const std::string& query,
                                       const std::vector<std::string>& options = {
                                           "--limit", "1000", "--no-acronyms", "--no-correct"},
                                       const fs::path& cwd = kRoot) {
    std::vector<std::string> args{"search", query, "--json"};
    args.insert(args.end(), options.begin(), options.end());
    auto r = abstracts(args, {}, cwd);
    EXPECT_TRUE(r.status == 0 || r.status == 1)
        << "search [" << query << "]: status " << r.status << "\n"
        << r.err;
    std::vector<json> hits;
    try {
      hits = parse_json_lines(r.out);
    } catch (const json::exception& e) {
      ADD_FAILURE() << "search [" << query << "] --json: " << e.what() << "\n" << r.out;
    }
    EXPECT_EQ(r.status, hits.empty() ? 1 : 0) << "search [" << query << "]";
    return hits;
  }

  // The locations (see location()) of every hit of `query`.
  static std::set<std::string> hit_locations(const std::string& query) {
    std::set<std::string> result;
    for (const auto& hit : search_json(query)) {
      result.insert(location(hit.at("path").get<std::string>(), hit.at("line").get<std::size_t>()));
    }
    return result;
  }

  static std::size_t stats_abstracts(const fs::path& index) {
    auto r = run_abstracts({"--index", index.string(), "stats", "--json"}, sandbox_env(), kRoot);
    EXPECT_EQ(r.status, 0) << r.err;
    try {
      return json::parse(r.out).at("abstracts").get<std::size_t>();
    } catch (const json::exception& e) {
      ADD_FAILURE() << "stats --json: " << e.what() << "\n" << r.out;
      return 0;
    }
  }

  // Expects the hits of `query` to be exactly the corpus lines `expected`.
  static void expect_hits(const std::string& query, const std::set<std::string>& expected) {
    auto hits = hit_locations(query);
    EXPECT_EQ(hits, expected) << "search [" << query << "]\nhits:\n"
                              << describe(hits) << "expected:\n"
                              << describe(expected);
  }

  // Expects every hit of `query` to be a corpus line for which `pred` holds,
  // and every such line to be a hit.
  template <typename Pred>
  static void expect_hits_exactly(const std::string& query, Pred pred) {
    auto expected = corpus_where(pred);
    ASSERT_FALSE(expected.empty()) << "the corpus no longer has an example for [" << query << "]";
    expect_hits(query, expected);
  }

  static TempDir* sandbox_;
  static fs::path index_;
};

TempDir* CliTest::sandbox_ = nullptr;
fs::path CliTest::index_;

// ---------------------------------------------------------------------------
// Exit status.

TEST_F(CliTest, SearchWithHitsExitsZero) {
  auto r = abstracts({"search", "attention"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_FALSE(r.out.empty());
}

TEST_F(CliTest, SearchWithoutHitsExitsOneAndPrintsNothing) {
  auto r = abstracts({"search", "qwxzvbnonexistentword"});
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_EQ(r.out, "");
  r = abstracts({"search", "qwxzvbnonexistentword", "--json"});
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_EQ(r.out, "");
}

TEST_F(CliTest, UnknownCommandIsAnError) {
  auto r = abstracts({"frobnicate"});
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(r.err.starts_with("error:")) << r.err;
}

TEST_F(CliTest, BadOptionValueIsAnError) {
  auto r = abstracts({"search", "attention", "--limit", "many"});
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(r.err.starts_with("error:")) << r.err;
  r = abstracts({"search", "attention", "--color", "sometimes"});
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(r.err.starts_with("error:")) << r.err;
}

// ---------------------------------------------------------------------------
// Query language, on the real corpus.

TEST_F(CliTest, PhraseFindsExactlyTheLinesWithThePhrase) {
  expect_hits_exactly("\"sparse attention\"",
                      [](const std::string& l) { return contains_words(l, "sparse attention"); });
}

TEST_F(CliTest, PhraseToleratesInflection) {
  // "large language models" also finds "large language model tasks".
  auto hits = hit_locations("\"large language models\"");
  auto singular = corpus_where(
      [](const std::string& l) { return contains(normalized(l), " large language model "); });
  auto plural = corpus_where(
      [](const std::string& l) { return contains(normalized(l), " large language models "); });
  ASSERT_FALSE(singular.empty()) << "the corpus has no \"large language model\" without s";
  EXPECT_TRUE(is_subset(singular, hits)) << "hits:\n"
                                         << describe(hits) << "singular:\n"
                                         << describe(singular);
  EXPECT_TRUE(is_subset(plural, hits)) << "hits:\n" << describe(hits);
  for (const auto& hit : search_json("\"large language models\"")) {
    auto text = line_of(kRoot / hit.at("source").get<std::string>(), hit.at("line"));
    EXPECT_TRUE(contains_words(text, "large language model")) << hit.dump();
  }
}

TEST_F(CliTest, PhraseFindsPluralOfLastWord) {
  // The corpus says "hallucination detection benchmarks".
  expect_hits_exactly("\"hallucination detection benchmark\"", [](const std::string& l) {
    return contains_words(l, "hallucination detection benchmark");
  });
}

TEST_F(CliTest, AccentsLatexAccentsAndCaseFold) {
  auto expected = corpus_where([](const std::string& l) {
    return icontains(l, "pokémon") || icontains(l, "pok\\'emon") || icontains(l, "pokemon");
  });
  ASSERT_GE(expected.size(), 2u);
  for (const std::string query : {"Pokémon", "Pok\\'emon", "POKEMON", "pokemon"}) {
    expect_hits(query, expected);
  }
}

TEST_F(CliTest, GreekLetterMatchesItsNameAndItsLatex) {
  // The corpus writes "$\gamma=0.5$" and "\gamma_{ij}", never the word "gamma".
  auto expected = corpus_where([](const std::string& l) { return contains(l, "\\gamma"); });
  ASSERT_GE(expected.size(), 2u);
  for (const std::string query : {"gamma", "GAMMA", "γ", "Γ", "\\gamma", "$\\gamma$"}) {
    expect_hits(query, expected);
  }
  // What the snippet highlights is the letter.
  auto hits = search_json("gamma");
  ASSERT_EQ(hits.size(), expected.size());
  for (const auto& hit : hits) {
    auto snippet = hit.at("snippet").get<std::string>();
    ASSERT_FALSE(hit.at("highlights").empty()) << hit.dump();
    for (const auto& h : hit.at("highlights")) {
      std::size_t begin = h.at(0), end = h.at(1);
      EXPECT_EQ(snippet.substr(begin, end - begin), "γ") << hit.dump();
    }
  }
}

TEST_F(CliTest, ModelNameWithOrWithoutHyphenIsTheSame) {
  // The corpus writes "Qwen-3 4B" in one abstract and "Qwen3-VL" in another.
  auto expected = corpus_where([](const std::string& l) {
    return contains(l, "Qwen3") || contains(l, "Qwen-3") || contains(l, "Qwen 3");
  });
  ASSERT_EQ(expected.size(), 2u);
  for (const std::string query : {"Qwen3", "Qwen-3", "\"Qwen 3\"", "QWEN3"}) {
    expect_hits(query, expected);
  }
}

TEST_F(CliTest, HyphenNonBreakingHyphenAndPhraseAreTheSame) {
  // The corpus has "text-only" and "text‑only" (U+2011 NON-BREAKING HYPHEN).
  auto expected = corpus_where([](const std::string& l) { return contains_words(l, "text only"); });
  ASSERT_TRUE(std::any_of(corpus().begin(), corpus().end(),
                          [](const CorpusLine& a) { return contains(a.text, "text\u2011only"); }));
  ASSERT_TRUE(std::any_of(corpus().begin(), corpus().end(),
                          [](const CorpusLine& a) { return contains(a.text, "text-only"); }));
  for (const std::string query : {"text-only", "text\u2011only", "\"text only\""}) {
    expect_hits(query, expected);
  }
}

TEST_F(CliTest, CurlyAndStraightApostrophesMatch) {
  auto curly = corpus_where([](const std::string& l) { return contains(l, "model\u2019s"); });
  ASSERT_FALSE(curly.empty());
  auto straight_hits = hit_locations("model's");
  auto curly_hits = hit_locations("model\u2019s");
  EXPECT_TRUE(is_subset(curly, straight_hits)) << "hits:\n"
                                               << describe(straight_hits) << "expected at least:\n"
                                               << describe(curly);
  EXPECT_EQ(straight_hits, curly_hits);
}

TEST_F(CliTest, AcronymPluralMatchesBothWays) {
  std::regex singular(R"(\bLLM\b)"), plural(R"(\bLLMs\b)");
  auto only_singular = corpus_where([&](const std::string& l) {
    return std::regex_search(l, singular) && !std::regex_search(l, plural);
  });
  auto only_plural = corpus_where([&](const std::string& l) {
    return std::regex_search(l, plural) && !std::regex_search(l, singular);
  });
  ASSERT_FALSE(only_singular.empty());
  ASSERT_FALSE(only_plural.empty());
  auto llm = hit_locations("LLM");
  auto llms = hit_locations("LLMs");
  EXPECT_TRUE(is_subset(only_plural, llm)) << "LLM misses:\n" << describe(only_plural);
  EXPECT_TRUE(is_subset(only_singular, llm));
  EXPECT_TRUE(is_subset(only_singular, llms)) << "LLMs misses:\n" << describe(only_singular);
  EXPECT_TRUE(is_subset(only_plural, llms));
}

TEST_F(CliTest, LatexCommandNamesAreNotSearchable) {
  for (const std::string command : {"emph", "textbf", "mathbf"}) {
    ASSERT_TRUE(
        std::any_of(corpus().begin(), corpus().end(),
                    [&](const CorpusLine& a) { return contains(a.text, "\\" + command + "{"); }))
        << "the corpus no longer uses \\" << command;
    // --no-correct: otherwise a spelling correction ("textbf" -> "text") finds hits.
    auto r = abstracts({"search", "--no-correct", command});
    EXPECT_EQ(r.status, 1) << "search " << command << " found:\n" << r.out << r.err;
  }
}

TEST_F(CliTest, DefaultOperatorIsOrAndRanksByBm25) {
  auto sparse = hit_locations("sparse");
  auto attention = hit_locations("attention");
  std::set<std::string> either = sparse;
  either.insert(attention.begin(), attention.end());
  EXPECT_EQ(hit_locations("sparse attention"), either);

  // The abstract that says "sparse attention" most often comes first.
  auto hits = search_json("sparse attention");
  ASSERT_FALSE(hits.empty());
  const CorpusLine* best = nullptr;
  std::size_t best_count = 0;
  for (const auto& a : corpus()) {
    auto n = normalized(a.text);
    std::size_t count = 0;
    for (auto p = n.find(" sparse attention "); p != std::string::npos;
         p = n.find(" sparse attention ", p + 1)) {
      ++count;
    }
    if (count > best_count) {
      best = &a;
      best_count = count;
    }
  }
  ASSERT_NE(best, nullptr);
  EXPECT_EQ(location(hits[0].at("path").get<std::string>(), hits[0].at("line")),
            location(best->file, best->line));
  for (std::size_t i = 0; i < hits.size(); ++i) {
    EXPECT_EQ(hits[i].at("rank"), i + 1);
    if (i > 0) {
      EXPECT_LE(hits[i].at("score").get<double>(), hits[i - 1].at("score").get<double>());
    }
  }
}

TEST_F(CliTest, SeveralQueryArgumentsAreJoinedWithSpaces) {
  auto joined = abstracts({"search", "sparse attention", "--json"});
  auto separate = abstracts({"search", "sparse", "attention", "--json"});
  EXPECT_EQ(joined.status, 0);
  EXPECT_EQ(separate.status, 0);
  EXPECT_EQ(joined.out, separate.out);
}

TEST_F(CliTest, BooleanOperators) {
  auto sparse = hit_locations("sparse");
  auto attention = hit_locations("attention");
  auto dense = hit_locations("dense");
  std::set<std::string> both, attention_only, either, dense_or_sparse;
  std::set_intersection(sparse.begin(), sparse.end(), attention.begin(), attention.end(),
                        std::inserter(both, both.end()));
  std::set_difference(attention.begin(), attention.end(), sparse.begin(), sparse.end(),
                      std::inserter(attention_only, attention_only.end()));
  std::set_union(sparse.begin(), sparse.end(), attention.begin(), attention.end(),
                 std::inserter(either, either.end()));
  std::set_union(sparse.begin(), sparse.end(), dense.begin(), dense.end(),
                 std::inserter(dense_or_sparse, dense_or_sparse.end()));
  std::set<std::string> grouped;
  std::set_intersection(dense_or_sparse.begin(), dense_or_sparse.end(), attention.begin(),
                        attention.end(), std::inserter(grouped, grouped.end()));
  // The test is only worth something if the sets differ.
  ASSERT_FALSE(both.empty());
  ASSERT_FALSE(attention_only.empty());
  ASSERT_NE(both, either);

  EXPECT_EQ(hit_locations("sparse AND attention"), both);
  EXPECT_EQ(hit_locations("+sparse +attention"), both);
  EXPECT_EQ(hit_locations("sparse OR attention"), either);
  EXPECT_EQ(hit_locations("attention NOT sparse"), attention_only);
  EXPECT_EQ(hit_locations("attention AND NOT sparse"), attention_only);
  EXPECT_EQ(hit_locations("+attention -sparse"), attention_only);
  EXPECT_EQ(hit_locations("(sparse OR dense) AND attention"), grouped);

  for (const auto& l : hit_locations("attention NOT sparse")) {
    auto colon = l.rfind(':');
    auto text = line_of(l.substr(0, colon), std::stoul(l.substr(colon + 1)));
    EXPECT_FALSE(contains_words(text, "sparse")) << l;
    EXPECT_TRUE(icontains(text, "attention")) << l;
  }
}

// ---------------------------------------------------------------------------
// Output formats.

TEST_F(CliTest, JsonHitsPointAtCorpusLinesWithThePhrase) {
  auto hits = search_json("\"sparse attention\"");
  ASSERT_FALSE(hits.empty());
  for (const auto& hit : hits) {
    SCOPED_TRACE(hit.dump());
    for (const char* key : {"rank", "id", "score", "source", "path", "line", "venue", "year",
                            "title", "snippet", "highlights"}) {
      EXPECT_TRUE(hit.contains(key)) << key;
    }
    auto source = hit.at("source").get<std::string>();
    auto path = fs::path(hit.at("path").get<std::string>());
    std::size_t line = hit.at("line");
    EXPECT_TRUE(fs::path(source).is_relative()) << "the corpus is below the cwd";
    EXPECT_TRUE(path.is_absolute());
    EXPECT_TRUE(fs::equivalent(kRoot / source, path));
    EXPECT_TRUE(contains_words(line_of(kRoot / source, line), "sparse attention"));
    EXPECT_EQ(hit.at("venue"), "NeurIPS");
    EXPECT_EQ(hit.at("year"), 2026);
    EXPECT_FALSE(hit.at("title").get<std::string>().empty());
    EXPECT_EQ(hit.at("id").get<std::string>().size(), 12u);

    auto snippet = hit.at("snippet").get<std::string>();
    ASSERT_TRUE(hit.at("highlights").is_array());
    EXPECT_FALSE(hit.at("highlights").empty());
    std::size_t previous_end = 0;
    for (const auto& h : hit.at("highlights")) {
      std::size_t begin = h.at(0), end = h.at(1);
      ASSERT_LT(begin, end);
      ASSERT_LE(end, snippet.size());
      EXPECT_GE(begin, previous_end) << "highlights overlap or are not ascending";
      previous_end = end;
      auto word = snippet.substr(begin, end - begin);
      EXPECT_TRUE(icontains(word, "spars") || icontains(word, "attention")) << word;
    }
  }
}

TEST_F(CliTest, JsonSourceIsAbsoluteWhenTheFileIsNotBelowTheCwd) {
  TempDir elsewhere;
  auto hits = search_json("\"sparse attention\"", {"--limit", "1000"}, elsewhere.path());
  ASSERT_FALSE(hits.empty());
  for (const auto& hit : hits) {
    EXPECT_TRUE(fs::path(hit.at("source").get<std::string>()).is_absolute()) << hit.dump();
    EXPECT_EQ(hit.at("source"), hit.at("path"));
  }
}

TEST_F(CliTest, TextOutputLayout) {
  auto r = abstracts({"search", "\"sparse attention\" OR pokemon"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.find('\x1b'), std::string::npos) << "colour when stdout is not a terminal";
  auto hits = parse_text_hits(r.out);
  ASSERT_GE(hits.size(), 2u) << r.out;
  auto json_hits = search_json("\"sparse attention\" OR pokemon", {});
  ASSERT_EQ(json_hits.size(), hits.size());
  for (std::size_t i = 0; i < hits.size(); ++i) {
    SCOPED_TRACE(json_hits[i].dump());
    EXPECT_EQ(hits[i].rank, i + 1);
    EXPECT_EQ(hits[i].source, json_hits[i].at("source"));
    EXPECT_TRUE(hits[i].source.starts_with("corpus/")) << hits[i].source;
    EXPECT_EQ(hits[i].line, json_hits[i].at("line"));
    EXPECT_EQ(hits[i].id, json_hits[i].at("id"));
    EXPECT_NEAR(hits[i].score, json_hits[i].at("score").get<double>(), 0.01);
    EXPECT_EQ(hits[i].title, json_hits[i].at("title"));
    auto text = line_of(kRoot / hits[i].source, hits[i].line);
    EXPECT_TRUE(contains_words(text, "sparse attention") || icontains(text, "pok"));
    EXPECT_TRUE(icontains(hits[i].snippet, "sparse attention") ||
                icontains(hits[i].snippet, "pokémon"))
        << hits[i].snippet;
  }
}

TEST_F(CliTest, LimitAndOffset) {
  auto two = search_json("models", {"--limit", "2"});
  ASSERT_EQ(two.size(), 2u);
  auto second = search_json("models", {"--offset", "1", "--limit", "1"});
  ASSERT_EQ(second.size(), 1u);
  EXPECT_EQ(second[0].at("id"), two[1].at("id"));
  EXPECT_EQ(second[0].at("rank"), 2);

  auto all = search_json("models");
  ASSERT_GT(all.size(), 10u) << "need more than the default limit of hits";
  EXPECT_EQ(search_json("models", {}).size(), 10u) << "the default limit is 10";
  auto past_end = abstracts({"search", "models", "--offset", std::to_string(all.size())});
  EXPECT_EQ(past_end.status, 1);
  EXPECT_EQ(past_end.out, "");

  auto text = abstracts({"search", "models", "--offset", "1", "--limit", "1"});
  ASSERT_EQ(text.status, 0);
  auto text_hits = parse_text_hits(text.out);
  ASSERT_EQ(text_hits.size(), 1u);
  EXPECT_EQ(text_hits[0].rank, 2u);
  EXPECT_EQ(text_hits[0].id, two[1].at("id"));
}

const std::regex kHighlightedAttention(R"((\x1b\[[0-9;]*m)+attention\x1b\[)", std::regex::icase);

TEST_F(CliTest, ColorAlwaysHighlightsMatchedWords) {
  auto r = abstracts({"search", "attention", "--color", "always"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(std::regex_search(r.out, kHighlightedAttention)) << r.out;
  r = abstracts({"search", "attention", "--color", "always"}, {{"NO_COLOR", "1"}});
  EXPECT_TRUE(std::regex_search(r.out, kHighlightedAttention)) << "NO_COLOR beats --color always";
}

TEST_F(CliTest, ColorNeverAndAutoOnAPipeHaveNoEscapes) {
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"search", "attention", "--color", "never"},
           {"search", "attention", "--color", "auto"},
           {"search", "attention"},
           {"search", "attention", "--json", "--color", "always"}}) {
    auto r = abstracts(args);
    EXPECT_EQ(r.status, 0);
    EXPECT_EQ(r.out.find('\x1b'), std::string::npos) << args.back() << "\n" << r.out;
  }
}

TEST_F(CliTest, ColorAutoOnATerminalHonoursNoColor) {
  auto tty = run_on_terminal({"search", "attention", "--color", "auto"}, env({{"TERM", "xterm"}}));
  EXPECT_EQ(tty.status, 0);
  EXPECT_TRUE(std::regex_search(tty.out, kHighlightedAttention)) << tty.out;

  auto no_color =
      run_on_terminal({"search", "attention"}, env({{"TERM", "xterm"}, {"NO_COLOR", "1"}}));
  EXPECT_EQ(no_color.status, 0);
  EXPECT_FALSE(no_color.out.empty());
  EXPECT_EQ(no_color.out.find('\x1b'), std::string::npos) << no_color.out;

  auto empty_no_color =
      run_on_terminal({"search", "attention"}, env({{"TERM", "xterm"}, {"NO_COLOR", ""}}));
  EXPECT_TRUE(std::regex_search(empty_no_color.out, kHighlightedAttention))
      << "an empty NO_COLOR does not turn colour off\n"
      << empty_no_color.out;

  auto never =
      run_on_terminal({"search", "attention", "--color", "never"}, env({{"TERM", "xterm"}}));
  EXPECT_EQ(never.status, 0);
  EXPECT_EQ(never.out.find('\x1b'), std::string::npos) << never.out;
}

// ---------------------------------------------------------------------------
// show and stats.

TEST_F(CliTest, ShowPrintsTheAbstractOfAHit) {
  auto hits = search_json("\"sparse attention\"", {"--limit", "1"});
  ASSERT_EQ(hits.size(), 1u);
  const auto& hit = hits[0];
  auto id = hit.at("id").get<std::string>();
  auto r = abstracts({"show", id});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(contains(r.out, id));
  EXPECT_TRUE(contains(r.out, hit.at("title").get<std::string>())) << r.out;
  EXPECT_TRUE(contains(r.out, fs::path(hit.at("path").get<std::string>()).filename().string() +
                                  ":" + std::to_string(hit.at("line").get<std::size_t>())))
      << r.out;
  EXPECT_TRUE(contains(r.out, "NeurIPS"));
  EXPECT_TRUE(contains(r.out, "2026"));
  EXPECT_TRUE(icontains(r.out, "sparse attention"));

  auto j = abstracts({"show", id, "--json"});
  ASSERT_EQ(j.status, 0) << j.err;
  json abstract;
  ASSERT_NO_THROW(abstract = json::parse(j.out)) << j.out;
  EXPECT_EQ(abstract.at("id"), id);
  EXPECT_EQ(abstract.at("title"), hit.at("title"));
  EXPECT_TRUE(icontains(abstract.at("text").get<std::string>(), "sparse attention"));
}

TEST_F(CliTest, ShowDisplaysLatexAsText) {
  // The corpus writes "\emph{Pok\'emon theorem}".
  auto hits = search_json("\"pokemon theorem\"");
  ASSERT_EQ(hits.size(), 1u);
  auto r = abstracts({"show", hits[0].at("id").get<std::string>()});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "Pokémon theorem")) << r.out;
  EXPECT_FALSE(contains(r.out, "\\emph")) << r.out;
}

TEST_F(CliTest, ShowUnknownIdExitsOne) {
  auto r = abstracts({"show", "nosuchid"});
  EXPECT_EQ(r.status, 1) << r.out << r.err;
}

TEST_F(CliTest, StatsCountsTheCorpus) {
  auto r = abstracts({"stats", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  json stats;
  ASSERT_NO_THROW(stats = json::parse(r.out)) << r.out;
  EXPECT_EQ(stats.at("abstracts"), corpus().size());
  EXPECT_EQ(stats.at("files"), corpus_file_count());
  EXPECT_GT(stats.at("terms").get<std::size_t>(), 1000u);
  EXPECT_GT(stats.at("size_bytes").get<std::size_t>(), 0u);
  EXPECT_EQ(stats.at("vectors"), 0u);  // none built: no `vectors` line in the text either
  EXPECT_TRUE(fs::equivalent(stats.at("path").get<std::string>(), index_));

  auto text = abstracts({"stats"});
  ASSERT_EQ(text.status, 0) << text.err;
  auto has_line = [&](const std::string& key, const std::string& value) {
    return std::regex_search(text.out, std::regex("(^|\n)" + key + " {2,}" + value + "(\n|$)"));
  };
  EXPECT_TRUE(has_line("abstracts", std::to_string(corpus().size()))) << text.out;
  EXPECT_TRUE(has_line("files", std::to_string(corpus_file_count()))) << text.out;
  EXPECT_FALSE(contains(text.out, "vectors")) << text.out;
}

// ---------------------------------------------------------------------------
// Finding the index and the corpus.

TEST_F(CliTest, IndexOptionBeforeOrAfterTheCommand) {
  Env no_env_index{{"ABSTRACTS_INDEX", kUnset}};
  auto before =
      abstracts({"--index", index_.string(), "search", "attention", "--json"}, no_env_index);
  auto after =
      abstracts({"search", "attention", "--json", "--index", index_.string()}, no_env_index);
  EXPECT_EQ(before.status, 0) << before.err;
  EXPECT_EQ(after.status, 0) << after.err;
  EXPECT_EQ(before.out, after.out);
}

TEST_F(CliTest, IndexOptionBeatsEnvironment) {
  TempDir empty;
  auto r = abstracts({"--index", index_.string(), "search", "attention"},
                     {{"ABSTRACTS_INDEX", (empty.path() / "missing").string()}});
  EXPECT_EQ(r.status, 0) << r.err;
}

TEST_F(CliTest, MissingIndexIsAnErrorWithAHint) {
  TempDir empty;
  auto missing = empty.path() / "no-index-here";
  for (const auto& args :
       std::vector<std::vector<std::string>>{{"--index", missing.string(), "search", "attention"},
                                             {"--index", missing.string(), "show", "0123456789ab"},
                                             {"--index", missing.string(), "stats"}}) {
    auto r = abstracts(args);
    EXPECT_EQ(r.status, 2) << args[2];
    EXPECT_EQ(r.out, "");
    EXPECT_TRUE(r.err.starts_with("error:")) << r.err;
    EXPECT_EQ(lines_starting(r.err, "hint:").size(), 1u) << r.err;
    EXPECT_FALSE(crashed(r)) << r.err;
  }
  EXPECT_FALSE(fs::exists(missing)) << "search must not create an index it was pointed at";
}

TEST_F(CliTest, SearchBuildsTheDefaultIndexOnFirstUse) {
  TempDir data, home;
  Env fresh{{"ABSTRACTS_INDEX", kUnset},
            {"ABSTRACTS_CORPUS", kUnset},
            {"XDG_DATA_HOME", data.path().string()},
            {"HOME", home.path().string()},
            {"NO_COLOR", kUnset}};
  auto first = run_abstracts({"search", "attention"}, fresh, kRoot);
  EXPECT_EQ(first.status, 0) << first.err;
  EXPECT_TRUE(icontains(first.err, "index")) << "no note on stderr: [" << first.err << "]";
  auto default_index = data.path() / "abstracts" / "index";
  EXPECT_TRUE(fs::is_directory(default_index));
  EXPECT_EQ(stats_abstracts(default_index), corpus().size());
  EXPECT_FALSE(fs::exists(home.path() / ".local")) << "XDG_DATA_HOME is set";

  auto second = run_abstracts({"search", "attention"}, fresh, kRoot);
  EXPECT_EQ(second.status, 0) << second.err;
  EXPECT_EQ(second.err, "") << "the default index exists now";
  EXPECT_EQ(second.out, first.out);
}

TEST_F(CliTest, DefaultIndexFallsBackToHome) {
  TempDir home;
  Env fresh{{"ABSTRACTS_INDEX", kUnset},
            {"ABSTRACTS_CORPUS", kUnset},
            {"XDG_DATA_HOME", kUnset},
            {"HOME", home.path().string()}};
  auto r = run_abstracts({"search", "attention", "--json"}, fresh, kRoot);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err, "");
  EXPECT_EQ(stats_abstracts(home.path() / ".local" / "share" / "abstracts" / "index"),
            corpus().size());
}

TEST_F(CliTest, EnvironmentIndexIsNotTheDefaultIndex) {
  // With ABSTRACTS_INDEX set, nothing is created in XDG_DATA_HOME.
  TempDir data;
  auto r = abstracts({"search", "attention"}, {{"XDG_DATA_HOME", data.path().string()}});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_TRUE(fs::is_empty(data.path()));
}

TEST_F(CliTest, IndexWithoutPathsBuildsTheDefaultIndexFromTheCorpusOfTheEnvironment) {
  TempDir corpus_dir, data;
  write_file(corpus_dir / "tiny.txt",
             "NeurIPS 2026 Papers\n\nA first abstract about quokkas.\n\nA second one about "
             "wombats.\n");
  Env e = sandbox_env();
  e["XDG_DATA_HOME"] = data.path().string();
  e["ABSTRACTS_CORPUS"] = corpus_dir.path().string();
  auto r = run_abstracts({"index", "--quiet"}, e, kRoot);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(stats_abstracts(data / "abstracts" / "index"), 2u);
}

// Issue 41: the demo corpus never enters an index the user names unless they
// ask for it (by its path).
TEST_F(CliTest, IndexWithoutPathsIntoANamedIndexIsAnErrorNamingTheCorpus) {
  TempDir index;
  auto r = run_abstracts({"--index", (index / "new").string(), "index"}, sandbox_env(), kRoot);
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(contains(r.err, "no files or folders were given")) << r.err;
  EXPECT_TRUE(contains(r.err, "index PATH...")) << r.err;
  EXPECT_TRUE(contains(r.err, kCorpus.string())) << r.err;
  EXPECT_FALSE(fs::exists(index / "new"));
  r = run_abstracts({"--index", (index / "new").string(), "index", kCorpus.string()}, sandbox_env(), kRoot);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(stats_abstracts(index / "new"), corpus().size());
}

// ---------------------------------------------------------------------------
// Indexing: idempotence, updates, bad files, the lock.

// A copy of the corpus in a temporary directory, and an index of it.
class ReindexTest : public CliTest {
 protected:
  void SetUp() override {
    fs::copy(kCorpus, corpus_dir_.path(), fs::copy_options::recursive);
    auto r = index_corpus();
    ASSERT_EQ(r.status, 0) << r.err;
  }
  RunResult index_corpus(const std::vector<std::string>& extra = {"--quiet"}) {
    std::vector<std::string> args{"--index", index_dir_.path().string(), "index",
                                  corpus_dir_.path().string()};
    args.insert(args.end(), extra.begin(), extra.end());
    return run_abstracts(args, sandbox_env(), kRoot);
  }
  RunResult in_copy(std::vector<std::string> args) {
    args.insert(args.begin(), {"--index", index_dir_.path().string()});
    return run_abstracts(args, sandbox_env(), kRoot);
  }
  // The id of the abstract at `line` of the copied `file`, found by searching its
  // distinctive `phrase`.
  std::string id_of(const std::string& file, std::size_t line, const std::string& phrase) {
    auto r = in_copy({"search", "\"" + phrase + "\"", "--json", "--limit", "1000"});
    EXPECT_EQ(r.status, 0) << r.err;
    for (const auto& hit : parse_json_lines(r.out)) {
      if (fs::equivalent(hit.at("path").get<std::string>(), corpus_dir_ / file) &&
          hit.at("line") == line) {
        return hit.at("id").get<std::string>();
      }
    }
    ADD_FAILURE() << "no hit at " << file << ":" << line << " for " << phrase << "\n" << r.out;
    return "";
  }
  // Removes line `line` (1-based) and the blank line after it from the copied `file`.
  std::string drop_line(const std::string& file, std::size_t line) {
    auto text = lines(read_file(corpus_dir_ / file));
    std::string dropped = text.at(line - 1);
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
      if (i == line - 1) continue;
      if (i == line && text[i].empty()) continue;
      out += text[i] + "\n";
    }
    write_file(corpus_dir_ / file, out);
    return dropped;
  }

  TempDir corpus_dir_, index_dir_;
};

TEST_F(ReindexTest, IndexingTwiceChangesNothing) {
  EXPECT_EQ(stats_abstracts(index_dir_.path()), corpus().size());
  auto r = index_corpus({});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(
      std::regex_search(r.err, std::regex("unchanged|skipped|up to date", std::regex::icase)))
      << "the summary does not say the files were skipped: " << r.err;
  EXPECT_EQ(stats_abstracts(index_dir_.path()), corpus().size());
  r = index_corpus();
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(stats_abstracts(index_dir_.path()), corpus().size());
}

TEST_F(ReindexTest, QuietIndexingPrintsNothing) {
  auto r = index_corpus({"--quiet"});
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "");
}

TEST_F(ReindexTest, AbstractDroppedFromAFileLeavesTheIndex) {
  // The corpus line with the most "sparse attention" is distinctive enough.
  const CorpusLine* victim = nullptr;
  for (const auto& a : corpus()) {
    if (contains_words(a.text, "sparse attention")) victim = &a;
  }
  ASSERT_NE(victim, nullptr);
  auto file = victim->file.filename().string();
  auto id = id_of(file, victim->line, "sparse attention");
  ASSERT_FALSE(id.empty());
  ASSERT_EQ(in_copy({"show", id}).status, 0);

  drop_line(file, victim->line);
  auto r = index_corpus();
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(stats_abstracts(index_dir_.path()), corpus().size() - 1);
  EXPECT_EQ(in_copy({"show", id}).status, 1);
  // The abstracts after it moved up one line and are found at their new lines.
  for (const auto& hit :
       parse_json_lines(in_copy({"search", "attention", "--json", "--limit", "1000"}).out)) {
    auto text = line_of(hit.at("path").get<std::string>(), hit.at("line"));
    EXPECT_TRUE(icontains(text, "attention")) << hit.dump();
  }
}

TEST_F(ReindexTest, ChangedAbstractIsReplacedNotDuplicated) {
  const CorpusLine* victim = nullptr;
  for (const auto& a : corpus()) {
    if (contains_words(a.text, "sparse attention")) victim = &a;
  }
  ASSERT_NE(victim, nullptr);
  auto file = victim->file.filename().string();
  auto old_id = id_of(file, victim->line, "sparse attention");
  auto text = lines(read_file(corpus_dir_ / file));
  text.at(victim->line - 1) += " We call it the zorblaxian design.";
  std::string out;
  for (const auto& l : text) out += l + "\n";
  write_file(corpus_dir_ / file, out);

  auto r = index_corpus();
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(stats_abstracts(index_dir_.path()), corpus().size());
  EXPECT_EQ(in_copy({"show", old_id}).status, 1);
  auto found = in_copy({"search", "zorblaxian", "--json"});
  ASSERT_EQ(found.status, 0) << found.err;
  auto hits = parse_json_lines(found.out);
  ASSERT_EQ(hits.size(), 1u);
  EXPECT_EQ(hits[0].at("line"), victim->line);
  EXPECT_NE(hits[0].at("id"), old_id);
}

TEST_F(ReindexTest, FileDeletedFromAnIndexedDirectoryLeavesTheIndex) {
  auto gone = corpus().front().file.filename();
  auto in_gone = abstracts_in(corpus_dir_.path());
  auto count_gone = static_cast<std::size_t>(
      std::count_if(in_gone.begin(), in_gone.end(),
                    [&](const CorpusLine& a) { return a.file.filename() == gone; }));
  fs::remove(corpus_dir_ / gone);
  auto r = index_corpus();
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(stats_abstracts(index_dir_.path()), corpus().size() - count_gone);
  auto stats = json::parse(in_copy({"stats", "--json"}).out);
  EXPECT_EQ(stats.at("files"), corpus_file_count() - 1);
}

TEST_F(ReindexTest, HiddenFilesAreSkipped) {
  write_file(corpus_dir_ / ".hidden.txt", "NeurIPS 2026 Papers\n\nAn abstract about quokkas.\n");
  write_file(corpus_dir_ / ".git" / "notes.txt",
             "NeurIPS 2026 Papers\n\nAn abstract about quokkas.\n");
  auto r = index_corpus();
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(stats_abstracts(index_dir_.path()), corpus().size());
  EXPECT_EQ(in_copy({"search", "quokkas"}).status, 1);
}

TEST_F(ReindexTest, DirectoriesAreIndexedRecursively) {
  write_file(corpus_dir_ / "more" / "deeper" / "extra.txt",
             "NeurIPS 2026 Papers\n\nAn abstract about quokkas.\n");
  auto r = index_corpus();
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(stats_abstracts(index_dir_.path()), corpus().size() + 1);
  EXPECT_EQ(in_copy({"search", "quokkas"}).status, 0);
}

TEST_F(CliTest, BadFilesAreReportedAndTheOthersIndexed) {
  TempDir dir, index;
  write_file(dir / "good.txt",
             "NeurIPS 2026 Papers\n\nAn abstract about quokkas.\n\nAnother about wombats.\n");
  // Line 5 is Latin-1, not UTF-8.
  write_file(dir / "latin1.txt",
             "NeurIPS 2026 Papers\n\nA fine first abstract.\n\nA caf\xe9 abstract.\n");
  auto r = run_abstracts({"--index", index.path().string(), "index", dir.path().string()},
                         sandbox_env(), kRoot);
  EXPECT_EQ(r.status, 2);
  EXPECT_FALSE(crashed(r)) << r.err;
  auto errors = lines_starting(r.err, "error: ");
  EXPECT_TRUE(std::any_of(errors.begin(), errors.end(), [](const std::string& e) {
    return contains(e, "latin1.txt:5:");
  })) << r.err;
  EXPECT_TRUE(std::none_of(errors.begin(), errors.end(), [](const std::string& e) {
    return contains(e, "good.txt");
  })) << r.err;
  EXPECT_EQ(stats_abstracts(index.path()), 2u) << "good.txt is indexed, latin1.txt not at all";

  // The same file given by name.
  TempDir index2;
  r = run_abstracts({"--index", index2.path().string(), "index", (dir / "latin1.txt").string(),
                     (dir / "good.txt").string()},
                    sandbox_env(), kRoot);
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(contains(r.err, "latin1.txt:5:")) << r.err;
  EXPECT_EQ(stats_abstracts(index2.path()), 2u);
}

TEST_F(CliTest, FileWithoutHeaderIsReported) {
  TempDir dir, index;
  write_file(dir / "headless.txt",
             "We study quokkas in the wild and find that they smile a lot.\n\n"
             "We study wombats and find that their droppings are cubes.\n");
  auto r =
      run_abstracts({"--index", index.path().string(), "index", (dir / "headless.txt").string()},
                    sandbox_env(), kRoot);
  EXPECT_EQ(r.status, 2);
  EXPECT_FALSE(crashed(r)) << r.err;
  auto errors = lines_starting(r.err, "error: ");
  EXPECT_TRUE(std::any_of(errors.begin(), errors.end(), [](const std::string& e) {
    return contains(e, "headless.txt:1:");
  })) << r.err;
}

TEST_F(CliTest, MissingFileIsReported) {
  TempDir dir, index;
  auto r = run_abstracts({"--index", index.path().string(), "index",
                          (dir / "does-not-exist.txt").string(), kCorpus.string()},
                         sandbox_env(), kRoot);
  EXPECT_EQ(r.status, 2);
  EXPECT_FALSE(crashed(r)) << r.err;
  EXPECT_TRUE(contains(r.err, "error: ")) << r.err;
  EXPECT_TRUE(contains(r.err, "does-not-exist.txt")) << r.err;
  EXPECT_EQ(stats_abstracts(index.path()), corpus().size());
}

TEST_F(CliTest, UnreadableFileIsReported) {
  if (geteuid() == 0) GTEST_SKIP() << "root can read a file without read permission";
  TempDir dir, index;
  write_file(dir / "secret.txt", "NeurIPS 2026 Papers\n\nAn abstract about quokkas.\n");
  fs::permissions(dir / "secret.txt", fs::perms::none);
  auto r = run_abstracts({"--index", index.path().string(), "index", (dir / "secret.txt").string()},
                         sandbox_env(), kRoot);
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(contains(r.err, "secret.txt")) << r.err;
}

TEST_F(CliTest, LockedIndexIsAnErrorAndLeftIntact) {
  TempDir index;
  auto r = run_abstracts({"--index", index.path().string(), "index", kCorpus.string(), "--quiet"},
                         sandbox_env(), kRoot);
  ASSERT_EQ(r.status, 0) << r.err;
  {
    auto writer = ::abstracts::Writer::open(index.path());  // holds the write lock
    r = run_abstracts({"--index", index.path().string(), "index", kCorpus.string()}, sandbox_env(),
                      kRoot);
    EXPECT_EQ(r.status, 2);
    EXPECT_TRUE(r.err.starts_with("error:")) << r.err;
    EXPECT_TRUE(icontains(r.err, "locked")) << r.err;
    EXPECT_FALSE(crashed(r)) << r.err;
  }
  EXPECT_EQ(stats_abstracts(index.path()), corpus().size());
}

// ---------------------------------------------------------------------------
// Malformed queries.

TEST_F(CliTest, MalformedQueriesAreErrorsWithAColumn) {
  for (const std::string query : {"sparse title:", "year:20x6", "sparse NEAR/x attention"}) {
    auto r = abstracts({"search", query});
    EXPECT_EQ(r.status, 2) << query << "\n" << r.out;
    EXPECT_TRUE(r.err.starts_with("error:")) << query << ": " << r.err;
    EXPECT_TRUE(icontains(r.err, "column")) << query << ": " << r.err;
    EXPECT_FALSE(crashed(r)) << query << ": " << r.err;
    EXPECT_EQ(r.out, "");
  }
}

TEST_F(CliTest, EmptyQueryIsAnError) {
  for (const std::string query : {"", "   "}) {
    auto r = abstracts({"search", query});
    EXPECT_EQ(r.status, 2) << "[" << query << "]";
    EXPECT_TRUE(r.err.starts_with("error:")) << r.err;
  }
  auto r = abstracts({"search"});
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(r.err.starts_with("error:")) << r.err;
}

TEST_F(CliTest, StrangeQueriesNeverCrash) {
  std::vector<std::string> queries = {")",
                                      "sparse)",
                                      "()",
                                      "(((((((((((sparse",
                                      "AND",
                                      "OR sparse",
                                      "NOT",
                                      "sparse NOT",
                                      "sparse AND AND attention",
                                      "+",
                                      "sparse -",
                                      "\"\"",
                                      "\"",
                                      "\"a\" \"",
                                      "NOT NOT NOT sparse",
                                      "*",
                                      "sparse*",
                                      "title:sparse",
                                      "sparse NEAR attention",
                                      "sparse NEAR/3 x",
                                      "\\",
                                      "\\emph{x}",
                                      "$x^2$",
                                      "\x01\x02",
                                      "\xff\xfe invalid utf-8",
                                      "\xe2\x80",
                                      "😀 🤖",
                                      "ǅ ß ﬁ İ",
                                      "a\u0301",
                                      "+-+-+-",
                                      "((a OR b) AND (c OR (d AND NOT e)))",
                                      "\"sparse\tattention\"",
                                      "x\ny",
                                      std::string(5000, 'a'),
                                      [] {
                                        std::string many;
                                        for (int i = 0; i < 2000; ++i)
                                          many += "w" + std::to_string(i) + " OR ";
                                        return many + "end";
                                      }()};
  for (const auto& query : queries) {
    SCOPED_TRACE("[" + query.substr(0, 60) + "]");
    auto r = abstracts({"search", query});
    EXPECT_FALSE(crashed(r)) << r.err;
    EXPECT_TRUE(r.status == 0 || r.status == 1 || r.status == 2) << r.status;
    if (r.status == 2) {
      EXPECT_TRUE(r.err.starts_with("error:")) << r.err;
      EXPECT_EQ(r.out, "");
    }
  }
}

}  // namespace
}  // namespace abstracts::testing::cli_test
