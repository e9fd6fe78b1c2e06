// Issue 41: the index stays in step with the library. Sources remembered,
// re-synced and forgotten; the demo corpus a source like any other; folders as
// people keep them; the summary against `stats`; and --watch. On the real binary.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "tests/support/test_support.h"

namespace abstracts::testing::issue41_sync_test {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

const std::string kHeader = "NeurIPS 2026 Papers\n";

class Issue41 : public ::testing::Test {
 protected:
  std::map<std::string, std::string> env() const { return sandbox_env(dir_.path()); }
  fs::path index() const { return dir_ / "index"; }

  RunResult abstracts(std::vector<std::string> args) const {
    args.insert(args.begin(), {"--index", index().string()});
    return run_abstracts(args, env(), dir_.path());
  }

  std::size_t count(const std::string& query) const {
    const auto r = abstracts({"search", "--count", "--no-correct", "--", query});
    EXPECT_LE(r.status, 1) << r.err;
    return r.status <= 1 ? std::stoul(r.out) : 0;
  }

  std::size_t total() const {
    const auto r = abstracts({"stats", "--json"});
    EXPECT_EQ(r.status, 0) << r.err;
    return r.status == 0 ? json::parse(r.out).at("abstracts").get<std::size_t>() : 0;
  }

  std::vector<json> sources() const {
    const auto r = abstracts({"sources", "--json"});
    EXPECT_LE(r.status, 1) << r.err;
    std::vector<json> out;
    for (const auto& line : lines(r.out)) out.push_back(json::parse(line));
    return out;
  }

