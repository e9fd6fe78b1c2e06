// End-to-end tests of examples/reading-list: they run the real binary on a real
// index of the bundled corpus (built once, with the abstracts binary) and on
// list files in temporary directories, and check stdout, stderr, the exit
// status and the list file. Ids are found by searching, never hard-coded.
//
// No test touches the user's files: HOME and XDG_DATA_HOME point into a
// temporary directory and READING_LIST is unset unless a test sets it.

#include <fcntl.h>
#include <gtest/gtest.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "abstracts/abstracts.h"
#include "tests/support/test_support.h"

namespace abstracts::testing {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;
using Env = std::map<std::string, std::string>;

// The "id" of every JSON line of `out`.
std::vector<std::string> json_ids(const std::string& out) {
  std::vector<std::string> ids;
  for (const auto& line : lines(out)) ids.push_back(json::parse(line).at("id").get<std::string>());
  return ids;
}

// The index of the bundled corpus, and a small one of abstracts full of
// BibTeX specials, built once for all tests.
class ReadingListTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir();
    RunResult r = run_abstracts({"--index", index_dir().string(), "index", ABSTRACTS_CORPUS_DIR});
    ASSERT_EQ(r.status, 0) << r.err;
    Writer writer = Writer::open(special_index_dir());
    Abstract a;
    a.venue = "Workshop on {Odd} & #Special_Venues \\ Track";
    a.year = 2025;
    a.title = "Costs of 100% & more: {braces}, $5, #1, a_b, back\\slash, tilde~ and caret^";
    a.text =
        "We measure 100\\% of the R\\&D budget in \\$ for item \\#3 and snake\\_case. "
        "Braces \\{ and \\} and a \\textbackslash and ~ and ^ stay text.";
    special_id_ = new std::string(writer.add(a));
    Abstract b;
    b.text = "A plain abstract with no venue and no year, about agents.";
    plain_id_ = new std::string(writer.add(b));
    writer.commit();
  }

  static void TearDownTestSuite() {
    delete dir_;
    delete special_id_;
    delete plain_id_;
  }

  static fs::path index_dir() { return dir_->path() / "index"; }
  static fs::path special_index_dir() { return dir_->path() / "special-index"; }

  // Runs reading-list with the corpus index, in a temporary directory (so that
  // it prints paths in full).
  RunResult rl(std::vector<std::string> args, Env env = {}, const fs::path& cwd = {}) {
    Env full = {{"HOME", (tmp_ / "home").string()},
                {"XDG_DATA_HOME", kUnset},
                {"READING_LIST", kUnset},
                {"ABSTRACTS_INDEX", index_dir().string()}};
    for (const auto& [k, v] : env) full[k] = v;
    return run(READING_LIST_BIN, args, full, cwd.empty() ? tmp_.path() : cwd);
  }

  // The same, with --list pointing at list_.
  RunResult rl_list(std::vector<std::string> args, Env env = {}, const fs::path& cwd = {}) {
    args.insert(args.begin(), {"--list", list_.string()});
    return rl(std::move(args), std::move(env), cwd);
  }

  static Index index() { return Index::open(index_dir()); }

  // The ids of the hits of `query` in the whole index, best first.
  static std::vector<std::string> search_ids(const std::string& query, std::size_t limit = 1000) {
    SearchOptions options;
    options.limit = limit;
    options.snippets = false;
    options.correct_spelling = false;
    return hit_ids(index().search(query, options));
  }

  // The ids the list file holds, read as the format says.
  std::vector<std::string> file_ids() {
    std::vector<std::string> ids;
    for (const auto& line : lines(read_file(list_))) {
      if (line.empty() || line[0] == '#') continue;
      ids.push_back(line.substr(0, line.find(' ')));
    }
    return ids;
  }

  static ino_t inode(const fs::path& p) {
    struct stat st {};
    EXPECT_EQ(::stat(p.c_str(), &st), 0);
    return st.st_ino;
  }

  static inline TempDir* dir_ = nullptr;
  static inline std::string* special_id_ = nullptr;
  static inline std::string* plain_id_ = nullptr;
  TempDir tmp_;
  fs::path list_ = tmp_ / "lists" / "reading-list.txt";
};

// ---------------------------------------------------------------------------
// add, remove, list

TEST_F(ReadingListTest, AddCreatesADocumentedListFile) {
  auto ids = search_ids("agents", 2);
  ASSERT_EQ(ids.size(), 2u);
  auto r = rl_list({"add", ids[0], ids[1]});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("added 2 abstracts"), std::string::npos) << r.err;
  std::string text = read_file(list_);
  EXPECT_EQ(text.rfind("# ", 0), 0u) << "starts with a header comment:\n" << text;
  EXPECT_EQ(file_ids(), ids);
  // The title is the id's note, so the file reads well on its own.
  EXPECT_NE(text.find(ids[0] + "  # " + index().get(ids[0])->title + "\n"), std::string::npos)
      << text;
}

