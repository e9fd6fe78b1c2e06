// Issue 40: what the CLI prints is safe and bounded. A queries file gets the
// input rules of an indexed file; a title, snippet, path, id or message cannot
// drive the terminal (C0 and C1 controls, bidi overrides) in the text output,
// on stderr or in JSON; a path that is not UTF-8 still names its file in JSON.
// Each test runs the real binary on a real index.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>
#include <vector>

#include "tests/support/test_support.h"

namespace abstracts::testing::issue40_output_test {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

const std::string kHeader = "NeurIPS 2026\n";
// U+009B (CSI as one C1 character: "\x9b31m" turns a terminal red, like "\x1b[31m"),
// U+202E (right-to-left override) and U+2066 (left-to-right isolate), in UTF-8.
const std::string kCsi = "\xC2\x9B", kRlo = "\xE2\x80\xAE", kLri = "\xE2\x81\xA6";

// The first thing in `out` a terminal could obey or that reorders what follows:
// a C0 control other than newline (and tab, if `tab_ok`), DEL, a C1 control, a
// bidi embedding, override or isolate, or a byte that is not UTF-8. "" if none.
std::string first_unsafe(const std::string& out, bool tab_ok = false) {
  for (std::size_t i = 0; i < out.size();) {
    const auto b = static_cast<unsigned char>(out[i]);
    if (b < 0x80) {
      if ((b < 0x20 && b != '\n' && !(tab_ok && b == '\t')) || b == 0x7F) return "byte " + std::to_string(b);
      ++i;
      continue;
    }
    const std::size_t n = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC2 ? 2 : 0;
    if (n == 0 || i + n > out.size()) return "a byte that is not UTF-8 at " + std::to_string(i);
    char32_t c = b & (0xFF >> (n + 1));
    for (std::size_t k = 1; k < n; ++k) {
      const auto cont = static_cast<unsigned char>(out[i + k]);
      if ((cont & 0xC0) != 0x80) return "a byte that is not UTF-8 at " + std::to_string(i);
      c = (c << 6) | (cont & 0x3F);
    }
    if ((c >= 0x80 && c <= 0x9F) || (c >= 0x202A && c <= 0x202E) || (c >= 0x2066 && c <= 0x2069)) {
      char hex[16];
      std::snprintf(hex, sizeof hex, "U+%04X", static_cast<unsigned>(c));
      return hex;
    }
    i += n;
  }
  return {};
}

// `text` without the colour sequences (SGR) the text printer writes itself.
std::string without_colour(const std::string& text) {
  return std::regex_replace(text, std::regex("\x1b\\[[0-9;]*m"), "");
}

std::string base64_decode(const std::string& text) {
  static const std::string kDigits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  std::uint32_t group = 0;
  int bits = 0;
  for (char c : text) {
    if (c == '=') break;
    const auto v = kDigits.find(c);
    EXPECT_NE(v, std::string::npos) << "not base64: " << text;
    if (v == std::string::npos) return {};
    group = (group << 6) | static_cast<std::uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += static_cast<char>((group >> bits) & 0xFF);
    }
  }
  return out;
}

class Issue40 : public ::testing::Test {
 protected:
  fs::path index() const { return dir_ / "index"; }

  // abstracts --index INDEX ARGS..., in the sandbox, with `input` on stdin.
  RunResult abstracts(std::vector<std::string> args, const std::string& input = {}) const {
    args.insert(args.begin(), {"--index", index().string()});
    return run(ABSTRACTS_BIN, args, sandbox_env(dir_.path()), dir_.path(), input);
  }

  // Indexes `files` (name -> content) below dir_/papers into index().
  void index_files(const std::map<std::string, std::string>& files) const {
    for (const auto& [name, content] : files) write_file(dir_ / "papers" / name, content);
    auto r = abstracts({"index", "-q", (dir_ / "papers").string()});
    ASSERT_EQ(r.status, 0) << r.err;
  }

  TempDir dir_;
};

// ---------------------------------------------------------------------------
// 1. --queries reads a regular file (or standard input) by the input rules.

