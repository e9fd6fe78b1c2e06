// Runs every command example in README.md and docs/*.md, so that the
// documentation cannot drift from the program.
//
// The convention (also stated at the top of docs/cli.md): in a ```console block,
// each line starting with "$ " is a command. It runs under /bin/sh -c from the
// repository root, with the directory of the abstracts binary first on PATH and
// ABSTRACTS_INDEX set to a temporary index of the bundled corpus. It must exit 0,
// unless the line right after it is "# exit N": then it must exit N. Commands
// starting with "$ scripts/" are not run (they build; CI runs the quick start).

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <regex>
#include <string>
#include <vector>

#include "tests/support/test_support.h"

namespace abstracts::testing::docs_examples_test {
namespace {

namespace fs = std::filesystem;

const fs::path kRoot = ABSTRACTS_SOURCE_DIR;

struct Example {
  fs::path file;
  std::size_t line = 0;  // 1-based line of the "$ " command
  std::string command;   // without the "$ "
  int expected_status = 0;
};

// The examples in one Markdown document, by the convention above.
std::vector<Example> parse_examples(const fs::path& file, const std::string& markdown) {
  static const std::regex kFence(R"(^ {0,3}(```+|~~~+)\s*([^\s`]*).*$)");
  static const std::regex kExit(R"(^# exit (\d+)\s*$)");
  std::vector<Example> examples;
  auto text = lines(markdown);
  std::string open_fence;  // the fence of the block we are in, "" outside blocks
  bool console = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    std::string l = text[i];
    if (!l.empty() && l.back() == '\r') l.pop_back();
    std::smatch m;
    if (std::regex_match(l, m, kFence)) {
      if (open_fence.empty()) {
        open_fence = m[1];
        console = m[2] == "console";
        continue;
      }
      // A block closes with a fence of the same kind, at least as long, and no info.
      std::string fence = m[1];
      if (fence[0] == open_fence[0] && fence.size() >= open_fence.size() && m[2].length() == 0) {
        open_fence.clear();
        console = false;
        continue;
      }
    }
    if (!console || !l.starts_with("$ ")) continue;
    Example example{file, i + 1, l.substr(2), 0};
    if (example.command.starts_with("scripts/")) continue;
    if (i + 1 < text.size() && std::regex_match(text[i + 1], m, kExit)) {
      example.expected_status = std::stoi(m[1]);
    }
    examples.push_back(example);
  }
  return examples;
}

// README.md and docs/*.md, those that exist, in a stable order.
std::vector<fs::path> documents() {
  std::vector<fs::path> docs;
  if (fs::exists(kRoot / "docs")) {
    for (const auto& entry : fs::directory_iterator(kRoot / "docs")) {
      if (entry.is_regular_file() && entry.path().extension() == ".md") {
        docs.push_back(entry.path());
      }
    }
  }
  std::sort(docs.begin(), docs.end());
  if (fs::exists(kRoot / "README.md")) docs.insert(docs.begin(), kRoot / "README.md");
  return docs;
}

TEST(DocsExamplesParser, FindsConsoleCommandsAndTheirStatus) {
  const std::string markdown =
      "Intro.\n"
      "```console\n"
      "$ abstracts search attention\n"
      "     1  corpus/x.txt:3  id 0123456789ab  score 1.00\n"
      "$ abstracts search nothing\n"
      "# exit 1\n"
      "$ scripts/abstracts stats\n"
      "```\n"
      "```sh\n"
      "$ not-an-example\n"
      "```\n"
      "$ outside a block\n"
      "````console\n"
      "```\n"
      "$ abstracts stats\n"
      "````\n";
  auto examples = parse_examples("doc.md", markdown);
  ASSERT_EQ(examples.size(), 3u);
  EXPECT_EQ(examples[0].command, "abstracts search attention");
  EXPECT_EQ(examples[0].line, 3u);
  EXPECT_EQ(examples[0].expected_status, 0);
  EXPECT_EQ(examples[1].command, "abstracts search nothing");
  EXPECT_EQ(examples[1].expected_status, 1);
  EXPECT_EQ(examples[2].command, "abstracts stats");
  EXPECT_EQ(examples[2].line, 15u);
}

TEST(DocsExamples, EveryConsoleExampleExitsAsDocumented) {
  std::vector<Example> examples;
  for (const auto& doc : documents()) {
    auto found = parse_examples(doc, read_file(doc));
    examples.insert(examples.end(), found.begin(), found.end());
  }
  if (examples.empty()) GTEST_SKIP() << "no examples in README.md or docs/*.md";

  TempDir sandbox;
  auto index = sandbox / "index";
  std::map<std::string, std::string> env = sandbox_env(sandbox.path());
  env["ABSTRACTS_INDEX"] = index.string();
  env["PATH"] = fs::path(ABSTRACTS_BIN).parent_path().string() + ":" +
                (std::getenv("PATH") != nullptr ? std::getenv("PATH") : "/usr/bin:/bin");
  auto setup = run_abstracts({"index", "--quiet", "corpus"}, env, kRoot);
  ASSERT_EQ(setup.status, 0) << "indexing the bundled corpus: " << setup.err;

  for (const auto& example : examples) {
    auto r = run("/bin/sh", {"-c", example.command}, env, kRoot);
    if (r.status != example.expected_status) {
      ADD_FAILURE() << fs::relative(example.file, kRoot).string() << ":" << example.line << ": $ "
                    << example.command << "\n  exit status " << r.status << ", documented "
                    << example.expected_status << "\n  stderr:\n"
                    << r.err << "  stdout (first 400 bytes):\n"
                    << r.out.substr(0, 400);
    }
  }
}

}  // namespace
}  // namespace abstracts::testing::docs_examples_test