TEST_F(ReadingListTest, ListShowsIdTitleAndLocationInTheOrderAdded) {
  auto ids = search_ids("learning", 4);
  ASSERT_EQ(ids.size(), 4u);
  // Added out of rank order, in two calls.
  std::vector<std::string> order = {ids[2], ids[0], ids[3], ids[1]};
  ASSERT_EQ(rl_list({"add", order[0], order[1]}).status, 0);
  ASSERT_EQ(rl_list({"add", order[2], order[3]}).status, 0);

  auto r = rl_list({"list"});
  ASSERT_EQ(r.status, 0) << r.err;
  auto out = lines(r.out);
  ASSERT_EQ(out.size(), order.size()) << r.out;
  for (std::size_t i = 0; i < order.size(); ++i) {
    auto a = index().get(order[i]);
    ASSERT_TRUE(a);
    EXPECT_EQ(out[i],
              order[i] + "  " + a->title + "  " + a->source + ":" + std::to_string(a->line));
  }

  // Below the current directory, sources are shown relative to it.
  fs::path corpus = fs::canonical(ABSTRACTS_CORPUS_DIR);
  r = rl_list({"list"}, {}, corpus.parent_path());
  auto a0 = index().get(order[0]);
  EXPECT_EQ(lines(r.out).at(0),
            order[0] + "  " + a0->title + "  " +
                fs::path(a0->source).lexically_relative(corpus.parent_path()).string() + ":" +
                std::to_string(a0->line));

  r = rl_list({"list", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(json_ids(r.out), order);
  auto first = json::parse(lines(r.out)[0]);
  auto a = index().get(order[0]);
  EXPECT_EQ(first.at("title"), a->title);
  EXPECT_EQ(first.at("path"), a->source);
  EXPECT_EQ(first.at("line"), a->line);
  EXPECT_EQ(first.at("year"), a->year);
}

TEST_F(ReadingListTest, ListOfAnEmptyOrMissingListFindsNothing) {
  auto r = rl_list({"list"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("empty"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(list_)) << "reading does not create the list";
}

TEST_F(ReadingListTest, AddingAnIdAlreadyOnTheListIsANoOp) {
  auto id = search_ids("agents", 1).at(0);
  ASSERT_EQ(rl_list({"add", id}).status, 0);
  std::string before = read_file(list_);
  auto ino = inode(list_);
  auto r = rl_list({"add", id});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find(id + " is already on the list"), std::string::npos) << r.err;
  EXPECT_EQ(read_file(list_), before);
  EXPECT_EQ(inode(list_), ino) << "nothing to write, so not rewritten";
}

TEST_F(ReadingListTest, AnUnknownIdIsAnErrorAndNothingIsWritten) {
  auto ids = search_ids("agents", 2);
  ASSERT_EQ(rl_list({"add", ids[0]}).status, 0);
  std::string before = read_file(list_);
  // A good id with a bad one: neither is added.
  auto r = rl_list({"add", ids[1], "zzzzzzzzzzzz"});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("error: no abstract with id 'zzzzzzzzzzzz'"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("\nhint: "), std::string::npos) << r.err;
  EXPECT_EQ(read_file(list_), before) << "the list file is unchanged, byte for byte";
  EXPECT_EQ(std::distance(fs::directory_iterator(list_.parent_path()), fs::directory_iterator()),
            1);
}

TEST_F(ReadingListTest, AnUnknownIdDoesNotCreateTheList) {
  auto r = rl_list({"add", "zzzzzzzzzzzz"});
  EXPECT_EQ(r.status, 2);
  EXPECT_FALSE(fs::exists(list_));
}

TEST_F(ReadingListTest, SomethingThatCannotBeAnIdIsAnError) {
  // (Braces, parentheses and angle brackets are no reason: DOIs have them, issue 40.)
  for (std::string bad : {"two words", "#comment", " leading-space", ""}) {
    auto r = rl_list({"add", bad});
    EXPECT_EQ(r.status, 2) << bad;
    EXPECT_NE(r.err.find("error: '" + bad + "' is not an abstract id"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(list_));
  }
}

TEST_F(ReadingListTest, RemoveTakesAnIdOffTheList) {
  auto ids = search_ids("agents", 3);
  ASSERT_EQ(rl_list({"add", ids[0], ids[1], ids[2]}).status, 0);
  auto r = rl_list({"remove", ids[1]});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(file_ids(), (std::vector<std::string>{ids[0], ids[2]}));
  EXPECT_EQ(json_ids(rl_list({"list", "--json"}).out), (std::vector<std::string>{ids[0], ids[2]}));
}

TEST_F(ReadingListTest, RemovingAnIdNotOnTheListIsAnError) {
  auto ids = search_ids("agents", 2);
  ASSERT_EQ(rl_list({"add", ids[0]}).status, 0);
  std::string before = read_file(list_);
  auto r = rl_list({"remove", ids[1]});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("error: '" + ids[1] + "' is not on the reading list " + list_.string()),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("\nhint: "), std::string::npos) << r.err;
  EXPECT_EQ(read_file(list_), before);
}

TEST_F(ReadingListTest, EditsKeepTheUsersCommentsAndNotes) {
  auto ids = search_ids("agents", 3);
  write_file(list_, "# my list\n\n" + ids[0] + "   # read this first\n# later:\n" + ids[1] + "\n");
  ASSERT_EQ(rl_list({"add", ids[2]}).status, 0);
  ASSERT_EQ(rl_list({"remove", ids[1]}).status, 0);
  std::string text = read_file(list_);
  EXPECT_EQ(text.rfind(
                "# my list\n\n" + ids[0] + "   # read this first\n# later:\n" + ids[2] + "  # ", 0),
            0u)
      << text;
  EXPECT_EQ(file_ids(), (std::vector<std::string>{ids[0], ids[2]}));
}

// ---------------------------------------------------------------------------
// The list file: atomic writes, malformed lines

TEST_F(ReadingListTest, SavingReplacesTheFileByRenameAndLeavesNoTemporaryFile) {
  auto ids = search_ids("agents", 2);
  ASSERT_EQ(rl_list({"add", ids[0]}).status, 0);
  ::chmod(list_.c_str(), 0640);
  auto before = inode(list_);
  ASSERT_EQ(rl_list({"add", ids[1]}).status, 0);
  EXPECT_NE(inode(list_), before) << "a new file was renamed over the old one";
  EXPECT_EQ(fs::status(list_).permissions() & fs::perms::all,
            fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read)
      << "the old file's permissions are kept";
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(list_.parent_path()))
    names.push_back(e.path().filename());
  EXPECT_EQ(names, std::vector<std::string>{"reading-list.txt"});

  before = inode(list_);
  ASSERT_EQ(rl_list({"remove", ids[0]}).status, 0);
  EXPECT_NE(inode(list_), before);
  EXPECT_EQ(std::distance(fs::directory_iterator(list_.parent_path()), fs::directory_iterator()),
            1);
}

TEST_F(ReadingListTest, SavingThroughASymbolicLinkReplacesItsTarget) {
  auto id = search_ids("agents", 1).at(0);
  fs::path target = tmp_ / "real" / "list.txt";
  write_file(target, "");
  fs::create_directories(list_.parent_path());
  fs::create_symlink(target, list_);
  ASSERT_EQ(rl_list({"add", id}).status, 0);
  EXPECT_TRUE(fs::is_symlink(list_));
  EXPECT_NE(read_file(target).find(id), std::string::npos);
}

TEST_F(ReadingListTest, AMalformedLineIsAnErrorNamingFileAndLine) {
  auto id = search_ids("agents", 1).at(0);
  struct Case {
    std::string line;
    std::string says;
  };
  for (const auto& c : std::vector<Case>{{"two ids", "expected one id per line"},
                                         {std::string("ctrl\x01id"), "is not an abstract id"},
                                         {id, "on the list twice"}}) {
    std::string content = "# header\n" + id + "\n\n" + c.line + "\n";
    write_file(list_, content);
    for (std::vector<std::string> args : {std::vector<std::string>{"list"},
                                          {"add", id},
                                          {"remove", id},
                                          {"search", "agents"},
                                          {"suggest"},
                                          {"export", "--bibtex"}}) {
      auto r = rl_list(args);
      EXPECT_EQ(r.status, 2) << c.line << " / " << args[0];
      EXPECT_EQ(r.out, "");
      EXPECT_NE(r.err.find("error: " + list_.string() + ":4: "), std::string::npos) << r.err;
      EXPECT_NE(r.err.find(c.says), std::string::npos) << r.err;
      EXPECT_NE(r.err.find("\nhint: "), std::string::npos) << r.err;
      EXPECT_EQ(read_file(list_), content);
    }
  }
}

TEST_F(ReadingListTest, WindowsLineEndingsAndIndentedCommentsAreRead) {
  auto ids = search_ids("agents", 2);
  write_file(list_, "# list\r\n  " + ids[0] + "\r\n   # note\r\n" + ids[1] + "\t# note\r\n");
  auto r = rl_list({"list", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(json_ids(r.out), ids);
}

// ---------------------------------------------------------------------------
// Where the list and the index are

TEST_F(ReadingListTest, TheListFileIsFoundLikeTheIndex) {
  auto id = search_ids("agents", 1).at(0);
  fs::path home = tmp_ / "home";
  fs::path xdg = tmp_ / "xdg";
  fs::path env_list = tmp_ / "env" / "list.txt";
  // $HOME, then $XDG_DATA_HOME, then $READING_LIST, then --list.
  ASSERT_EQ(rl({"add", id}).status, 0);
  EXPECT_TRUE(fs::exists(home / ".local/share/abstracts/reading-list.txt"));
  ASSERT_EQ(rl({"add", id}, {{"XDG_DATA_HOME", xdg.string()}}).status, 0);
  EXPECT_TRUE(fs::exists(xdg / "abstracts/reading-list.txt"));
  ASSERT_EQ(rl({"add", id}, {{"XDG_DATA_HOME", xdg.string()}, {"READING_LIST", env_list.string()}})
                .status,
            0);
  EXPECT_TRUE(fs::exists(env_list));
  ASSERT_EQ(rl_list({"add", id}, {{"READING_LIST", env_list.string()}}).status, 0);
  EXPECT_TRUE(fs::exists(list_));
  // The option may also follow the command.
  auto r = rl({"list", "--list", list_.string(), "--json"});
  EXPECT_EQ(json_ids(r.out), std::vector<std::string>{id});
}

TEST_F(ReadingListTest, TheIndexIsFoundLikeTheAbstractsCommandFindsIt) {
  auto id = search_ids("agents", 1).at(0);
  ASSERT_EQ(rl_list({"add", id}).status, 0);
  // --index wins over $ABSTRACTS_INDEX.
  auto r = rl_list({"--index", index_dir().string(), "list"},
                   {{"ABSTRACTS_INDEX", (tmp_ / "none").string()}});
  EXPECT_EQ(r.status, 0) << r.err;
  // $XDG_DATA_HOME/abstracts/index when $ABSTRACTS_INDEX is unset.
  fs::path xdg = tmp_ / "xdg";
  fs::create_directories(xdg / "abstracts");
  fs::create_directory_symlink(index_dir(), xdg / "abstracts" / "index");
  r = rl_list({"list"}, {{"ABSTRACTS_INDEX", kUnset}, {"XDG_DATA_HOME", xdg.string()}});
  EXPECT_EQ(r.status, 0) << r.err;
  // No index: an error saying how to make one.
  r = rl_list({"list"}, {{"ABSTRACTS_INDEX", (tmp_ / "none").string()}});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("error: no index at " + (tmp_ / "none").string()), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("\nhint: "), std::string::npos) << r.err;
}

TEST_F(ReadingListTest, UsageErrorsExitWithTwo) {
  for (std::vector<std::string> args : {std::vector<std::string>{},
                                        {"frobnicate"},
                                        {"add"},
                                        {"search"},
                                        {"suggest", "--limit", "0"},
                                        {"list", "--bogus"}}) {
    auto r = rl_list(args);
    EXPECT_EQ(r.status, 2) << (args.empty() ? "" : args[0]);
    EXPECT_EQ(r.err.rfind("error: ", 0), 0u) << r.err;
    EXPECT_NE(r.err.find("\nhint: "), std::string::npos) << r.err;
  }
  auto r = rl_list({"--help"});
  EXPECT_EQ(r.status, 0);
  for (const char* cmd : {"add", "remove", "list", "search", "suggest", "export"}) {
    EXPECT_NE(r.out.find(cmd), std::string::npos) << r.out;
  }
}

// ---------------------------------------------------------------------------
// search

TEST_F(ReadingListTest, SearchReturnsOnlyListedAbstracts) {
  // A word in several abstracts: list two of its hits (not the best one) and one
  // abstract without it.
  auto with = search_ids("agents");
  ASSERT_GE(with.size(), 4u);
  std::string without;
  for (const auto& id : search_ids("learning")) {
    if (std::find(with.begin(), with.end(), id) == with.end()) without = id;
  }
  ASSERT_FALSE(without.empty());
  ASSERT_EQ(rl_list({"add", with[3], without, with[1]}).status, 0);

  auto r = rl_list({"search", "agents", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  // Both listed hits: the id: filters are ORed, and they restrict. Ranked as in
  // the whole index.
  EXPECT_EQ(json_ids(r.out), (std::vector<std::string>{with[1], with[3]}));
  auto first = json::parse(lines(r.out)[0]);
  EXPECT_EQ(first.at("rank"), 1);
  EXPECT_FALSE(first.at("snippet").get<std::string>().empty());

  // Text output, as `abstracts search` prints hits.
  r = rl_list({"search", "agents"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.rfind("1  ", 0), 0u) << r.out;
  EXPECT_NE(r.out.find("id " + with[1]), std::string::npos);
  EXPECT_EQ(r.out.find("id " + with[0]), std::string::npos) << "the best hit is not on the list";

  // --limit
  r = rl_list({"search", "agents", "--json", "--limit", "1"});
  EXPECT_EQ(json_ids(r.out), std::vector<std::string>{with[1]});
}

TEST_F(ReadingListTest, SearchUsesTheQueryLanguage) {
  auto with = search_ids("agents");
  auto em = search_ids("\"emergent misalignment\"");
  ASSERT_GE(with.size(), 2u);
  ASSERT_EQ(em.size(), 2u);
  ASSERT_EQ(rl_list({"add", with[0], with[1], em[0]}).status, 0);
  // Several words (arguments joined), operators, phrases, exclusions.
  auto r = rl_list({"search", "--json", "agents", "OR", "\"emergent misalignment\""});
  auto found = json_ids(r.out);
  EXPECT_EQ(std::set<std::string>(found.begin(), found.end()),
            (std::set<std::string>{with[0], with[1], em[0]}));
  r = rl_list({"search", "--json", "--", "-agents"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(json_ids(r.out), std::vector<std::string>{em[0]});
  // A query made only of filters restricts to the list too.
  auto year = std::to_string(index().get(em[0])->year);
  r = rl_list({"search", "--json", "year:" + year});
  EXPECT_EQ(json_ids(r.out).size(), 3u) << r.out;
}

TEST_F(ReadingListTest, AnIdFilterInTheQueryCannotReachBeyondTheList) {
  auto em = search_ids("\"emergent misalignment\"");
  ASSERT_EQ(em.size(), 2u);
  ASSERT_EQ(rl_list({"add", em[0]}).status, 0);
  for (std::string q : {"id:" + em[1], "misalignment OR id:" + em[1], "(id:" + em[1] + ")",
                        "id:" + em[1] + " id:" + em[0]}) {
    auto r = rl_list({"search", "--json", q});
    for (const auto& id : json_ids(r.out)) EXPECT_EQ(id, em[0]) << q;
  }
  EXPECT_EQ(rl_list({"search", "id:" + em[1]}).status, 1);
  EXPECT_EQ(json_ids(rl_list({"search", "--json", "id:" + em[0]}).out),
            std::vector<std::string>{em[0]});
  // Parentheses in the query have nothing around them to pair with (issue 17
  // reads an unbalanced one as prose: the list is a library filter, not text).
  auto r = rl_list({"search", "--json", "misalignment) OR (id:" + em[1]});
  for (const auto& id : json_ids(r.out)) EXPECT_EQ(id, em[0]);
  r = rl_list({"search", "--json", "misalignment\\"});
  for (const auto& id : json_ids(r.out)) EXPECT_EQ(id, em[0]);
}

TEST_F(ReadingListTest, SearchFindingNothingExitsWithOne) {
  auto em = search_ids("\"emergent misalignment\"");
  auto agents = search_ids("agents");
  ASSERT_EQ(rl_list({"add", em[0]}).status, 0);
  ASSERT_EQ(std::count(agents.begin(), agents.end(), em[0]), 0);
  auto r = rl_list({"search", "agents"});
  EXPECT_EQ(r.status, 1) << "in the index, but not on the list";
  EXPECT_EQ(r.out, "");
}

TEST_F(ReadingListTest, SearchCorrectsSpellingWithinTheList) {
  auto em = search_ids("\"emergent misalignment\"");
  ASSERT_EQ(rl_list({"add", em[0]}).status, 0);
  auto r = rl_list({"search", "--json", "misaligment"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(json_ids(r.out), std::vector<std::string>{em[0]});
  EXPECT_NE(r.err.find("showing results for \"misalignment\""), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("id:"), std::string::npos) << "the correction is of the user's words only";
  r = rl_list({"search", "--no-correct", "misaligment"});
  EXPECT_EQ(r.status, 1);
}

TEST_F(ReadingListTest, ABadQueryIsAnErrorWithItsOwnColumn) {
  auto id = search_ids("agents", 1).at(0);
  ASSERT_EQ(rl_list({"add", id}).status, 0);
  auto r = rl_list({"search", "agents year:20x6"});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("error: year:20x6 at column 8"), std::string::npos) << r.err;
  r = rl_list({"search", "title:"});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("column 1 "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("\nhint: "), std::string::npos) << r.err;
}

TEST_F(ReadingListTest, SearchAndSuggestOnAnEmptyListFindNothing) {
  for (std::vector<std::string> args :
       {std::vector<std::string>{"search", "agents"}, {"suggest"}, {"export", "--bibtex"}}) {
    auto r = rl_list(args);
    EXPECT_EQ(r.status, 1) << args[0];
    EXPECT_EQ(r.out, "");
    EXPECT_NE(r.err.find("empty"), std::string::npos) << r.err;
  }
}

// ---------------------------------------------------------------------------
// suggest

TEST_F(ReadingListTest, SuggestStartsWithTheOtherEmergentMisalignmentAbstract) {
  auto em = search_ids("\"emergent misalignment\"");
  ASSERT_EQ(em.size(), 2u);
  for (int i = 0; i < 2; ++i) {
    TempDir dir;
    auto r = rl({"--list", (dir / "list.txt").string(), "add", em[i]});
    ASSERT_EQ(r.status, 0) << r.err;
    r = rl({"--list", (dir / "list.txt").string(), "suggest", "--json"});
    ASSERT_EQ(r.status, 0) << r.err;
    auto ids = json_ids(r.out);
    ASSERT_FALSE(ids.empty());
    EXPECT_EQ(ids[0], em[1 - i]);
    EXPECT_LE(ids.size(), 10u) << "the default limit";
  }
}

TEST_F(ReadingListTest, SuggestNeverReturnsListedAbstracts) {
  auto listed = search_ids("agents", 4);
  auto em = search_ids("\"emergent misalignment\"");
  listed.push_back(em[0]);
  std::vector<std::string> args = {"add"};
  args.insert(args.end(), listed.begin(), listed.end());
  ASSERT_EQ(rl_list(args).status, 0);
  auto r = rl_list({"suggest", "--json", "--limit", "100"});
  ASSERT_EQ(r.status, 0) << r.err;
  auto ids = json_ids(r.out);
  EXPECT_GT(ids.size(), 5u);
  for (const auto& id : ids) {
    EXPECT_EQ(std::count(listed.begin(), listed.end(), id), 0) << id << " is on the list";
  }
  // Best first.
  double last = 1e300;
  for (const auto& line : lines(r.out)) {
    double score = json::parse(line).at("score");
    EXPECT_LE(score, last);
    last = score;
  }
  r = rl_list({"suggest", "--limit", "2"});
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out.rfind("1  ", 0), 0u) << r.out;
  EXPECT_NE(r.out.find("\n2  "), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("\n3  "), std::string::npos) << r.out;
}

TEST_F(ReadingListTest, IdsNoLongerInTheIndexAreReportedNotFatal) {
  auto id = search_ids("agents", 1).at(0);
  write_file(list_, id + "\ngone00000000\n");
  auto r = rl_list({"list"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("gone00000000  (not in the index)"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("gone00000000 is on the list but not in the index"), std::string::npos)
      << r.err;
  r = rl_list({"export", "--bibtex"});
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out.find("gone00000000"), std::string::npos);
  EXPECT_EQ(rl_list({"suggest"}).status, 0);
  EXPECT_EQ(rl_list({"remove", "gone00000000"}).status, 0);
}

// ---------------------------------------------------------------------------
// export --bibtex

struct BibEntry {
  std::string type;
  std::string key;
  std::map<std::string, std::string> fields;  // values without their outer braces
};

// A strict reader of what export writes: @type{key, name = {value}, ...}. Fails
// the test on unbalanced braces.
std::vector<BibEntry> parse_bibtex(const std::string& text) {
  std::vector<BibEntry> entries;
  std::size_t i = 0;
  auto skip_space = [&] {
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
  };
  while (true) {
    skip_space();
    if (i >= text.size()) break;
    if (text[i] != '@') {
      ADD_FAILURE() << "expected '@' at " << i;
      break;
    }
    BibEntry e;
    std::size_t open = text.find('{', i);
    e.type = text.substr(i + 1, open - i - 1);
    std::size_t comma = text.find(',', open);
    e.key = text.substr(open + 1, comma - open - 1);
    i = comma + 1;
    while (true) {
      skip_space();
      if (text[i] == '}') {
        ++i;
        break;
      }
      std::size_t eq = text.find('=', i);
      std::string name = text.substr(i, eq - i);
      name.erase(name.find_last_not_of(' ') + 1);
      i = eq + 1;
      skip_space();
      if (text[i] != '{') {  // a macro, unbraced: month = apr
        const std::size_t end = text.find_first_of(",}\n", i);
        e.fields[name] = text.substr(i, end - i);
        i = end;
        skip_space();
        if (text[i] == ',') ++i;
        continue;
      }
      int depth = 0;
      std::size_t start = i + 1;
      for (; i < text.size(); ++i) {
        if (text[i] == '{') ++depth;
        if (text[i] == '}' && --depth == 0) break;
      }
      if (i >= text.size()) {
        ADD_FAILURE() << "unbalanced braces in " << e.key << "." << name;
        return entries;
      }
      e.fields[name] = text.substr(start, i - start);
      ++i;
      skip_space();
      if (text[i] == ',') ++i;
    }
    entries.push_back(std::move(e));
  }
  return entries;
}

// The text a LaTeX reader gets back from an escaped field.
std::string unescape(std::string s) {
  for (auto [from, to] :
       std::vector<std::pair<std::string, std::string>>{{"\\{\\hspace{0pt\\iffalse\\}\\fi}", "{"},
                                                        {"\\hspace{0pt\\iffalse\\{\\fi}\\}", "}"},
                                                        {"\\textbackslash{}", "\\"},
                                                        {"\\textasciitilde{}", "~"},
                                                        {"\\textasciicircum{}", "^"},
                                                        {"-{}", "-"},
                                                        {"\\{", "{"},
                                                        {"\\}", "}"},
                                                        {"\\%", "%"},
                                                        {"\\&", "&"},
                                                        {"\\$", "$"},
                                                        {"\\#", "#"},
                                                        {"\\_", "_"}}) {
    for (auto at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size())) {
      s.replace(at, from.size(), to);
    }
  }
  return s;
}

// No special left bare: each of % & $ # _ { } after a backslash, and no other
// backslash than those and the escapes' own; ~ and ^ (LaTeX's tie and
// superscript) as \textasciitilde{} and \textasciicircum{} (issue 43).
void expect_escaped(const std::string& value) {
  std::string rest = value;
  for (const char* macro : {"\\{\\hspace{0pt\\iffalse\\}\\fi}", "\\hspace{0pt\\iffalse\\{\\fi}\\}",
                            "\\textbackslash{}", "\\textasciitilde{}", "\\textasciicircum{}", "-{}"}) {
    for (auto at = rest.find(macro); at != std::string::npos; at = rest.find(macro)) {
      rest.replace(at, std::string(macro).size(), " ");
    }
  }
  for (std::size_t i = 0; i < rest.size(); ++i) {
    char c = rest[i];
    if (std::string("%&$#_{}").find(c) != std::string::npos) {
      EXPECT_TRUE(i > 0 && rest[i - 1] == '\\') << "bare '" << c << "' in: " << value;
    }
    EXPECT_TRUE(c != '~' && c != '^') << "bare '" << c << "' in: " << value;
    if (c == '\\') {
      EXPECT_TRUE(i + 1 < rest.size() &&
                  std::string("%&$#_{}").find(rest[i + 1]) != std::string::npos)
          << "stray backslash in: " << value;
      ++i;
    }
  }
}

TEST_F(ReadingListTest, ExportGivesOneBibtexEntryPerListedId) {
  auto ids = search_ids("agents", 3);
  ids.push_back(search_ids("\"emergent misalignment\"").at(0));
  std::vector<std::string> args = {"add"};
  args.insert(args.end(), ids.begin(), ids.end());
  ASSERT_EQ(rl_list(args).status, 0);
  auto r = rl_list({"export", "--bibtex"});
  ASSERT_EQ(r.status, 0) << r.err;
  auto entries = parse_bibtex(r.out);
  ASSERT_EQ(entries.size(), ids.size()) << r.out;
  for (std::size_t i = 0; i < ids.size(); ++i) {
    const auto& e = entries[i];
    auto a = index().get(ids[i]);
    EXPECT_EQ(e.key, ids[i]) << "in list order, keyed by id";
    EXPECT_EQ(e.type, "inproceedings");
    EXPECT_EQ(e.fields.at("title"),
              "{" + e.fields.at("title").substr(1, e.fields.at("title").size() - 2) + "}");
    EXPECT_EQ(unescape(e.fields.at("title").substr(1, e.fields.at("title").size() - 2)), a->title);
    EXPECT_EQ(e.fields.at("booktitle"), "{" + a->venue + "}");
    EXPECT_EQ(e.fields.at("year"), std::to_string(a->year));
    EXPECT_EQ(e.fields.count("note"), 0u) << "the source is not below the current directory";
    EXPECT_EQ(unescape(e.fields.at("abstract")), a->text);
    for (const auto& [name, value] : e.fields) {
      // The title and venue are in a pair of braces more (styles keep their case).
      expect_escaped(name == "title" || name == "booktitle" ? value.substr(1, value.size() - 2) : value);
    }
  }
}

// Issue 43: the note names the source relative to the current directory, and
// no source at all from elsewhere: an export never holds an absolute path.
TEST_F(ReadingListTest, Issue43ExportNoteIsRelativeNeverAbsolute) {
  const std::string id = search_ids("agents", 1).at(0);
  ASSERT_EQ(rl_list({"add", id}).status, 0);
  const auto a = index().get(id);
  ASSERT_TRUE(a && !a->source.empty());
  const fs::path source(a->source);
  auto r = rl_list({"export", "--bibtex"}, {}, source.parent_path().parent_path());
  ASSERT_EQ(r.status, 0) << r.err;
  auto entries = parse_bibtex(r.out);
  ASSERT_EQ(entries.size(), 1u) << r.out;
  EXPECT_EQ(unescape(entries[0].fields.at("note")),
            (source.parent_path().filename() / source.filename()).generic_string() + ":" +
                std::to_string(a->line));
  for (const char* format : {"bibtex", "biblatex", "ris", "csl-json"}) {
    r = rl_list({"export", "--format", format});  // from a directory the source is not below
    ASSERT_EQ(r.status, 0) << format << ": " << r.err;
    EXPECT_FALSE(contains(r.out, source.parent_path().string())) << format << ":\n" << r.out;
  }
}

TEST_F(ReadingListTest, ExportEscapesBibtexSpecials) {
  Index special = Index::open(special_index_dir());
  auto a = special.get(*special_id_);
  ASSERT_TRUE(a);
  // What the library kept of the specials is what must be escaped. (No
  // backslash survives display_text(), which cleans venues too since issue 18.)
  for (char c : std::string("{}%&$#_~^")) {
    EXPECT_TRUE(a->title.find(c) != std::string::npos || a->text.find(c) != std::string::npos ||
                a->venue.find(c) != std::string::npos)
        << "the test data lost '" << c << "': " << a->title << " / " << a->text << " / "
        << a->venue;
  }
  Env env = {{"ABSTRACTS_INDEX", special_index_dir().string()}};
  ASSERT_EQ(rl_list({"add", *special_id_, *plain_id_}, env).status, 0);
  auto r = rl_list({"export", "--bibtex"}, env);
  ASSERT_EQ(r.status, 0) << r.err;
  auto entries = parse_bibtex(r.out);
  ASSERT_EQ(entries.size(), 2u) << r.out;

  const auto& e = entries[0];
  EXPECT_EQ(e.type, "inproceedings");
  std::string title = e.fields.at("title");
  ASSERT_GE(title.size(), 2u);
  title = title.substr(1, title.size() - 2);
  expect_escaped(title);
  EXPECT_EQ(unescape(title), a->title);
  std::string booktitle = e.fields.at("booktitle");
  ASSERT_GE(booktitle.size(), 2u);
  booktitle = booktitle.substr(1, booktitle.size() - 2);  // in braces, as the title
  expect_escaped(booktitle);
  EXPECT_EQ(unescape(booktitle), a->venue);
  expect_escaped(e.fields.at("abstract"));
  EXPECT_EQ(unescape(e.fields.at("abstract")), a->text);
  EXPECT_EQ(e.fields.count("note"), 0u) << "added without a file";

  // No venue: @misc, with the year alone.
  const auto& plain = entries[1];
  EXPECT_EQ(plain.type, "misc");
  EXPECT_EQ(plain.key, *plain_id_);
  EXPECT_EQ(plain.fields.count("booktitle"), 0u);
  EXPECT_EQ(plain.fields.count("year"), 0u);
}

// ---------------------------------------------------------------------------
// Issue 18: export --format bibtex|ris|csl-json with real authors, title, year,
// DOI and journal, checked by reading each export back with `abstracts index`
// (the readers a reference manager's files go through) and comparing.

class Issue18Export : public ::testing::Test {
 protected:
  void SetUp() override {
    write_file(dir_ / "arxiv.json",
               R"({"id":"0704.0001","title":"Calculation of prompt diphoton production","doi":"10.1103/PhysRevD.76.013009",)"
               R"("categories":"hep-ph","abstract":"Diphoton pairs at hadron colliders: 100% of them.",)"
               R"("versions":[{"version":"v1","created":"Mon, 2 Apr 2007 19:18:42 GMT"}],)"
               R"("authors_parsed":[["Bal\u00e1zs","C.",""],["van der Berg","Jan",""],["The ATLAS Collaboration","",""]]})"
               "\n");
    write_file(dir_ / "wos.ris",
               "TY  - JOUR\nAU  - Wells, L\nTI  - Explainable AI and {Reinforcement} Learning\n"
               "T2  - Frontiers in Artificial Intelligence\nAB  - Research into explainable AI & RL.\n"
               "KW  - explainable AI\nPY  - 2021\nDA  - 2021/03//\nDO  - 10.3389/FRAI.2021.550030\nER  - \n");
    write_file(dir_ / "neurips.txt", "NeurIPS 2026 Papers\nSparse attention for long contexts, $O(n)$ at last.\n");
    auto r = abstracts(index_, {"index", "arxiv.json", "wos.ris", "neurips.txt"});
    ASSERT_EQ(r.status, 0) << r.err;
    r = abstracts(index_, {"search", "--json", "--limit", "10", "--", "diphoton OR explainable OR sparse"});
    ASSERT_EQ(r.status, 0) << r.err;
    ids_ = json_ids(r.out);
    ASSERT_EQ(ids_.size(), 3u);
    std::vector<std::string> args{"--index", index_.string(), "--list", (dir_ / "list.txt").string(), "add"};
    args.insert(args.end(), ids_.begin(), ids_.end());
    ASSERT_EQ(run(READING_LIST_BIN, args, sandbox_env(dir_.path()), dir_.path()).status, 0);
  }

  RunResult abstracts(const fs::path& index, std::vector<std::string> args) const {
    args.insert(args.begin(), {"--index", index.string()});
    return run(ABSTRACTS_BIN, args, sandbox_env(dir_.path()), dir_.path());
  }

  RunResult export_as(const std::string& format) const {
    return run(READING_LIST_BIN,
               {"--index", index_.string(), "--list", (dir_ / "list.txt").string(), "export", "--format", format},
               sandbox_env(dir_.path()), dir_.path());
  }

  // Writes the export to a file, indexes it alone, and checks that each listed
  // abstract comes back with its title, authors, year, DOI and venue.
  void expect_read_back(const std::string& format, const std::string& file_name) {
    SCOPED_TRACE(format);
    auto r = export_as(format);
    ASSERT_EQ(r.status, 0) << r.err;
    write_file(dir_ / file_name, r.out);
    const fs::path back = dir_ / ("back-" + format);
    r = abstracts(back, {"index", file_name});
    ASSERT_EQ(r.status, 0) << r.err << "\n" << r.out;
    Index original = Index::open(index_), again = Index::open(back);
    EXPECT_EQ(again.stats().abstracts, ids_.size());
    for (const auto& id : ids_) {
      const auto a = original.get(id);
      ASSERT_TRUE(a) << id;
      // The text format's abstract has no identifier: its id, the export's key
      // (RIS ID, CSL-JSON id), comes back as the citation key and so as the id.
      auto b = again.get(id);
      ASSERT_TRUE(b) << id << " read back from\n" << read_file(dir_ / file_name);
      EXPECT_EQ(b->title, a->title);
      EXPECT_EQ(b->text, a->text);
      EXPECT_EQ(b->year, a->year);
      EXPECT_EQ(b->month, a->month);
      EXPECT_EQ(b->doi, a->doi);
      EXPECT_EQ(b->arxiv_id, a->arxiv_id);
      EXPECT_EQ(b->categories, a->categories);
      ASSERT_EQ(b->authors.size(), a->authors.size());
      for (std::size_t i = 0; i < a->authors.size(); ++i) {
        EXPECT_EQ(display_name(b->authors[i]), display_name(a->authors[i]));
      }
      EXPECT_EQ(b->venue, a->venue);
    }
  }

  TempDir dir_;
  fs::path index_ = dir_ / "index";
  std::vector<std::string> ids_;
};

TEST_F(Issue18Export, RisReadsBackWithAuthorsTitleDateDoiAndJournal) {
  expect_read_back("ris", "list.ris");
  const auto out = export_as("ris").out;
  EXPECT_TRUE(out.find("TY  - JOUR\r\nAU  - Wells, L\r\nTI  - ") != std::string::npos) << out;
  EXPECT_TRUE(out.find("AU  - The ATLAS Collaboration,\r\n") != std::string::npos)
      << "an organisation: a family name alone, its comma saying so";
  EXPECT_TRUE(out.find("TY  - UNPB\r\n") != std::string::npos) << "an arXiv preprint";
  EXPECT_TRUE(out.find("TY  - CONF\r\n") != std::string::npos) << "a NeurIPS abstract";
  EXPECT_TRUE(out.find("DA  - 2021/03//\r\n") != std::string::npos) << "no day: left empty";
}

TEST_F(Issue18Export, CslJsonReadsBackWithAuthorsTitleDateDoiAndJournal) {
  expect_read_back("csl-json", "list.json");
  const json items = json::parse(export_as("csl-json").out);
  ASSERT_EQ(items.size(), 3u);
  std::map<std::string, json> by_type;
  for (const auto& item : items) by_type[item.at("type")] = item;
  ASSERT_EQ(by_type.size(), 3u) << items.dump();
  const auto& article = by_type.at("article-journal");
  EXPECT_EQ(article.at("container-title"), "Frontiers in Artificial Intelligence");
  EXPECT_EQ(article.at("DOI"), "10.3389/frai.2021.550030");
  EXPECT_EQ(article.at("author"), (json{{{"family", "Wells"}, {"given", "L"}}}));
  EXPECT_EQ(article.at("issued"), (json{{"date-parts", {{2021, 3}}}}));
  const auto& preprint = by_type.at("article");
  EXPECT_EQ(preprint.at("number"), "arXiv:0704.0001");
  EXPECT_EQ(preprint.at("author")[0], (json{{"family", "Balázs"}, {"given", "C."}}));
  EXPECT_EQ(preprint.at("author")[2], (json{{"literal", "The ATLAS Collaboration"}}));
  EXPECT_EQ(by_type.at("paper-conference").at("container-title"), "NeurIPS");
}

TEST_F(Issue18Export, BibtexHasAuthorsJournalDoiAndTheRightEntryTypes) {
  auto r = export_as("bibtex");
  ASSERT_EQ(r.status, 0) << r.err;
  std::map<std::string, BibEntry> by_type;
  for (auto& e : parse_bibtex(r.out)) by_type[e.type] = e;
  ASSERT_EQ(by_type.size(), 3u) << r.out;
  const auto& article = by_type.at("article");
  EXPECT_EQ(article.fields.at("author"), "Wells, L");
  EXPECT_EQ(article.fields.at("journal"), "{Frontiers in Artificial Intelligence}");
  EXPECT_EQ(article.fields.at("doi"), "10.3389/frai.2021.550030");
  EXPECT_EQ(article.fields.at("year"), "2021");
  EXPECT_EQ(unescape(article.fields.at("abstract")), "Research into explainable AI & RL.");
  const auto& preprint = by_type.at("misc");
  EXPECT_EQ(preprint.fields.at("author"), "Balázs, C. and van der Berg, Jan and {The ATLAS Collaboration}")
      << "an organisation in braces, so no style splits it";
  EXPECT_EQ(preprint.fields.at("eprint"), "0704.0001");
  EXPECT_EQ(preprint.fields.at("archiveprefix"), "arXiv");
  EXPECT_EQ(preprint.fields.at("primaryclass"), "hep-ph");
  EXPECT_EQ(by_type.at("inproceedings").fields.at("booktitle"), "{NeurIPS}");
  EXPECT_EQ(export_as("endnote").status, 2);
}

// ---------------------------------------------------------------------------
// Issue 40: the reading-list tool hardened. Each test runs the real binaries on
// indexes and lists of its own.

// What `abstracts show --json ID` says of an abstract in `index`.
json show_json(const fs::path& index, const std::string& id, const fs::path& dir) {
  auto r = run(ABSTRACTS_BIN, {"--index", index.string(), "show", "--json", "--", id},
               sandbox_env(dir), dir);
  EXPECT_EQ(r.status, 0) << id << ": " << r.err;
  return r.status == 0 ? json::parse(r.out) : json();
}

// The peak resident memory, in KiB, of `program` run with `args` (its output
// dropped): wait4 reports the child's own, not the test's.
long peak_kib(const std::string& program, const std::vector<std::string>& args, const Env& env) {
  SpawnArgs spawn(program, args, env);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, program.c_str(), &actions, nullptr, spawn.argv(), spawn.envp());
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) {
    ADD_FAILURE() << "cannot run " << program << ": " << std::strerror(rc);
    return -1;
  }
  int status = 0;
  struct rusage usage {};
  while (::wait4(pid, &status, 0, &usage) < 0 && errno == EINTR) {
  }
  return usage.ru_maxrss;
}

class Issue40 : public ::testing::Test {
 protected:
  RunResult abstracts(const fs::path& index, std::vector<std::string> args) const {
    args.insert(args.begin(), {"--index", index.string()});
    return run(ABSTRACTS_BIN, args, sandbox_env(dir_.path()), dir_.path());
  }

  std::vector<std::string> rl_args(std::vector<std::string> args) const {
    args.insert(args.begin(), {"--index", index_.string(), "--list", list_.string()});
    return args;
  }
  RunResult rl(std::vector<std::string> args) const {
    return run(READING_LIST_BIN, rl_args(std::move(args)), sandbox_env(dir_.path()), dir_.path());
  }
  // For a list that could hang or grow without bound: killed after 5 s.
  RunResult rl_limited(std::vector<std::string> args) const {
    return run_with_limit(std::chrono::seconds(5), READING_LIST_BIN, rl_args(std::move(args)),
                          sandbox_env(dir_.path()), dir_.path());
  }

  // Indexes `content` as the file `name` into index_; returns the ids of the
  // abstracts that match `query`.
  std::vector<std::string> index_file(const std::string& name, const std::string& content,
                                      const std::string& query) {
    write_file(dir_ / name, content);
    auto r = abstracts(index_, {"index", name});
    EXPECT_EQ(r.status, 0) << r.err;
    std::vector<std::string> ids;
    Index index = Index::open(index_);
    SearchOptions all;
    all.limit = 100;
    all.snippets = false;
    all.correct_spelling = false;
    for (const auto& h : index.search(query, all).hits) ids.push_back(h.abstract.id);
    return ids;
  }

  // The export of the list in `format` indexed alone with `abstracts index`:
  // the index it makes.
  fs::path index_export(const std::string& format, const std::string& text) {
    const std::string name = "export." + std::string(format == "bibtex" ? "bib"
                                                     : format == "ris"  ? "ris"
                                                                        : "json");
    write_file(dir_ / name, text);
    const fs::path back = dir_ / ("back-" + format);
    auto r = abstracts(back, {"index", name});
    EXPECT_EQ(r.status, 0) << r.err << "\n" << text;
    return back;
  }

  TempDir dir_;
  fs::path index_ = dir_ / "index";
  fs::path list_ = dir_ / "list.txt";
};

// The export of an abstract that came with a hostile citation key carries the
// abstract and nothing else, in every format.
void expect_only_the_real_abstract(const std::string& format, const fs::path& back,
                                   const std::string& out) {
  SCOPED_TRACE(format);
  EXPECT_EQ(out.find("INJECTED"), std::string::npos) << "the key is replaced:\n" << out;
  EXPECT_EQ(out.find("write18"), std::string::npos) << out;
  if (format == "bibtex") {
    std::size_t entries = 0;
    for (const auto& line : lines(out)) entries += !line.empty() && line[0] == '@';
    EXPECT_EQ(entries, 1u) << "one entry, no @preamble or @comment:\n" << out;
  }
  EXPECT_EQ(Index::open(back).stats().abstracts, 1u);
  EXPECT_FALSE(Index::open(back).get("10.9/evil"));
}

TEST_F(Issue40, BibtexExportOfAnRisCitationKeyInjectsNothing) {
  // The issue's reproducer, byte for byte.
  auto ids = index_file(
      "h.ris",
      "TY  - JOUR\nTI  - Real title\nDO  - 10.9/real\nID  - k1, abstract = {INJECTED "
      "abstract about zebras}, doi = {10.9/evil}}@preamble{\"\\\\immediate\\\\write18{touch "
      "/tmp/pwned}\"}@comment{\nAB  - The real abstract about numbats.\nER  - \n",
      "numbats");
  ASSERT_EQ(ids, std::vector<std::string>{"10.9/real"});
  ASSERT_EQ(rl({"add", "10.9/real"}).status, 0);
  for (std::string format : {"bibtex", "ris", "csl-json"}) {
    auto r = rl({"export", "--format", format});
    ASSERT_EQ(r.status, 0) << r.err;
    const fs::path back = index_export(format, r.out);
    expect_only_the_real_abstract(format, back, r.out);
    const json a = show_json(back, "10.9/real", dir_.path());
    EXPECT_EQ(a.value("title", ""), "Real title") << format;
    EXPECT_EQ(a.value("text", ""), "The real abstract about numbats.") << format;
    EXPECT_EQ(a.value("citation_key", ""), "10.9_real") << format;
  }
}

TEST_F(Issue40, ExportsOfACslJsonCitationKeyWithNewlinesInjectNothing) {
  // CSL-JSON keeps a key's line breaks, so the key can open a line of its own.
  auto ids = index_file(
      "h.json",
      R"([{"type":"article-journal","title":"Real title","DOI":"10.9/real","container-title":"J",)"
      R"("citation-key":"k1,\n  abstract = {INJECTED abstract about zebras},\n  doi = {10.9/evil}\n}\n)"
      R"(@preamble{\"\\immediate\\write18{touch /tmp/pwned}\"}\n@comment{\nER  - \r\nTY  - JOUR\nAB  - INJECTED\n",)"
      R"("abstract":"The real abstract about numbats."}])"
      "\n",
      "numbats");
  ASSERT_EQ(ids, std::vector<std::string>{"10.9/real"});
  ASSERT_EQ(rl({"add", "10.9/real"}).status, 0);
  for (std::string format : {"bibtex", "ris", "csl-json"}) {
    auto r = rl({"export", "--format", format});
    ASSERT_EQ(r.status, 0) << r.err;
    const fs::path back = index_export(format, r.out);
    expect_only_the_real_abstract(format, back, r.out);
    EXPECT_EQ(show_json(back, "10.9/real", dir_.path()).value("text", ""),
              "The real abstract about numbats.");
  }
}

// Everything that has broken an export or its reader: braces unbalanced and a
// '}' early (raw braces are LaTeX grouping, which the reader drops; \{ and \}
// are braces that stay), BibTeX's '@', '#' and commas, LaTeX's specials,
// quotes, each line separator, HTML and entities, and an injection of each format.
const std::string kHostile = std::string(
    "\\} early \\{unbalanced @preamble{\"\\immediate\\write18{touch /tmp/pwned}\"}@comment{ "
    "100% #1 \"quoted\" 'single' a,b; x=y back\\slash new\nline CR\rhere NEL\u0085here "
    "LS\u2028here "
    "PS\u2029here VT\x0b"
    "here FF\x0c"
    "here ~tilde ^caret \\$5 and \\$6 a_b R&D; x--y <b>bold</b> "
    "&amp; &lt;i> \nER  - \r\nTY  - JOUR\n\"},{\"id\":\"evil\"} \\{balanced \\{nested\\}\\} "
    "end\\}");

// An index of abstracts with hostile values in every field, made by the
// library's Writer (which cleans them as `abstracts index` does), and a list of them.
class Issue40RoundTrip : public ::testing::TestWithParam<std::string> {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir();
    ids_ = new std::vector<std::string>();
    Writer writer = Writer::open(original());
    auto add = [&](Abstract a) { ids_->push_back(writer.add(std::move(a))); };
    Abstract a;
    a.doi = "10.1002/(SICI)1097-4636(199709)36:3<398::AID-JBM15>3.0.CO;2-F";
    a.title = "Title one " + kHostile;
    a.text = "Abstract one " + kHostile;
    a.venue = "Journal " + kHostile;
    a.year = 2020;
    a.authors = {{"Fam\\}ily, and Co", "Gi\\{ven"}, {"The \\{Org and Others", ""}};
    a.categories = {"cat, " + kHostile, "plain"};
    a.citation_key =
        "k1, abstract = {INJECTED}, doi = {10.9/evil}}\n@preamble{\"\\write18{x}\"}\n@comment{";
    a.source = "/tmp/source " + kHostile + ".ris";
    a.line = 3;
    add(a);
    a = Abstract();
    a.doi = "10.9/a%b#c_d&e$f~g^h\"i@j,k;l'm";
    a.title = "Title two \\{";
    a.text = "Abstract two \\}" + kHostile;
    a.citation_key = "dup";
    add(a);
    a = Abstract();
    a.doi = "10.9/arxiv.org/abs/0704.0001";  // no arXiv id, whatever a link to it looks like
    a.venue = "Venue \\{three";
    a.title = "Title three \\$x\\$ " + kHostile;
    a.text = "Abstract three " + kHostile;
    a.citation_key = "dup";
    add(a);
    a = Abstract();
    a.venue = "arXiv";
    a.arxiv_id = "0704.0001";
    a.categories = {"hep-ph", "x\\}y\\{z"};
    a.title = "Title four " + kHostile;
    a.text = "Abstract four " + kHostile;
    a.citation_key = std::string("key\u0085\u2028\x0b\x0c") + "end";
    add(a);
    a = Abstract();
    a.doi = "10.9/five";
    a.pmid = "12345678";
    a.arxiv_id = "0801.0002";  // a journal article's preprint
    a.venue = "Med \\{J";
    a.title = "Title five " + kHostile;
    a.text = "Abstract five " + kHostile;
    a.citation_key = "dup";
    add(a);
    a = Abstract();  // no identifier: its id is its key
    a.title = "Title six " + kHostile;
    a.text = "Abstract six " + kHostile;
    a.citation_key = "Smith:2020-x.y_z";
    add(a);
    a = Abstract();  // no identifier, no key: its id is its text's hash
    a.text = "Abstract seven " + kHostile;
    a.source = "/tmp/x\n@preamble{y}\\write18{z}\u0085\u2028/standard_id: doi:10.9/evil.ris";
    a.line = 7;
    add(a);
    writer.commit();
    std::vector<std::string> args = {"--index", original().string(), "--list", list().string(),
                                     "add"};
    args.insert(args.end(), ids_->begin(), ids_->end());
    auto r = run(READING_LIST_BIN, args, sandbox_env(dir_->path()), dir_->path());
    ASSERT_EQ(r.status, 0) << r.err;
  }

  static void TearDownTestSuite() {
    delete dir_;
    delete ids_;
  }

  static fs::path original() { return dir_->path() / "original"; }
  static fs::path list() { return dir_->path() / "list.txt"; }

  static inline TempDir* dir_ = nullptr;
  static inline std::vector<std::string>* ids_ = nullptr;
};

// What a RIS line keeps of a display text: its line separators (of which
// display text keeps only NEL) become spaces, which then collapse.
std::string as_one_line(std::string text) {
  for (auto at = text.find("\u0085"); at != std::string::npos; at = text.find("\u0085"))
    text.replace(at, 2, " ");
  std::string out;
  for (char c : text) {
    if (c == ' ' && (out.empty() || out.back() == ' ')) continue;
    out += c;
  }
  if (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

TEST_P(Issue40RoundTrip, HostileValuesComeBackAsExported) {
  const std::string format = GetParam();
  const fs::path dir = dir_->path();
  auto r =
      run(READING_LIST_BIN,
          {"--index", original().string(), "--list", list().string(), "export", "--format", format},
          sandbox_env(dir), dir);
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string& out = r.out;

  // The export holds the entries exported and nothing else.
  std::set<std::string> keys;
  if (format == "bibtex") {
    EXPECT_EQ(out.find("\\write18"), std::string::npos) << "a LaTeX command left to run:\n" << out;
    EXPECT_EQ(out.find("\\immediate"), std::string::npos) << out;
    auto entries = parse_bibtex(out);
    ASSERT_EQ(entries.size(), ids_->size()) << out;
    for (const auto& e : entries) keys.insert(e.key);
    std::size_t starts = 0;
    for (const auto& line : lines(out)) starts += !line.empty() && line[0] == '@';
    EXPECT_EQ(starts, ids_->size()) << out;
  } else if (format == "ris") {
    for (const char* separator : {"\x0b", "\x0c", "\u0085", "\u2028", "\u2029"}) {
      EXPECT_EQ(out.find(separator), std::string::npos) << "a line separator in\n" << out;
    }
    std::size_t records = 0;
    for (std::string line : lines(out)) {
      ASSERT_FALSE(line.empty()) << "every line ends in CR LF";
      ASSERT_EQ(line.back(), '\r') << line;
      line.pop_back();
      EXPECT_EQ(line.find('\r'), std::string::npos) << line;
      if (line.empty()) continue;
      EXPECT_TRUE(line.size() >= 5 && std::isupper(static_cast<unsigned char>(line[0])) &&
                  line.compare(2, 3, "  -") == 0)
          << "not a tag line: " << line;
      if (line.rfind("ID  - ", 0) == 0) keys.insert(line.substr(6));
      records += line.rfind("TY  - ", 0) == 0;
    }
    EXPECT_EQ(records, ids_->size());
  } else {
    const json items = json::parse(out);
    ASSERT_EQ(items.size(), ids_->size());
    for (const auto& item : items) keys.insert(item.at("id").get<std::string>());
  }
  EXPECT_EQ(keys.size(), ids_->size()) << "one key per citation";
  for (const auto& key : keys) {
    EXPECT_TRUE(!key.empty() &&
                key.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                      "0123456789_:.-") == std::string::npos)
        << key;
  }

  // Read back by abstracts: the same abstracts, and no other.
  const std::string name = "export-" + format;
  write_file(dir / name, out);
  const fs::path back = dir / ("back-" + format);
  r = run(ABSTRACTS_BIN, {"--index", back.string(), "index", name}, sandbox_env(dir), dir);
  ASSERT_EQ(r.status, 0) << r.err << "\n" << out;
  EXPECT_EQ(Index::open(back).stats().abstracts, ids_->size());
  for (const auto& id : *ids_) {
    SCOPED_TRACE(id);
    const json a = show_json(original(), id, dir);
    const json b = show_json(back, id, dir);
    ASSERT_FALSE(b.is_null()) << "not read back from\n" << out;
    EXPECT_EQ(b.at("id"), a.at("id"));
    EXPECT_EQ(b.at("doi"), a.at("doi"));
    EXPECT_EQ(b.at("arxiv"), a.at("arxiv"));
    // RIS has no tag for a PMID that abstracts reads (AN is not read).
    if (format != "ris") {
      EXPECT_EQ(b.at("pmid"), a.at("pmid"));
    }
    const auto title = a.at("title").get<std::string>(), text = a.at("text").get<std::string>();
    EXPECT_EQ(b.at("title"), format == "ris" ? as_one_line(title) : title);
    EXPECT_EQ(b.at("text"), format == "ris" ? as_one_line(text) : text);
  }
}

INSTANTIATE_TEST_SUITE_P(Formats, Issue40RoundTrip, ::testing::Values("bibtex", "ris", "csl-json"),
                         [](const auto& info) {
                           return info.param == "csl-json" ? std::string("csljson") : info.param;
                         });

// ---------------------------------------------------------------------------
// Issue 40: the list file's bounds

TEST_F(Issue40, AListThatIsNoRegularFileIsRefusedAtOnce) {
  const auto id =
      index_file("one.ris", "TY  - JOUR\nTI  - One\nDO  - 10.9/one\nAB  - One abstract.\nER  - \n",
                 "one")
          .at(0);
  fs::create_symlink("/dev/zero", list_);
  auto r = rl_limited({"list"});
  EXPECT_FALSE(r.timed_out) << "read /dev/zero for 5 s";
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("error: " + list_.string() + ": not a regular file"), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("\nhint: "), std::string::npos) << r.err;
  fs::remove(list_);

  ASSERT_EQ(::mkfifo(list_.c_str(), 0600), 0);
  for (std::vector<std::string> args : {std::vector<std::string>{"list"},
                                        {"add", id},
                                        {"remove", id},
                                        {"search", "abstract"},
                                        {"suggest"},
                                        {"export", "--bibtex"}}) {
    r = rl_limited(args);
    EXPECT_FALSE(r.timed_out) << args[0] << " waited for a writer to the FIFO";
    EXPECT_EQ(r.status, 2) << args[0];
    EXPECT_NE(r.err.find("error: " + list_.string() + ": not a regular file"), std::string::npos)
        << r.err;
  }
  fs::remove(list_);

  fs::create_directory(list_);
  r = rl_limited({"add", id});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("error: " + list_.string() + ": is a directory"), std::string::npos)
      << r.err;
}

TEST_F(Issue40, ALineOver1MiBIsAnErrorNamingIt) {
  const auto id =
      index_file("one.ris", "TY  - JOUR\nTI  - One\nDO  - 10.9/one\nAB  - One abstract.\nER  - \n",
                 "one")
          .at(0);
  const std::string content = "# list\n" + id + "  # " + std::string(1 << 20, 'x') + "\n";
  write_file(list_, content);
  for (std::vector<std::string> args :
       {std::vector<std::string>{"list"}, {"add", id}, {"export", "--bibtex"}}) {
    auto r = rl(args);
    EXPECT_EQ(r.status, 2) << args[0];
    EXPECT_NE(r.err.find("error: " + list_.string() + ":2: line longer than 1 MiB"),
              std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("\nhint: "), std::string::npos) << r.err;
  }
  EXPECT_EQ(read_file(list_), content);
}

TEST_F(Issue40, AListOver16MiBOrOf100000IdsIsRefused) {
  const auto id =
      index_file("one.ris", "TY  - JOUR\nTI  - One\nDO  - 10.9/one\nAB  - One abstract.\nER  - \n",
                 "one")
          .at(0);
  write_file(list_, id + "\n" + std::string((16 << 20), '\n'));
  for (std::vector<std::string> args : {std::vector<std::string>{"list"}, {"remove", id}}) {
    auto r = rl(args);
    EXPECT_EQ(r.status, 2) << args[0];
    EXPECT_NE(r.err.find("error: " + list_.string() + ": over 16 MiB"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("\nhint: "), std::string::npos) << r.err;
  }

  std::string many;
  for (int i = 1; i <= 100001; ++i) many += "id" + std::to_string(i) + "\n";
  write_file(list_, many);
  auto r = rl({"export", "--bibtex"});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("error: " + list_.string() + ":100001: more than 100,000 ids"),
            std::string::npos)
      << r.err.substr(0, 1000);
  // At the bound, nothing more is added, and the list stays as it was.
  many.resize(many.rfind("id100001"));
  write_file(list_, many);
  r = rl({"add", id});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("holds 100,000 ids"), std::string::npos) << r.err;
  EXPECT_EQ(read_file(list_), many);
}