TEST_F(Issue40, QueriesFolderIsAnErrorWithAHint) {
  index_files({{"a.txt", kHeader + "An abstract about attention.\n"}});
  fs::create_directories(dir_ / "queries");
  auto r = abstracts({"search", "--queries", (dir_ / "queries").string()});
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_TRUE(contains(r.err, "error: " + (dir_ / "queries").string() + ": is a directory\n")) << r.err;
  EXPECT_TRUE(contains(r.err, "\nhint: --queries takes a file")) << r.err;
  EXPECT_EQ(r.out, "");
}

TEST_F(Issue40, QueriesFromADeviceAreRefusedAtOnce) {
  index_files({{"a.txt", kHeader + "An abstract about attention.\n"}});
  // /dev/zero has no end and no line break: read as lines, it grew without bound.
  auto r = run_with_limit(std::chrono::seconds(5), ABSTRACTS_BIN,
                          {"--index", index().string(), "search", "--queries", "/dev/zero"},
                          sandbox_env(dir_.path()), dir_.path());
  EXPECT_FALSE(r.timed_out) << "still reading /dev/zero";
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_TRUE(contains(r.err, "error: /dev/zero: not a regular file")) << r.err;
  EXPECT_TRUE(contains(r.err, "\nhint: ")) << r.err;
}

TEST_F(Issue40, QueriesLineOverOneMiBNulOrNotUtf8IsAnErrorNamingFileAndLine) {
  index_files({{"a.txt", kHeader + "An abstract about attention.\n"}});
  struct Case {
    std::string third_line, says;
  };
  for (const auto& c : {Case{std::string(1 << 20, 'a') + "b", "line longer than 1 MiB"},
                        Case{std::string("sparse\0attention", 16), "a NUL byte (byte 7 of the line)"},
                        Case{"attenti\xF3n", "not valid UTF-8 (byte 8 of the line)"},
                        Case{"\xC0\xA0overlong", "not valid UTF-8 (byte 1 of the line)"}}) {
    SCOPED_TRACE(c.says);
    std::string file = "q1\tattention\n\n";
    file += c.third_line;
    file += "\nq4\tattention\n";
    write_file(dir_ / "queries.tsv", file);
    auto r = abstracts({"search", "--json", "--queries", (dir_ / "queries.tsv").string()});
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_TRUE(contains(r.err, "error: " + (dir_ / "queries.tsv").string() + ":3: " + c.says + "\n")) << r.err;
    EXPECT_TRUE(contains(r.err, "\nhint: ")) << r.err;
    // Line 1 ran; the bad line ends the batch.
    const auto out = lines(r.out);
    ASSERT_EQ(out.size(), 1u) << r.out;
    EXPECT_EQ(json::parse(out[0]).at("query"), "q1");
    // The same from standard input.
    r = abstracts({"search", "--count", "--queries", "-"}, file);
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_TRUE(contains(r.err, "error: standard input:3: " + c.says + "\n")) << r.err;
    EXPECT_EQ(r.out, "q1\t1\n");
  }
  // A BOM at the start is no part of the first id.
  auto r = abstracts({"search", "--count", "--queries", "-"}, "\xEF\xBB\xBFq1\tattention\n");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "q1\t1\n");
}

// 3. A line "<TAB>QUERY" printed a count with no id, and JSON without "query".
TEST_F(Issue40, QueriesLineWithAnEmptyIdIsAnErrorNamingTheLine) {
  index_files({{"a.txt", kHeader + "An abstract about attention.\n"}});
  for (const std::string line : {"\tattention", "  \tattention"}) {
    SCOPED_TRACE(line);
    write_file(dir_ / "queries.tsv", "attention\n" + line + "\n");
    for (const std::vector<std::string>& extra :
         {std::vector<std::string>{"--count"}, {"--json"}, {"--count", "--json"}, {}}) {
      std::vector<std::string> args{"search", "--queries", (dir_ / "queries.tsv").string()};
      args.insert(args.end(), extra.begin(), extra.end());
      auto r = abstracts(args);
      EXPECT_EQ(r.status, 2) << r.err;
      EXPECT_TRUE(contains(r.err, "error: " + (dir_ / "queries.tsv").string() +
                                      ":2: the id before the tab is empty\nhint: "))
          << r.err;
      // Only line 1's answer, labelled by its number.
      for (const auto& out : lines(r.out)) {
        if (out.starts_with("{")) {
          EXPECT_EQ(json::parse(out).at("query"), "1") << r.out;
        } else if (!out.empty() && !out.starts_with(" ")) {
          EXPECT_TRUE(out.starts_with("1\t") || out.starts_with("query 1: ") || out.starts_with("1  "))
              << r.out;
        }
      }
    }
  }
}