  TempDir dir_;
};

TEST_F(Issue41, ADirectlyIndexedFileDeletedLeavesTheIndexAtTheNextSync) {
  write_file(dir_ / "stray.txt", kHeader + "About axolotls in lakes.\n");
  write_file(dir_ / "lib/a.txt", kHeader + "About okapis in forests.\n");
  ASSERT_EQ(abstracts({"index", "stray.txt", "lib"}).status, 0);
  EXPECT_EQ(count("axolotls"), 1u);
  ASSERT_EQ(sources().size(), 2u);

  fs::remove(dir_ / "stray.txt");
  auto r = abstracts({"index"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(count("axolotls"), 0u) << "no hit may point at a file that is not there";
  EXPECT_EQ(count("okapis"), 1u);
  const std::string stray = (dir_ / "stray.txt").string();
  EXPECT_TRUE(contains(r.err, "warning: " + stray + " is gone")) << r.err;
  EXPECT_TRUE(contains(r.err, "forget " + stray + "`")) << r.err;
  const auto listed = sources();
  ASSERT_EQ(listed.size(), 2u);
  EXPECT_EQ(listed[1].at("path"), stray);
  EXPECT_EQ(listed[1].at("present"), false);
  EXPECT_EQ(listed[1].at("abstracts"), 0);

  // Back again: read again. Then forgotten: no longer named.
  write_file(dir_ / "stray.txt", kHeader + "About axolotls in lakes.\n");
  EXPECT_EQ(abstracts({"index"}).status, 0);
  EXPECT_EQ(count("axolotls"), 1u);
  r = abstracts({"forget", "stray.txt"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(contains(r.err, "forgot 1 source: 1 abstract left the index")) << r.err;
  EXPECT_EQ(count("axolotls"), 0u);
  EXPECT_EQ(sources().size(), 1u);
  // `index stray.txt` after the file is gone is an error, and names no source.
  fs::remove(dir_ / "stray.txt");
  r = abstracts({"index", "stray.txt"});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(sources().size(), 1u);
}

TEST_F(Issue41, ForgettingASourceKeepsWhatAnotherSourceHas) {
  write_file(dir_ / "lib/a.txt", kHeader + "Shared about quokkas.\nOnly a, about numbats.\n");
  write_file(dir_ / "extra.txt", kHeader + "Shared about quokkas.\nOnly extra, about bilbies.\n");
  write_file(dir_ / "other/b.txt", kHeader + "Only b, about wombats.\n");
  ASSERT_EQ(abstracts({"index", "lib", "extra.txt", "other"}).status, 0);
  ASSERT_EQ(total(), 4u);

  auto r = abstracts({"forget", "extra.txt"});  // a file source
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(count("quokkas"), 1u) << "lib/a.txt has it too";
  EXPECT_EQ(count("bilbies"), 0u);
  const auto hit = json::parse(abstracts({"search", "--json", "quokkas"}).out);
  EXPECT_EQ(hit.at("source"), "lib/a.txt");

  r = abstracts({"forget", "other"});  // a folder source
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(count("wombats"), 0u);
  EXPECT_EQ(total(), 2u);

  r = abstracts({"forget", "nowhere"});
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(contains(r.err, "nowhere is no source of the index")) << r.err;
  EXPECT_TRUE(contains(r.err, "hint: `abstracts --index " + index().string() + " sources` lists them")) << r.err;
  EXPECT_EQ(total(), 2u);
}

TEST_F(Issue41, TheDemoCorpusIsASourceThatMakesWayForTheUsersOwnFiles) {
  // The default index (no --index, no ABSTRACTS_INDEX).
  auto r = run_abstracts({"search", "--count", "attention"}, env(), dir_.path());
  ASSERT_EQ(r.status, 0) << r.err;
  r = run_abstracts({"sources", "--json"}, env(), dir_.path());
  ASSERT_EQ(r.status, 0) << r.err;
  ASSERT_EQ(lines(r.out).size(), 1u);
  EXPECT_EQ(json::parse(r.out).at("kind"), "demo");
  EXPECT_EQ(json::parse(r.out).at("abstracts"), 57);

  write_file(dir_ / "mine.txt", kHeader + "My own abstract about attention in okapis.\n");
  r = run_abstracts({"index", "mine.txt"}, env(), dir_.path());
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(contains(r.err, "note: the bundled demo corpus (57 abstracts) left the index")) << r.err;
  r = run_abstracts({"search", "--count", "attention"}, env(), dir_.path());
  EXPECT_EQ(r.out, "1\n") << "only the user's own abstract";
  r = run_abstracts({"sources", "--json"}, env(), dir_.path());
  ASSERT_EQ(lines(r.out).size(), 1u);
  EXPECT_EQ(json::parse(r.out).at("kind"), "file");
  // Once gone, it stays gone: a sync does not bring it back.
  r = run_abstracts({"index"}, env(), dir_.path());
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_FALSE(contains(r.err, "demo")) << r.err;

  // A named index never gets it unasked.
  r = abstracts({"index"});
  EXPECT_EQ(r.status, 2);
  EXPECT_FALSE(fs::exists(index()));
  r = abstracts({"index", "mine.txt"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_FALSE(contains(r.err, "demo")) << r.err;
  EXPECT_EQ(total(), 1u);
}

TEST_F(Issue41, AFolderAsPeopleKeepItIndexesItsExportsAndSkipsTheRest) {
  const fs::path lib = dir_ / "lib";
  write_file(lib / "refs.ris", "TY  - JOUR\nTI  - Pangolins\nDO  - 10.9/p\nAB  - Pangolins roll up.\nER  - \n");
  write_file(lib / "more.bib", "@article{k, doi = {10.9/q}, abstract = {Quolls climb trees.}}\n");
  write_file(lib / "README.md", "# My library\n\nExports from Zotero.\n");
  write_file(lib / "paper.pdf", "%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<<>>\nendobj\n");
  write_file(lib / "scan.png", std::string("\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01", 20));
  write_file(lib / "refs.ris~", "TY  - JOUR\nDO  - 10.9/old\nAB  - An old backup about okapis.\nER  - \n");
  write_file(lib / ".git/config", "[core]\n");
  write_file(lib / ".git/HEAD", "ref: refs/heads/main\n");
  auto r = abstracts({"index", "lib"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(total(), 2u);
  EXPECT_EQ(count("okapis"), 0u);
  EXPECT_TRUE(contains(r.err, "skipped 4 files that are no bibliography (1 Markdown, 1 PDF, 1 backup, 1 image); "
                              "--verbose lists them"))
      << r.err;
  r = abstracts({"index", "-v", "lib"});
  EXPECT_TRUE(contains(r.err, "skipped lib/paper.pdf (PDF)")) << r.err;
  EXPECT_TRUE(contains(r.err, "skipped lib/refs.ris~ (backup)")) << r.err;
  EXPECT_FALSE(contains(r.err, ".git")) << r.err;

  // A PDF named on the command line is an error, and says what it is.
  r = abstracts({"index", "lib/paper.pdf"});
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(contains(r.err, "a PDF, not a file of abstracts")) << r.err;
  EXPECT_FALSE(contains(r.err, "latin1")) << r.err;

  // Globs, as ripgrep's: only the .bib; then all but the .bib. Kept for syncs.
  r = abstracts({"index", "-g", "*.bib", "lib"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(count("pangolins"), 0u);
  EXPECT_EQ(count("quolls"), 1u);
  EXPECT_EQ(abstracts({"index"}).status, 0);
  EXPECT_EQ(count("pangolins"), 0u);
  EXPECT_EQ(sources().at(0).at("globs"), json::array({"*.bib"}));
  r = abstracts({"index", "-g", "!*.bib", "lib"});
  EXPECT_EQ(count("pangolins"), 1u);
  EXPECT_EQ(count("quolls"), 0u);
}

// Issue 41, finding 5: the summary's numbers agree with `stats` on the real
// exports of the shared data.
TEST_F(Issue41, TheSummaryAgreesWithStatsOnRealExports) {
  const fs::path formats = fs::path(ABSTRACTS_SHARED_DATA_DIR) / "formats";
  if (!fs::exists(formats)) GTEST_SKIP() << "no shared data at " << formats;
  auto r = abstracts({"index", formats.string()});
  ASSERT_EQ(r.status, 0) << r.err;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(r.err, m, std::regex("the index holds (\\d+) abstracts"))) << r.err;
  EXPECT_EQ(std::stoul(m[1]), total());
  // Records read less those the same paper as another: what the index holds.
  std::smatch records, same;
  ASSERT_TRUE(std::regex_search(r.err, records, std::regex("\\((\\d+) records\\)"))) << r.err;
  ASSERT_TRUE(std::regex_search(r.err, same, std::regex("(\\d+) records? the same paper as another"))) << r.err;
  EXPECT_EQ(std::stoul(records[1]) - std::stoul(same[1]), total()) << r.err;
}

// --watch, run as a child and stopped with SIGINT.
class Watcher {
 public:
  Watcher(const fs::path& index, const std::map<std::string, std::string>& env, const fs::path& log) {
    SpawnArgs args(ABSTRACTS_BIN, {"--index", index.string(), "index", "--watch"}, env);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 2, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    EXPECT_EQ(posix_spawn(&pid_, ABSTRACTS_BIN, &actions, nullptr, args.argv(), args.envp()), 0);
    posix_spawn_file_actions_destroy(&actions);
  }
  // Stops it as Ctrl-C would; returns its exit status.
  int stop() {
    kill(pid_, SIGINT);
    int status = 0;
    waitpid(pid_, &status, 0);
    pid_ = 0;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }
  ~Watcher() {
    if (pid_ != 0) stop();
  }

 private:
  pid_t pid_ = 0;
};

TEST_F(Issue41, WatchKeepsTheIndexInStepWithTheFolder) {
  const fs::path lib = dir_ / "lib";
  write_file(lib / "a.txt", kHeader + "About aardvarks.\n");
  ASSERT_EQ(abstracts({"index", "lib"}).status, 0);
  Watcher watcher(index(), env(), dir_ / "watch.log");
  // A generous bound (the sanitizers, a loaded machine); the bench measures the
  // typical latency (under a second).
  constexpr auto kBound = std::chrono::seconds(30);
  auto eventually = [&](const std::string& query, std::size_t expected) {
    const auto start = std::chrono::steady_clock::now();
    while (count(query) != expected) {
      if (std::chrono::steady_clock::now() - start > kBound) return false;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return true;
  };
  // The watch has started once its first sync is done (it says so).
  for (int i = 0; i < 300 && !contains(read_file(dir_ / "watch.log"), "watching"); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }

  write_file(lib / "b.txt", kHeader + "About bilbies.\n");  // created
  EXPECT_TRUE(eventually("bilbies", 1));
  write_file(lib / "b.txt", kHeader + "About bilbies and cassowaries.\n");  // edited
  EXPECT_TRUE(eventually("cassowaries", 1));
  // An editor's atomic save: a temporary file renamed over the old one.
  write_file(lib / ".b.txt.swp", kHeader + "About dugongs.\n");
  fs::rename(lib / ".b.txt.swp", lib / "b.txt");
  EXPECT_TRUE(eventually("dugongs", 1));
  EXPECT_TRUE(eventually("cassowaries", 0));
  fs::remove(lib / "b.txt");  // deleted
  EXPECT_TRUE(eventually("dugongs", 0));
  for (int i = 0; i < 100; ++i) {  // a burst
    write_file(lib / ("burst" + std::to_string(i) + ".txt"), kHeader + "Burst " + std::to_string(i) +
                                                                 " about echidnas.\n");
  }
  EXPECT_TRUE(eventually("echidnas", 100));
  EXPECT_EQ(count("aardvarks"), 1u);
  EXPECT_EQ(watcher.stop(), 0);
  const std::string log = read_file(dir_ / "watch.log");
  EXPECT_TRUE(contains(log, "stopped watching")) << log;
}

}  // namespace
}  // namespace abstracts::testing::issue41_sync_test