TEST_F(Issue40, BlankLinesCostNothing) {
  const auto id =
      index_file("one.ris", "TY  - JOUR\nTI  - One\nDO  - 10.9/one\nAB  - One abstract.\nER  - \n",
                 "one")
          .at(0);
  const fs::path small = dir_ / "small.txt", blank = dir_ / "blank.txt";
  write_file(small, id + "\n");
  write_file(blank, std::string(4 << 20, '\n') + id + "\n");
  const Env env = sandbox_env(dir_.path());
  auto r =
      run(READING_LIST_BIN, {"--index", index_.string(), "--list", blank.string(), "list"}, env);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(lines(r.out).size(), 1u);
  const long base = peak_kib(READING_LIST_BIN,
                             {"--index", index_.string(), "--list", small.string(), "list"}, env);
  const long with_blanks = peak_kib(
      READING_LIST_BIN, {"--index", index_.string(), "--list", blank.string(), "list"}, env);
  // The 4 Mi blank lines are 4 MiB of text; a line's own bookkeeping (tens of
  // bytes each) would be hundreds of MiB.
  EXPECT_LT(with_blanks - base, 32 * 1024)
      << "KiB: " << base << " for the list alone, " << with_blanks << " with 4 MiB of blank lines";
  // And they are kept.
  ASSERT_EQ(run(READING_LIST_BIN,
                {"--index", index_.string(), "--list", blank.string(), "remove", id}, env)
                .status,
            0);
  EXPECT_EQ(read_file(blank), std::string(4 << 20, '\n'));
}

