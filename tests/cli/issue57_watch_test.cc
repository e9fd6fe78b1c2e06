// Issue 57: `abstracts index --watch` through the real binary. A folder renamed
// or moved in is watched under its new name; a source another process adds is
// watched; a link to a folder is not followed; no file is logged before its
// commit (kill -9 after the first line: every file logged is in the index); a
// Zotero database in WAL mode is followed; a full disk is waited out, not the
// end of the watch.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <memory>
#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "tests/support/test_support.h"
#include "tests/support/zotero_library.h"

namespace abstracts::testing::issue57_watch_test {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

const std::string kHeader = "NeurIPS 2026 Papers\n";

// A generous bound for what the watch does within a second or two (the
// sanitizers, a loaded machine); without the fixes these wait for the
// five-minute sync, or for ever.
constexpr auto kBound = std::chrono::seconds(30);

// `abstracts index --watch` as a child, its stderr in `log`.
class Watcher {
 public:
  // Runs in the log's folder.
  Watcher(const std::vector<std::string>& global, const std::vector<std::string>& options,
          const std::map<std::string, std::string>& env, const fs::path& log)
      : log_(log) {
    std::vector<std::string> all = global;
    all.insert(all.end(), {"index", "--watch"});
    all.insert(all.end(), options.begin(), options.end());
    SpawnArgs spawn(ABSTRACTS_BIN, all, env);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 2, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addchdir_np(&actions, log.parent_path().c_str());  // paths shown relative to it
    EXPECT_EQ(posix_spawn(&pid_, ABSTRACTS_BIN, &actions, nullptr, spawn.argv(), spawn.envp()), 0);
    posix_spawn_file_actions_destroy(&actions);
  }
  ~Watcher() {
    if (pid_ != 0) stop(SIGKILL);
  }
  // Ends it with `signal`; its exit status (128 + the signal if killed by it).
  int stop(int signal = SIGINT) {
    if (pid_ == 0) return -1;  // never started, or reaped: kill(0) would signal the test's own group
    kill(pid_, signal);
    return wait();
  }
  int wait() {
    if (pid_ == 0) return -1;
    int status = 0;
    waitpid(pid_, &status, 0);
    pid_ = 0;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }
  // Whether it has ended (reaped if so), its status in `status`.
  bool ended(int& status) {
    int raw = 0;
    if (pid_ == 0 || waitpid(pid_, &raw, WNOHANG) != pid_) return false;
    pid_ = 0;
    status = WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw);
    return true;
  }
  std::string log() const { return read_file(log_); }

 private:
  pid_t pid_ = 0;
  fs::path log_;
};

class Issue57Watch : public ::testing::Test {
 protected:
  std::map<std::string, std::string> env() const { return sandbox_env(dir_.path()); }
  virtual fs::path index() const { return dir_ / "index"; }

  RunResult abstracts(std::vector<std::string> args) const {
    args.insert(args.begin(), {"--index", index().string()});
    return run_abstracts(args, env(), dir_.path());
  }

  std::size_t count(const std::string& query) const {
    const auto r = abstracts({"search", "--count", "--no-correct", "--", query});
    EXPECT_LE(r.status, 1) << r.err;
    return r.status <= 1 ? std::stoul(r.out) : 0;
  }