// ---------------------------------------------------------------------------
// 2. C0, DEL, C1 and bidi controls are escapes in text, on stderr and in JSON.

TEST_F(Issue40, ControlCharactersAreEscapedInTextAndOnStderr) {
  const std::string name = "na" + kCsi + "me" + kRlo + ".txt";
  index_files({{name, kHeader + "Warning " + kCsi + "31m red " + kRlo + " reversed " + kLri +
                          " isolated: attention is all you need.\n"}});
  auto r = abstracts({"search", "--color", "never", "attention"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(first_unsafe(r.out), "") << r.out;
  // In the path, the title and the snippet.
  EXPECT_TRUE(contains(r.out, "na\\u{9b}me\\u{202e}.txt:2")) << r.out;
  EXPECT_TRUE(contains(r.out, "   Warning \\u{9b}31m red \\u{202e} reversed \\u{2066} isolated: attention"))
      << r.out;
  std::smatch id;
  ASSERT_TRUE(std::regex_search(r.out, id, std::regex(" id (\\S+) "))) << r.out;

  r = abstracts({"show", id[1]});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(first_unsafe(r.out), "") << r.out;
  EXPECT_TRUE(contains(r.out, "\\u{202e} reversed")) << r.out;

  // A missing id is echoed on stderr: ESC, BEL, a newline, C1, bidi.
  r = abstracts({"show", "x\x1b[2J\x07\ny" + kCsi + kRlo});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(first_unsafe(r.err), "") << r.err;
  EXPECT_EQ(r.err, "abstracts: no abstract with id 'x\\x1b[2J\\x07\\x0ay\\u{9b}\\u{202e}'\n");

  // An error line naming a path.
  const std::string missing = (dir_ / ("no" + kCsi + kRlo + "\x7f")).string();
  r = run_abstracts({"--index", missing, "search", "attention"}, sandbox_env(dir_.path()), dir_.path());
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(first_unsafe(r.err), "") << r.err;
  EXPECT_TRUE(contains(r.err, "no\\u{9b}\\u{202e}\\x7f")) << r.err;

  // The text of a batch's query, and its label.
  r = abstracts({"search", "--limit", "1", "--queries", "-"}, "q" + kRlo + "\tattention " + kCsi + "\n");
  EXPECT_EQ(first_unsafe(r.out), "") << r.out;
  EXPECT_TRUE(contains(r.out, "query q\\u{202e}: attention \\u{9b}\n")) << r.out;
  r = abstracts({"search", "--count", "--queries", "-"}, "q" + kRlo + "\tattention\n");
  EXPECT_EQ(r.out, "q\\u{202e}\t1\n");
}

TEST_F(Issue40, HighlightsLineUpWithTheEscapedSnippet) {
  index_files({{"a.txt", kHeader + "Red " + kCsi + "31m text " + kRlo + " then attention and " + kLri +
                             "sparse" + kRlo + " attention again.\n"}});
  auto r = abstracts({"search", "--color", "always", "sparse attention"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(first_unsafe(without_colour(r.out)), "") << r.out;
  // Each bold red stretch of the snippet is a matched word, whole.
  const std::regex highlighted("\x1b\\[1;31m([^\x1b]*)\x1b\\[0m");
  std::vector<std::string> words;
  for (std::sregex_iterator it(r.out.begin(), r.out.end(), highlighted), end; it != end; ++it) {
    words.push_back((*it)[1]);
  }
  EXPECT_EQ(words, (std::vector<std::string>{"attention", "sparse", "attention"})) << r.out;
  EXPECT_TRUE(contains(without_colour(r.out), "\\u{2066}sparse\\u{202e} attention again")) << r.out;
}

TEST_F(Issue40, ControlCharactersAreJsonEscapesInJson) {
  const std::string name = "na" + kCsi + "me" + kRlo + ".txt";
  const std::string title = "Warning " + kCsi + "31m red " + kRlo + " reversed " + kLri + "sparse" + kRlo +
                            " attention";
  index_files({{name, kHeader + title + ". More about it.\n"}});
  auto r = abstracts({"search", "--json", "sparse attention"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(first_unsafe(r.out), "") << r.out;
  EXPECT_TRUE(contains(r.out, "\"Warning \\u009b31m red \\u202e reversed \\u2066sparse\\u202e attention\""))
      << r.out;
  // Read back, the document holds the characters themselves, and the highlights'
  // byte offsets into the snippet are the matched words.
  const json hit = json::parse(lines(r.out).at(0));
  EXPECT_EQ(hit.at("title"), title);
  EXPECT_EQ(hit.at("path"), (dir_ / "papers" / name).string());
  const std::string snippet = hit.at("snippet");
  std::vector<std::string> words;
  for (const auto& h : hit.at("highlights")) {
    words.push_back(snippet.substr(h[0].get<std::size_t>(), h[1].get<std::size_t>() - h[0].get<std::size_t>()));
  }
  EXPECT_EQ(words, (std::vector<std::string>{"sparse", "attention"})) << r.out;

  r = abstracts({"show", "--json", hit.at("id")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(first_unsafe(r.out), "") << r.out;
  EXPECT_EQ(json::parse(r.out).at("title"), title);
  // A batch's label.
  r = abstracts({"search", "--json", "--count", "--queries", "-"}, "q" + kRlo + "\tattention\n");
  EXPECT_EQ(r.out, "{\"query\":\"q\\u202e\",\"count\":1}\n");
}

// ---------------------------------------------------------------------------
// 5. A path that is not UTF-8 is {"bytes": BASE64} in JSON, the file's own name.

TEST_F(Issue40, PathThatIsNotUtf8IsItsBytesInBase64InJson) {
  const std::string name = "bad\xFFname.txt";
  index_files({{name, kHeader + "An abstract about attention.\n"}});
  const std::string path = (dir_ / "papers" / name).string();
  ASSERT_TRUE(fs::exists(path)) << "this file system takes no byte 0xFF in names";
  auto r = abstracts({"search", "--json", "attention"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(first_unsafe(r.out), "") << r.out;
  const json hit = json::parse(r.out);
  ASSERT_TRUE(hit.at("path").is_object()) << r.out;
  EXPECT_EQ(base64_decode(hit.at("path").at("bytes")), path);
  ASSERT_TRUE(hit.at("source").is_object()) << r.out;
  EXPECT_EQ(base64_decode(hit.at("source").at("bytes")), "papers/" + name) << "relative to the current directory";
  r = abstracts({"show", "--json", hit.at("id")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(base64_decode(json::parse(r.out).at("path").at("bytes")), path) << r.out;
  // Text: the byte as an escape.
  r = abstracts({"search", "--color", "never", "attention"});
  EXPECT_EQ(first_unsafe(r.out), "") << r.out;
  EXPECT_TRUE(r.out.starts_with("1  papers/bad\\xffname.txt:2  ")) << r.out;
  // A UTF-8 path stays a string.
  index_files({{"good.txt", kHeader + "Another abstract about attention.\n"}});
  r = abstracts({"search", "--json", "another attention"});
  EXPECT_EQ(json::parse(lines(r.out).at(0)).at("path"), (dir_ / "papers" / "good.txt").string()) << r.out;

  // The index's own path, in stats.
  const std::string other = (dir_ / "index\xFF").string();
  r = run_abstracts({"--index", other, "index", "-q", (dir_ / "papers").string()}, sandbox_env(dir_.path()));
  ASSERT_EQ(r.status, 0) << r.err;
  r = run_abstracts({"--index", other, "stats", "--json"}, sandbox_env(dir_.path()));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(first_unsafe(r.out), "") << r.out;
  EXPECT_EQ(base64_decode(json::parse(r.out).at("path").at("bytes")), other) << r.out;
}

}  // namespace
}  // namespace abstracts::testing::issue40_output_test