TEST_F(Issue40, ANulOrInvalidUtf8InTheListIsAnErrorNamingFileAndLine) {
  const auto id =
      index_file("one.ris", "TY  - JOUR\nTI  - One\nDO  - 10.9/one\nAB  - One abstract.\nER  - \n",
                 "one")
          .at(0);
  struct Case {
    std::string line;
    std::string says;
  };
  const std::string after_id = " of the line)";
  for (const auto& c :
       std::vector<Case>{{id + std::string(1, '\0'),
                          "a NUL byte (byte " + std::to_string(id.size() + 1) + after_id},
                         {id + std::string("  # note\0", 9), "a NUL byte"},
                         {id + "  # caf\xe9",
                          "not valid UTF-8 (byte " + std::to_string(id.size() + 8) + after_id},
                         {"\xc0\xae\xc0\xae/x", "not valid UTF-8 (byte 1 of the line)"},
                         {"10.9/\xed\xa0\x80", "not valid UTF-8"}}) {
    const std::string content = "# header\n\n" + c.line + "\n";
    write_file(list_, content);
    for (std::vector<std::string> args :
         {std::vector<std::string>{"list"}, {"add", id}, {"remove", id}}) {
      auto r = rl(args);
      EXPECT_EQ(r.status, 2) << args[0] << ": " << r.out;
      EXPECT_NE(r.err.find("error: " + list_.string() + ":3: " + c.says), std::string::npos)
          << r.err;
      EXPECT_NE(r.err.find("\nhint: "), std::string::npos) << r.err;
      EXPECT_EQ(read_file(list_), content);
    }
  }
}

