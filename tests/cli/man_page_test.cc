// Issue 21: the man page abstracts(1), made from docs/cli.md at build time, and
// `--help` list the same options: the global ones, and those of every command.
#include <gtest/gtest.h>

#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "tests/support/test_support.h"

namespace abstracts::testing::man_page_test {
namespace {

using Options = std::set<std::string>;

// The options a `--help` text lists ("  -n,--limit UINT ..." gives -n and
// --limit), and its subcommands (the words under "Subcommands:").
struct Help {
  Options options;
  std::vector<std::string> commands;
};

Help parse_help(const std::string& text) {
  Help help;
  bool in_commands = false;
  static const std::regex kOption(R"(^  (-[-\w,]+))"), kCommand(R"(^  (\w+) )");
  for (const auto& line : lines(text)) {
    if (line.ends_with(":") && !line.starts_with(" ")) in_commands = line == "Subcommands:";
    std::smatch m;
    if (std::regex_search(line, m, kOption)) {
      std::string names = m[1];
      for (std::size_t start = 0, comma; start < names.size(); start = comma + 1) {
        comma = names.find(',', start);
        if (comma == std::string::npos) comma = names.size();
        help.options.insert(names.substr(start, comma - start));
      }
    } else if (in_commands && std::regex_search(line, m, kCommand)) {
      help.commands.push_back(m[1]);
    }
  }
  return help;
}

// The options the man page documents in each part: "" for GLOBAL OPTIONS, and a
// command's name for its subsection of COMMANDS (with the subsections that follow
// it, such as "Query syntax", until the next command). An option is documented
// where a tagged paragraph (.TP) starts with it.
std::map<std::string, Options> parse_man_page(const std::string& roff,
                                              const std::vector<std::string>& commands) {
  std::map<std::string, Options> options;
  std::string part;
  bool in_part = false, tag_next = false;
  static const std::regex kName(R"((^|[\s,])(--?[a-z][a-z-]*))");
  for (std::string line : lines(roff)) {
    if (line.starts_with(".SH ")) {
      in_part = line == ".SH GLOBAL OPTIONS" || line == ".SH COMMANDS";
      part = "";
      continue;
    }
    if (line.starts_with(".SS ") && in_part) {
      const std::string name = line.substr(4);
      for (const auto& c : commands) {
        if (c == name) part = name;
      }
      continue;
    }
    if (line == ".TP") {
      tag_next = true;
      continue;
    }
    if (!tag_next || !in_part) continue;
    tag_next = false;
    // "\fB\-n N\fR, \fB\-\-limit N\fR" -> "-n N, --limit N"
    for (const std::string font : {"\\fB", "\\fR", "\\fI"}) {
      for (std::size_t at; (at = line.find(font)) != std::string::npos;)
        line.erase(at, font.size());
    }
    for (std::size_t at; (at = line.find("\\-")) != std::string::npos;) line.erase(at, 1);
    if (!line.starts_with("-")) continue;  // a table row or a query, not an option
    for (std::sregex_iterator it(line.begin(), line.end(), kName), end; it != end; ++it) {
      options[part].insert((*it)[2]);
    }
  }
  return options;
}

std::string join(const Options& options) {
  std::string out;
  for (const auto& o : options) out += (out.empty() ? "" : " ") + o;
  return out;
}

TEST(Issue21ManPage, ListsTheOptionsOfHelpForEveryCommand) {
  const std::string roff = read_file(ABSTRACTS_MAN_PAGE);
  ASSERT_TRUE(roff.starts_with(".\\\" Made from docs/cli.md")) << roff.substr(0, 200);
  auto r = run_abstracts({"--help"});
  ASSERT_EQ(r.status, 0) << r.err;
  const Help global = parse_help(r.out);
  ASSERT_GE(global.commands.size(), 6u) << r.out;
  auto man = parse_man_page(roff, global.commands);
  EXPECT_EQ(join(man[""]), join(global.options)) << "GLOBAL OPTIONS against `abstracts --help`";

  for (const auto& command : global.commands) {
    r = run_abstracts({command, "--help"});
    ASSERT_EQ(r.status, 0) << command << ": " << r.err;
    const Help of_command = parse_help(r.out);
    Options help = of_command.options;
    // A command of subcommands (`vectors build`): the man page lists theirs.
    for (const auto& sub : of_command.commands) {
      auto s = run_abstracts({command, sub, "--help"});
      ASSERT_EQ(s.status, 0) << command << " " << sub << ": " << s.err;
      for (const auto& o : parse_help(s.out).options) help.insert(o);
    }
    help.erase("-h");  // every command's help has -h,--help, documented once, globally
    help.erase("--help");
    // A global option may be documented with a command too (--color with search).
    Options documented;
    for (const auto& o : man[command]) {
      if (global.options.count(o) == 0 || help.count(o) != 0) documented.insert(o);
    }
    EXPECT_FALSE(help.empty()) << command;
    EXPECT_EQ(join(documented), join(help))
        << "the man page's " << command << " against `abstracts " << command << " --help`";
  }
}

TEST(Issue21ManPage, IsRoffThatManRendersWithoutWarnings) {
  // man is in install-deps' set; groff's warnings (an unknown request, a bad
  // escape) go to stderr.
  auto r =
      run("/bin/sh", {"-c", "MANWIDTH=80 man --warnings -l \"$0\" >/dev/null", ABSTRACTS_MAN_PAGE},
          {{"LANG", "C.UTF-8"}});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
}

}  // namespace
}  // namespace abstracts::testing::man_page_test