  // Whether `query` comes to count `expected` within kBound.
  bool eventually(const std::string& query, std::size_t expected) const {
    const auto start = Clock::now();
    while (count(query) != expected) {
      if (Clock::now() - start > kBound) return false;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return true;
  }

  // `abstracts --index INDEX index --watch OPTIONS...`
  std::unique_ptr<Watcher> watch(const std::vector<std::string>& options = {}) {
    auto w = std::make_unique<Watcher>(std::vector<std::string>{"--index", index().string()}, options, env(),
                                       dir_ / "watch.log");
    // Started once it says so; its first sync follows at once.
    for (int i = 0; i < 300 && !contains(w->log(), "watching"); ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return w;
  }

  // A file that marks a point in the watch's time: once it is found, every
  // change made before it was written has been seen by a batch.
  void mark(const fs::path& folder, const std::string& word) {
    write_file(folder / (word + ".txt"), kHeader + "A marker about " + word + ".\n");
    ASSERT_TRUE(eventually(word, 1)) << word;
  }

  TempDir dir_;
};

// Finding 4: mkdir d; mv d e; a file written in e. And a folder moved out of the
// source and back in under another name, and a folder made outside and moved in.
TEST_F(Issue57Watch, AFolderRenamedOrMovedInIsWatchedUnderItsNewName) {
  const fs::path lib = dir_ / "lib";
  write_file(lib / "a.txt", kHeader + "About aardvarks.\n");
  ASSERT_EQ(abstracts({"index", "lib"}).status, 0);
  auto watcher = watch();
  fs::create_directory(lib / "d");
  mark(lib, "dugong");  // the watch has seen d made, and watches it
  fs::rename(lib / "d", lib / "e");
  mark(lib, "echidna");
  write_file(lib / "e" / "b.txt", kHeader + "About yaks in a renamed folder.\n");
  EXPECT_TRUE(eventually("yaks", 1));

  fs::rename(lib / "e", dir_ / "away");  // out of the source: its file leaves the index
  EXPECT_TRUE(eventually("yaks", 0));
  fs::rename(dir_ / "away", lib / "back");
  EXPECT_TRUE(eventually("yaks", 1));
  write_file(lib / "back" / "c.txt", kHeader + "About gnus in a folder moved back.\n");
  EXPECT_TRUE(eventually("gnus", 1));

  write_file(dir_ / "outside" / "deep" / "d.txt", kHeader + "About emus made outside.\n");
  fs::rename(dir_ / "outside", lib / "inside");
  EXPECT_TRUE(eventually("emus", 1));
  write_file(lib / "inside" / "deep" / "e.txt", kHeader + "About ibexes written later.\n");
  EXPECT_TRUE(eventually("ibexes", 1));
  EXPECT_EQ(watcher->stop(), 0) << watcher->log();
}

// Finding 5: `index s5b` while a watch runs: s5b is watched from then on.
TEST_F(Issue57Watch, ASourceAddedWhileWatchingIsWatched) {
  write_file(dir_ / "s5a" / "a.txt", kHeader + "About aardvarks.\n");
  ASSERT_EQ(abstracts({"index", "s5a"}).status, 0);
  auto watcher = watch();
  mark(dir_ / "s5a", "dugong");
  write_file(dir_ / "s5b" / "b.txt", kHeader + "About bilbies.\n");
  auto r = abstracts({"index", "s5b"});  // waits while the watch's batch holds the index
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(count("bilbies"), 1u);
  write_file(dir_ / "s5b" / "c.txt", kHeader + "About cassowaries, later.\n");
  EXPECT_TRUE(eventually("cassowaries", 1)) << watcher->log();
  // And a file source, added while watching.
  write_file(dir_ / "one.txt", kHeader + "About quolls.\n");
  ASSERT_EQ(abstracts({"index", "one.txt"}).status, 0);
  write_file(dir_ / "one.txt", kHeader + "About quolls and numbats.\n");
  EXPECT_TRUE(eventually("numbats", 1)) << watcher->log();
  EXPECT_EQ(watcher->stop(), 0);
}

// Finding 6: a link to a folder in a watched source is not walked, as a sync
// does not walk it. The link leads to a folder of the source whose PDF a walk
// through the link would report as skipped (--verbose).
TEST_F(Issue57Watch, ALinkToAFolderIsNotFollowed) {
  const fs::path src = dir_ / "src";
  write_file(src / "a.txt", kHeader + "About aardvarks.\n");
  write_file(src / "papers" / "paper.pdf", "%PDF-1.4\n%\xe2\xe3\xcf\xd3\n");
  ASSERT_EQ(abstracts({"index", "src"}).status, 0);
  auto watcher = watch({"--verbose"});
  mark(src, "dugong");
  const std::size_t before = watcher->log().size();
  fs::create_directory_symlink(src / "papers", src / "link");
  fs::create_directory_symlink("/proc/self/root", src / "root");
  mark(src, "echidna");
  const std::string after = watcher->log().substr(before);
  EXPECT_FALSE(contains(after, "paper.pdf")) << after;
  EXPECT_FALSE(contains(after, "/proc")) << after;
  EXPECT_EQ(watcher->stop(), 0);
}

// Finding 10: a burst of files renamed in; kill -9 as soon as the first is
// logged. Every file logged is in the index: none is said before its commit.
TEST_F(Issue57Watch, NoFileIsLoggedBeforeItsCommit) {
  const fs::path src = dir_ / "src";
  write_file(src / "a.txt", kHeader + "About aardvarks.\n");
  ASSERT_EQ(abstracts({"index", "src"}).status, 0);
  auto watcher = watch();
  mark(src, "dugong");
  constexpr int kFiles = 400;
  // A word of each file's own, which no stemmer shortens into another's.
  auto word = [](int i) {
    return std::string("zq") + char('a' + i / 676 % 26) + char('a' + i / 26 % 26) + char('a' + i % 26) + "x";
  };
  for (int i = 0; i < kFiles; ++i) {
    write_file(dir_ / "staging" / ("f" + std::to_string(i) + ".txt"),
               kHeader + "Burst file " + word(i) + " about kudus.\n");
  }
  for (int i = 0; i < kFiles; ++i) {
    const std::string name = "f" + std::to_string(i) + ".txt";
    fs::rename(dir_ / "staging" / name, src / name);
  }
  const auto start = Clock::now();
  while (!contains(watcher->log(), "indexed src/f") && Clock::now() - start < kBound) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  watcher->stop(SIGKILL);
  const std::string log = watcher->log();
  std::set<std::string> logged;
  const std::regex line("indexed src/(f\\d+)\\.txt");
  for (std::sregex_iterator it(log.begin(), log.end(), line), end; it != end; ++it) logged.insert((*it)[1]);
  ASSERT_FALSE(logged.empty()) << log;
  // Each logged file's word counted, in one batch (ID<TAB>N lines back).
  std::string queries;
  for (const auto& name : logged) queries += name + "\t" + word(std::stoi(name.substr(1))) + "\n";
  write_file(dir_ / "queries.tsv", queries);
  const auto r = abstracts({"search", "--count", "--no-correct", "--queries", (dir_ / "queries.tsv").string()});
  EXPECT_LE(r.status, 1) << r.err;
  std::set<std::string> found;
  for (const auto& counted : lines(r.out)) {
    if (counted.ends_with("\t1")) found.insert(counted.substr(0, counted.find('\t')));
  }
  for (const auto& name : logged) {
    EXPECT_EQ(found.count(name), 1u) << name << " was logged as indexed but is not in the index";
  }
}

// Finding 11: a Zotero database in WAL mode commits to its -wal, not to the
// database file, until a checkpoint (none here): the watch hears of it there.
TEST_F(Issue57Watch, AZoteroDatabaseInWalModeIsFollowed) {
  ZoteroLibrary lib(dir_ / "zotero" / "zotero.sqlite");
  const auto item = lib.add_item("WAL00001", "Marine mammals", "A first abstract about walruses.");
  lib.exec("PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0;");
  ASSERT_EQ(abstracts({"index", lib.path().string()}).status, 0);
  auto watcher = watch();
  EXPECT_TRUE(eventually("walruses", 1));
  lib.set_field(item, "abstractNote", "An edited abstract about narwhals.");
  EXPECT_TRUE(eventually("narwhals", 1)) << watcher->log();
  EXPECT_EQ(count("walruses"), 0u);
  EXPECT_EQ(watcher->stop(), 0);
}

// Finding 11: a full disk (a small tmpfs holding the index) stops a batch, not
// the watch; once there is room again the change is indexed. Needs root (or a
// user namespace) for the mount: skipped without.
class Issue57WatchFullDisk : public Issue57Watch {
 protected:
  void SetUp() override {
    fs::create_directories(disk_);
    if (::mount("tmpfs", disk_.c_str(), "tmpfs", 0, "size=16m") != 0) {
      GTEST_SKIP() << "cannot mount a small tmpfs to fill (needs root): " << std::strerror(errno);
    }
    mounted_ = true;
  }
  void TearDown() override {
    if (mounted_) ::umount2(disk_.c_str(), MNT_DETACH);
  }
  fs::path index() const override { return disk_ / "index"; }

  // Fills the disk but for a few kilobytes.
  void fill() {
    const int fd = ::open((disk_ / "filler").c_str(), O_WRONLY | O_CREAT, 0600);
    ASSERT_GE(fd, 0);
    std::string block(64 << 10, 'x');
    while (::write(fd, block.data(), block.size()) > 0) {
    }
    block.resize(512);
    while (::write(fd, block.data(), block.size()) > 0) {
    }
    ::close(fd);
  }

  fs::path disk_ = dir_ / "disk";
  bool mounted_ = false;
};

TEST_F(Issue57WatchFullDisk, AFullDiskIsWaitedOut) {
  const fs::path src = dir_ / "src";
  write_file(src / "a.txt", kHeader + "About aardvarks.\n");
  ASSERT_EQ(abstracts({"index", "src"}).status, 0);
  auto watcher = watch();
  mark(src, "dugong");
  fill();
  std::string big = kHeader;
  for (int i = 0; i < 2000; ++i) big += "Abstract " + std::to_string(i) + " about sifakas" + repeated("lemur", 60) + ".\n";
  write_file(src / "big.txt", big);
  const auto start = Clock::now();
  while (!contains(watcher->log(), "indexed again in") && Clock::now() - start < kBound) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  int status = 0;
  ASSERT_FALSE(watcher->ended(status)) << "the watch ended (" << status << "): " << watcher->log();
  EXPECT_TRUE(contains(watcher->log(), "indexed again in")) << watcher->log();
  fs::remove(disk_ / "filler");
  EXPECT_TRUE(eventually("sifakas", 2000)) << watcher->log();
  EXPECT_EQ(count("dugong"), 1u);
  EXPECT_EQ(watcher->stop(), 0) << watcher->log();
}

}  // namespace
}  // namespace abstracts::testing::issue57_watch_test
