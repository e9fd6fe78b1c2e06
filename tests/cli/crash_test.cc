// `kill -9` of the real indexer at points spread over its run, for each way it
// writes (a bulk build, a file in one transaction, a large file into a copy of
// the index): the index must then open with the state before the run or the
// state after it, never one between, and the run done again must complete.
// (Issue 16.) The kill points are fractions of an uninterrupted run's time, so
// the test does not depend on the machine's speed; no sleep here waits for
// something to happen.

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <optional>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "tests/support/test_support.h"

namespace abstracts::testing::crash_test {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;
using Clock = std::chrono::steady_clock;

// A file of `n` abstracts.
void write_abstracts(const fs::path& file, int n, const std::string& about) {
  std::string text = "NeurIPS 2026 Papers\n";
  for (int i = 0; i < n; ++i) text += "Abstract " + std::to_string(i) + " about " + about + ".\n";
  write_file(file, text);
}

// Starts `abstracts ARGS` with its output thrown away.
pid_t start(const std::vector<std::string>& args, const std::map<std::string, std::string>& env) {
  SpawnArgs spawn_args(ABSTRACTS_BIN, args, env);
  posix_spawn_file_actions_t quiet;
  posix_spawn_file_actions_init(&quiet);
  posix_spawn_file_actions_addopen(&quiet, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&quiet, 2, "/dev/null", O_WRONLY, 0);
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, ABSTRACTS_BIN, &quiet, nullptr, spawn_args.argv(), spawn_args.envp());
  posix_spawn_file_actions_destroy(&quiet);
  if (rc != 0) throw std::runtime_error("cannot run " + std::string(ABSTRACTS_BIN));
  return pid;
}

// The abstracts the index at `index` has; nullopt if there is no index at all.
std::optional<std::size_t> count(const fs::path& index, const fs::path& dir) {
  auto r = run_abstracts({"--index", index.string(), "stats", "--json"}, sandbox_env(dir));
  if (r.status == 2 && r.err.find("no index at") != std::string::npos) return std::nullopt;
  EXPECT_EQ(r.status, 0) << "the index does not open: " << r.err;
  if (r.status != 0) return 0;
  return json::parse(r.out).at("abstracts").get<std::size_t>();
}

struct Scenario {
  // Makes the index as it is before the run (in `index`), and the files to index
  // (in `dir`).
  std::function<void(const fs::path& index, const fs::path& dir)> prepare;
  std::string file;  // the file the run indexes, in `dir`
  std::vector<std::optional<std::size_t>> before;  // the states before the run (nullopt: no index)
  std::size_t after;
};

void kill_at_points(const Scenario& s, int points) {
  TempDir dir;
  const auto env = sandbox_env(dir.path());
  auto args_for = [&](const fs::path& index) {
    return std::vector<std::string>{"--index", index.string(), "index", "--quiet", (dir / s.file).string()};
  };
  // How long the run takes uninterrupted.
  const fs::path timed = dir / "timed";
  s.prepare(timed, dir.path());
  const auto t0 = Clock::now();
  auto r = run_abstracts(args_for(timed), env);
  const auto took = Clock::now() - t0;
  ASSERT_EQ(r.status, 0) << r.err;
  ASSERT_EQ(count(timed, dir.path()), s.after);

  for (int k = 0; k < points; ++k) {
    const fs::path index = dir / ("index" + std::to_string(k));
    s.prepare(index, dir.path());
    const auto at = took * (k + 0.5) / points;
    SCOPED_TRACE("killed after " + std::to_string(std::chrono::duration<double>(at).count()) + " s of " +
                 std::to_string(std::chrono::duration<double>(took).count()));
    const pid_t pid = start(args_for(index), env);
    std::this_thread::sleep_for(at);
    ::kill(pid, SIGKILL);
    int wstatus = 0;
    while (waitpid(pid, &wstatus, 0) < 0 && errno == EINTR) {
    }
    const auto found = count(index, dir.path());
    const bool as_before = std::find(s.before.begin(), s.before.end(), found) != s.before.end();
    EXPECT_TRUE(as_before || found == s.after)
        << "found " << (found ? std::to_string(*found) : "no index") << " abstracts: neither the state before"
        << " nor the state after (" << s.after << ")";
    r = run_abstracts(args_for(index), env);
    EXPECT_EQ(r.status, 0) << "the run again: " << r.err;
    EXPECT_EQ(count(index, dir.path()), s.after);
    fs::remove_all(index);
  }
}

// An index made from `file` (50 abstracts) alone.
void index_first_file(const fs::path& index, const fs::path& dir) {
  write_abstracts(dir / "first.txt", 50, "the aardvark");
  auto r = run_abstracts({"--index", index.string(), "index", "--quiet", (dir / "first.txt").string()},
                         sandbox_env(dir));
  ASSERT_EQ(r.status, 0) << r.err;
}

TEST(Issue16Crash, KilledBulkBuildLeavesNoIndexOrTheWholeOne) {
  Scenario s;
  s.prepare = [](const fs::path&, const fs::path& dir) {
    if (!fs::exists(dir / "bulk.txt")) write_abstracts(dir / "bulk.txt", 6000, "the okapi");
  };
  s.file = "bulk.txt";
  s.before = {std::nullopt, 0};  // Writer::open publishes an empty index first
  s.after = 6000;
  kill_at_points(s, 5);
}

TEST(Issue16Crash, KilledFileByFileIndexingLeavesTheOldOrTheNewFile) {
  Scenario s;
  s.prepare = [](const fs::path& index, const fs::path& dir) {
    index_first_file(index, dir);
    if (!fs::exists(dir / "next.txt")) write_abstracts(dir / "next.txt", 3000, "the okapi");
  };
  s.file = "next.txt";
  s.before = {50};
  s.after = 3050;
  kill_at_points(s, 5);
}

TEST(Issue16Crash, KilledLargeFileIndexingLeavesTheOldOrTheNewFile) {
  Scenario s;
  s.prepare = [](const fs::path& index, const fs::path& dir) {
    index_first_file(index, dir);
    if (!fs::exists(dir / "large.txt")) write_abstracts(dir / "large.txt", 12000, "the okapi");
  };
  s.file = "large.txt";
  s.before = {50};
  s.after = 12050;
  kill_at_points(s, 4);
}

}  // namespace
}  // namespace abstracts::testing::crash_test