// ---------------------------------------------------------------------------
// Issue 40: what reading-list prints, and the ids it takes

TEST_F(Issue40, ControlAndBidiCharactersArePrintedVisibly) {
  // Display text keeps C1 controls and bidi characters; a source path keeps anything.
  {
    Writer writer = Writer::open(index_);
    Abstract a;
    a.title = "Evil \u009b31m title \u202eoverride\u2066isolate";
    a.text = "Evil abstract about numbats \u009b31m and \u202erevo.";
    a.source = "/tmp/\x1b]0;pwned\x07.txt";
    a.line = 1;
    writer.add(a);
    writer.commit();
  }
  const std::string id = Index::open(index_).search("numbats").hits.at(0).abstract.id;
  ASSERT_EQ(rl({"add", id}).status, 0);
  auto raw = [](const std::string& text) {
    for (const char* bad : {"\x1b", "\x07", "\u009b", "\u202e", "\u2066"}) {
      if (text.find(bad) != std::string::npos) return true;
    }
    return false;
  };

  auto r = rl({"list"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_FALSE(raw(r.out)) << r.out;
  EXPECT_NE(r.out.find("Evil \\u{9b}31m title \\u{202e}override\\u{2066}isolate"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("/tmp/\\x1b]0;pwned\\x07.txt:1"), std::string::npos) << r.out;
  r = rl({"search", "numbats"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_FALSE(raw(r.out)) << r.out;
  EXPECT_NE(r.out.find("\\u{202e}revo"), std::string::npos) << r.out;
  // The list file's note is the title, made visible too.
  EXPECT_FALSE(raw(read_file(list_))) << read_file(list_);
  // JSON is for programs: the title as it is.
  r = rl({"list", "--json"});
  EXPECT_EQ(json::parse(lines(r.out).at(0)).at("title"),
            "Evil \u009b31m title \u202eoverride\u2066isolate");

  // Ids and paths in messages.
  r = rl({"add", "a\x1b[31mred"});
  EXPECT_EQ(r.status, 2);
  EXPECT_FALSE(raw(r.err)) << r.err;
  EXPECT_NE(r.err.find("error: 'a\\x1b[31mred' is not an abstract id"), std::string::npos) << r.err;
  r = rl({"add", "\u202egnp.exe"});
  EXPECT_EQ(r.status, 2);
  EXPECT_FALSE(raw(r.err)) << r.err;
  EXPECT_NE(r.err.find("error: no abstract with id '\\u{202e}gnp.exe'"), std::string::npos)
      << r.err;
  r = rl({"add", "c1\u009bid"});
  EXPECT_NE(r.err.find("'c1\\u{9b}id' is not an abstract id"), std::string::npos) << r.err;
  const fs::path odd = dir_ / "list\x1b[2J.txt";
  fs::create_directory(odd);
  r = run(READING_LIST_BIN, {"--index", index_.string(), "--list", odd.string(), "list"},
          sandbox_env(dir_.path()));
  EXPECT_EQ(r.status, 2);
  EXPECT_FALSE(raw(r.err)) << r.err;
  EXPECT_NE(r.err.find("list\\x1b[2J.txt: is a directory"), std::string::npos) << r.err;
}

TEST_F(Issue40, ADoiWithParenthesesAndAnglesCanBeListed) {
  const std::string doi = "10.1002/(SICI)1097-4636(199709)36:3<398::AID-JBM15>3.0.CO;2-F";
  index_file(
      "sici.ris",
      "TY  - JOUR\nTI  - Biomaterials\nDO  - " + doi + "\nAB  - A biomaterials abstract.\nER  - \n",
      "biomaterials");
  // As `abstracts search` prints it.
  auto r = abstracts(index_, {"search", "--json", "biomaterials"});
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string id = json_ids(r.out).at(0);
  EXPECT_EQ(id, "10.1002/(sici)1097-4636(199709)36:3<398::aid-jbm15>3.0.co;2-f");
  r = rl({"add", id});
  ASSERT_EQ(r.status, 0) << r.err;
  r = rl({"list", "--json"});
  EXPECT_EQ(json_ids(r.out), std::vector<std::string>{id});
  r = rl({"export", "--bibtex"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("doi         = {" + id + "}"), std::string::npos) << r.out;
  // In a link, what a URL cannot hold is percent-encoded.
  r = rl({"export", "--format", "ris"});
  EXPECT_NE(
      r.out.find(
          "UR  - "
          "https://doi.org/10.1002/(sici)1097-4636(199709)36:3%3C398::aid-jbm15%3E3.0.co;2-f\r\n"),
      std::string::npos)
      << r.out;
  EXPECT_EQ(rl({"remove", id}).status, 0);
  // And as written, in capitals.
  r = rl({"add", doi});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(json_ids(rl({"list", "--json"}).out), std::vector<std::string>{id});
}

}  // namespace
}  // namespace abstracts::testing
