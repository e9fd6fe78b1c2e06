// What a hostile or careless user can do to the real binary, and what must hold:
// nothing run, nothing lost, nothing hung, damage reported. Each test reproduces
// one finding of the reliability probe of issue 16 (the suite is named after it).

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include <xapian.h>

#include "engine/layout.h"
#include "engine/schema.h"
#include "tests/support/test_support.h"

namespace abstracts::testing::reliability_test {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;
using Env = std::map<std::string, std::string>;

// A sandbox of its own for each test: HOME and XDG_DATA_HOME inside it, an index
// at dir / "index".
class Issue16 : public ::testing::Test {
 protected:
  Env env() const { return sandbox_env(dir_.path()); }
  fs::path index() const { return dir_ / "index"; }

  // abstracts --index INDEX ARGS...
  RunResult abstracts(std::vector<std::string> args, const fs::path& on = {}) const {
    args.insert(args.begin(), {"--index", (on.empty() ? index() : on).string()});
    return run_abstracts(args, env(), dir_.path());
  }

  // The same, but killed if it runs for more than a minute (status 124): for
  // what once hung.
  RunResult abstracts_bounded(std::vector<std::string> args) const {
    args.insert(args.begin(), {"60", ABSTRACTS_BIN, "--index", index().string()});
    return run("/usr/bin/timeout", args, env(), dir_.path());
  }

  std::size_t count(const fs::path& on = {}) const {
    auto r = abstracts({"stats", "--json"}, on);
    EXPECT_EQ(r.status, 0) << r.err;
    return r.status == 0 ? json::parse(r.out).at("abstracts").get<std::size_t>() : 0;
  }

  // The hits of `query` as (file name, line), from --json.
  std::vector<std::pair<std::string, int>> hits(const std::string& query) const {
    auto r = abstracts({"search", "--json", "--no-correct", "--", query});
    EXPECT_TRUE(r.status == 0 || r.status == 1) << r.err;
    std::vector<std::pair<std::string, int>> out;
    for (const auto& line : lines(r.out)) {
      json j = json::parse(line);
      out.emplace_back(fs::path(j.at("path").get<std::string>()).filename().string(), j.at("line").get<int>());
    }
    return out;
  }

  TempDir dir_;
};

const std::string kHeader = "NeurIPS 2026 Papers\n";

// ---------------------------------------------------------------------------
// 1. The index directory is confined: its stub names a generation inside it.

TEST_F(Issue16, StubNamingAProgramRunsNothing) {
  write_file(dir_ / "a.txt", kHeader + "An abstract about aardvarks.\n");
  ASSERT_EQ(abstracts({"index", "--quiet", (dir_ / "a.txt").string()}).status, 0);
  const fs::path own_generation = layout::current_generation(index());
  const fs::path pwned = dir_ / "PWNED";
  write_file(index() / "XAPIANDB", "remote :/bin/sh -c 'touch " + pwned.string() + "'\n");
  for (const std::vector<std::string>& args : {std::vector<std::string>{"stats"}, {"search", "aardvarks"},
                                              {"index", (dir_ / "a.txt").string()}}) {
    auto r = abstracts(args);
    EXPECT_EQ(r.status, 2) << args[0] << ": " << r.err;
    EXPECT_TRUE(contains(r.err, "error: ")) << r.err;
    EXPECT_TRUE(contains(r.err, "remote :/bin/sh")) << "says what the stub holds: " << r.err;
    EXPECT_TRUE(contains(r.err, "hint: ")) << r.err;
  }
  EXPECT_FALSE(fs::exists(pwned)) << "the stub's program ran";
  EXPECT_TRUE(fs::is_directory(own_generation)) << "the index's own generation was removed";
}

TEST_F(Issue16, StubNamingAnotherIndexTouchesNeither) {
  write_file(dir_ / "a.txt", kHeader + "An abstract about aardvarks.\n");
  write_file(dir_ / "b.txt", kHeader + "An abstract about badgers.\nAnother about bats.\n");
  const fs::path other = dir_ / "other";
  ASSERT_EQ(abstracts({"index", "--quiet", (dir_ / "a.txt").string()}).status, 0);
  ASSERT_EQ(abstracts({"index", "--quiet", (dir_ / "b.txt").string()}, other).status, 0);
  const fs::path own_generation = layout::current_generation(index());
  const fs::path other_generation = layout::current_generation(other);
  write_file(index() / "XAPIANDB", "glass " + other_generation.string() + "\n");
  auto r = abstracts({"index", (dir_ / "a.txt").string()});
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_TRUE(contains(r.err, other_generation.string())) << r.err;
  EXPECT_TRUE(fs::is_directory(own_generation)) << "the index's own generation was removed";
  EXPECT_EQ(count(other), 2u);
}

TEST_F(Issue16, EmptyStubSaysItIsEmpty) {
  write_file(dir_ / "a.txt", kHeader + "An abstract about aardvarks.\n");
  ASSERT_EQ(abstracts({"index", "--quiet", (dir_ / "a.txt").string()}).status, 0);
  write_file(index() / "XAPIANDB", "");
  auto r = abstracts({"stats"});
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(contains(r.err, "is empty")) << r.err;
  EXPECT_FALSE(contains(r.err, "another version")) << r.err;
}

TEST_F(Issue16, GenerationThatIsALinkIsRefused) {
  write_file(dir_ / "a.txt", kHeader + "An abstract about aardvarks.\n");
  ASSERT_EQ(abstracts({"index", "--quiet", (dir_ / "a.txt").string()}).status, 0);
  const fs::path generation = layout::current_generation(index());
  fs::rename(generation, dir_ / "elsewhere");
  fs::create_directory_symlink(dir_ / "elsewhere", generation);
  auto r = abstracts({"stats"});
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(contains(r.err, generation.filename().string())) << r.err;
}

// ---------------------------------------------------------------------------
// 2. Readers never fail because a writer committed.

// 184 of 501 searches once exited 2 (DatabaseModifiedError) while `index` added
// 400 small files.
TEST_F(Issue16, SearchesWhileIndexingNeverFail) {
  write_file(dir_ / "first.txt", kHeader + "An abstract about aardvarks.\n");
  ASSERT_EQ(abstracts({"index", "--quiet", (dir_ / "first.txt").string()}).status, 0);
  for (int f = 0; f < 400; ++f) {
    std::string text = kHeader;
    for (int i = 0; i < 5; ++i) {
      text += "Abstract " + std::to_string(f) + "." + std::to_string(i) + " about aardvarks and okapis.\n";
    }
    write_file(dir_ / "papers" / ("f" + std::to_string(1000 + f) + ".txt"), text);
  }
  SpawnArgs indexer(ABSTRACTS_BIN, {"--index", index().string(), "index", "--quiet", (dir_ / "papers").string()},
                    env());
  posix_spawn_file_actions_t quiet;
  posix_spawn_file_actions_init(&quiet);
  posix_spawn_file_actions_addopen(&quiet, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&quiet, 2, "/dev/null", O_WRONLY, 0);
  pid_t pid = 0;
  ASSERT_EQ(posix_spawn(&pid, ABSTRACTS_BIN, &quiet, nullptr, indexer.argv(), indexer.envp()), 0);
  posix_spawn_file_actions_destroy(&quiet);
  int searches = 0, failures = 0, wstatus = 0;
  std::string failure;
  while (waitpid(pid, &wstatus, WNOHANG) == 0) {
    for (const char* query : {"aardvarks", "okapis aardvarks", "\"about aardvarks\""}) {
      auto r = abstracts({"search", "--json", "--limit", "5", query});
      ++searches;
      if (r.status != 0) {
        ++failures;
        failure = r.err;
      }
    }
  }
  ASSERT_TRUE(WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 0) << "the indexer failed";
  EXPECT_GT(searches, 0);
  EXPECT_EQ(failures, 0) << "of " << searches << " searches; the last: " << failure;
  EXPECT_EQ(count(), 2001u);
}

// ---------------------------------------------------------------------------
// 3. Nothing indexed is lost except by a file that says so.

const std::string kF1 = kHeader + "Alpha abstract about aardvarks.\nShared abstract about zebras.\n";
const std::string kF2 = kHeader + "Shared abstract about zebras.\nGamma abstract about gazelles.\n";

// f1 = {Alpha, Shared}, f2 = {Shared, Gamma}: deleting f2 once took Shared away,
// and touching f1 did not bring it back.
TEST_F(Issue16, AbstractInTwoFilesStaysUntilBothLoseIt) {
  for (const bool bulk : {true, false}) {
    SCOPED_TRACE(bulk ? "bulk build" : "file by file");
    const fs::path folder = dir_ / (bulk ? "bulk" : "incremental");
    fs::remove_all(index());
    write_file(folder / "f1.txt", kF1);
    write_file(folder / "f2.txt", kF2);
    if (!bulk) {
      ASSERT_EQ(abstracts({"index", "--quiet", (folder / "f1.txt").string()}).status, 0);
    }
    ASSERT_EQ(abstracts({"index", "--quiet", folder.string()}).status, 0);
    EXPECT_EQ(count(), 3u);

    fs::remove(folder / "f2.txt");
    auto r = abstracts({"index", folder.string()});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(contains(r.err, "1 file gone, 1 abstract removed")) << r.err;
    EXPECT_EQ(hits("zebras"), (std::vector<std::pair<std::string, int>>{{"f1.txt", 3}}))
        << "Shared is still in f1, and its location says so";
    EXPECT_TRUE(hits("gazelles").empty());

    fs::remove(folder / "f1.txt");
    r = abstracts({"index", folder.string()});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(contains(r.err, "2 abstracts removed")) << r.err;
    EXPECT_TRUE(hits("zebras").empty());
    EXPECT_EQ(count(), 0u);
  }
}

TEST_F(Issue16, AbstractLeavingOneOfItsFilesStaysInTheOther) {
  write_file(dir_ / "f1.txt", kF1);
  write_file(dir_ / "f2.txt", kF2);
  ASSERT_EQ(abstracts({"index", "--quiet", (dir_ / "f1.txt").string(), (dir_ / "f2.txt").string()}).status, 0);
  write_file(dir_ / "f2.txt", kHeader + "Gamma abstract about gazelles.\n");
  auto r = abstracts({"index", (dir_ / "f2.txt").string()});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(hits("zebras"), (std::vector<std::pair<std::string, int>>{{"f1.txt", 3}}));
  EXPECT_EQ(count(), 3u);
}

// Root reads any folder, so the folder is made unreadable to `nobody` and the
// tool runs as `nobody` (util-linux's setpriv) when the test runs as root.
TEST_F(Issue16, UnreadableFolderIsAnErrorAndDeletesNothing) {
  const fs::path folder = dir_ / "papers";
  write_file(folder / "top.txt", kHeader + "An abstract about aardvarks.\n");
  write_file(folder / "locked" / "inner.txt", kHeader + "An abstract about badgers.\nAnother about bats.\n");
  std::vector<std::string> as_user;
  if (geteuid() == 0) {
    if (!fs::exists("/usr/bin/setpriv")) GTEST_SKIP() << "running as root, and no setpriv to drop to nobody";
    as_user = {"/usr/bin/setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", "--"};
    for (const auto& e : fs::recursive_directory_iterator(dir_.path())) {
      ASSERT_EQ(::chown(e.path().c_str(), 65534, 65534), 0) << e.path();
    }
    ASSERT_EQ(::chown(dir_.path().c_str(), 65534, 65534), 0);
  }
  auto tool = [&](std::vector<std::string> args) {
    args.insert(args.begin(), {ABSTRACTS_BIN, "--index", index().string()});
    if (as_user.empty()) return run(ABSTRACTS_BIN, {args.begin() + 1, args.end()}, env(), dir_.path());
    args.insert(args.begin(), as_user.begin() + 1, as_user.end());
    return run(as_user[0], args, env(), dir_.path());
  };
  auto r = tool({"index", "--quiet", folder.string()});
  ASSERT_EQ(r.status, 0) << r.err;
  fs::permissions(folder / "locked", fs::perms::none);
  r = tool({"index", folder.string()});
  fs::permissions(folder / "locked", fs::perms::owner_all);
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_TRUE(contains(r.err, "locked")) << "names the folder: " << r.err;
  r = tool({"stats", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(json::parse(r.out).at("abstracts").get<int>(), 3) << "nothing from the locked folder was deleted";
}

TEST_F(Issue16, NulByteIsAnErrorWithFileAndLine) {
  write_file(dir_ / "nul.txt", kHeader + "A fine abstract.\nAn abstract cut short" + std::string(1, '\0') +
                                   " by a NUL byte.\n");
  auto r = abstracts({"index", (dir_ / "nul.txt").string()});
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(contains(r.err, "nul.txt:3")) << r.err;
  EXPECT_TRUE(contains(r.err, "NUL")) << r.err;
}

// ---------------------------------------------------------------------------
// 6. No hangs: only regular files are read.

TEST_F(Issue16, DeviceIsRefusedNotRead) {
  auto r = abstracts_bounded({"index", "/dev/zero"});
  EXPECT_EQ(r.status, 2) << "124 means it hung: " << r.err;
  EXPECT_TRUE(contains(r.err, "not a regular file")) << r.err;
}

TEST_F(Issue16, FifoIsRefusedNotOpened) {
  ASSERT_EQ(::mkfifo((dir_ / "fifo").c_str(), 0600), 0);
  auto r = abstracts_bounded({"index", (dir_ / "fifo").string()});
  EXPECT_EQ(r.status, 2) << "124 means it hung: " << r.err;
  EXPECT_TRUE(contains(r.err, "not a regular file")) << r.err;
}

TEST_F(Issue16, FifoInAFolderIsLeftOut) {
  write_file(dir_ / "papers" / "a.txt", kHeader + "An abstract about aardvarks.\n");
  ASSERT_EQ(::mkfifo((dir_ / "papers" / "fifo").c_str(), 0600), 0);
  auto r = abstracts_bounded({"index", (dir_ / "papers").string()});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(count(), 1u);
}

// ---------------------------------------------------------------------------
// 7. A damaged index is an error, not a crash or a wrong answer.

// Changes the value `slot` of the first abstract with `apply`.
void damage_value(const fs::path& index, Xapian::valueno slot, const std::function<void(std::string&)>& apply) {
  Xapian::WritableDatabase db(layout::current_generation(index).string(), Xapian::DB_OPEN);
  Xapian::Document doc = db.get_document(1);
  std::string value = doc.get_value(slot);
  apply(value);
  doc.add_value(slot, value);
  db.replace_document(1, doc);
  db.commit();
}

TEST_F(Issue16, DamagedStoredAbstractIsAnError) {
  write_file(dir_ / "a.txt", kHeader + "An abstract about aardvarks and their burrows.\n");
  ASSERT_EQ(abstracts({"index", "--quiet", (dir_ / "a.txt").string()}).status, 0);
  damage_value(index(), schema::kStoredSlot, [](std::string& v) { v[v.size() / 2] ^= 0x20; });
  auto r = abstracts({"search", "--json", "aardvarks"});
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_TRUE(contains(r.err, "error: ")) << r.err;
  EXPECT_TRUE(r.out.empty()) << "no garbled hit: " << r.out;
}

TEST_F(Issue16, MissingPositionsAreAnErrorNotNoHits) {
  write_file(dir_ / "a.txt", kHeader + "An abstract about aardvark burrows.\n");
  ASSERT_EQ(abstracts({"index", "--quiet", (dir_ / "a.txt").string()}).status, 0);
  damage_value(index(), schema::kPositionsSlot, [](std::string& v) { v.clear(); });
  auto r = abstracts({"search", "\"aardvark burrows\""});
  EXPECT_EQ(r.status, 2) << r.out << r.err;
  EXPECT_TRUE(contains(r.err, "error: ")) << r.err;
}

// ---------------------------------------------------------------------------
// 9. Output cannot be forged by a file name; a link loop is no reason to stop.

TEST_F(Issue16, ControlCharactersInPathsAreEscaped) {
  const std::string name = "evil\x1b[2J\x07\nname.txt";
  write_file(dir_ / name, kHeader + "An abstract about aardvarks.\n");
  ASSERT_EQ(abstracts({"index", "--quiet", (dir_ / name).string()}).status, 0);
  auto r = abstracts({"search", "--color", "never", "aardvarks"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_FALSE(contains(r.out, "\x1b")) << r.out;
  EXPECT_FALSE(contains(r.out, "\x07")) << r.out;
  EXPECT_TRUE(contains(r.out, "evil\\x1b[2J\\x07\\x0aname.txt:2")) << r.out;
}

TEST_F(Issue16, SymlinkLoopIsSkippedWithAWarning) {
  write_file(dir_ / "papers" / "a.txt", kHeader + "An abstract about aardvarks.\n");
  fs::create_symlink("loop", dir_ / "papers" / "loop");
  auto r = abstracts({"index", (dir_ / "papers").string()});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(contains(r.err, "warning: ")) << r.err;
  EXPECT_TRUE(contains(r.err, "loop")) << r.err;
  EXPECT_EQ(count(), 1u);
}

// ---------------------------------------------------------------------------
// 8. Bounded memory: a large file goes into a copy of the index, in batches, and
// is still all or nothing.

TEST_F(Issue16, LargeFileIntoAnIndexIsAllOrNothing) {
  write_file(dir_ / "a.txt", kHeader + "An abstract about aardvarks.\n");
  ASSERT_EQ(abstracts({"index", "--quiet", (dir_ / "a.txt").string()}).status, 0);
  std::string big = kHeader;
  for (int i = 0; i < 12000; ++i) big += "Abstract number " + std::to_string(i) + " about the okapi.\n";
  write_file(dir_ / "big.txt", big + "A last line that is not UTF-8: \xff.\n");
  auto r = abstracts({"index", (dir_ / "big.txt").string()});
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(contains(r.err, "big.txt:12002")) << r.err;
  EXPECT_EQ(count(), 1u) << "a bad line leaves the index as it was";
  write_file(dir_ / "big.txt", big);
  r = abstracts({"index", (dir_ / "big.txt").string()});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(count(), 12001u);
  EXPECT_EQ(hits("aardvarks").size(), 1u);
  std::size_t generations = 0;
  for (const auto& e : fs::directory_iterator(index())) generations += e.path().filename().string().starts_with("gen-");
  EXPECT_EQ(generations, 1u) << "the copy replaced the old generation";
}

// Hits are fetched 5,000 at a time (memory for `--limit 100000` held 219-247
// MB): the pages join into one ranking, without gaps or repeats.
TEST_F(Issue16, LimitOverOnePageRanksWithoutGapsOrRepeats) {
  std::string text = kHeader;
  for (int i = 0; i < 5600; ++i) {
    text += "Abstract " + std::to_string(i) + " about the okapi" + std::string(i % 7, '!') +
            (i % 3 == 0 ? " and the okapi's stripes.\n" : ".\n");
  }
  write_file(dir_ / "many.txt", text);
  ASSERT_EQ(abstracts({"index", "--quiet", (dir_ / "many.txt").string()}).status, 0);
  auto r = abstracts({"search", "--json", "--limit", "5300", "okapi"});
  ASSERT_EQ(r.status, 0) << r.err;
  std::vector<std::string> ids;
  int rank = 0;
  for (const auto& line : lines(r.out)) {
    json j = json::parse(line);
    EXPECT_EQ(j.at("rank").get<int>(), ++rank);
    ids.push_back(j.at("id").get<std::string>());
  }
  EXPECT_EQ(ids.size(), 5300u);
  std::sort(ids.begin(), ids.end());
  EXPECT_EQ(std::unique(ids.begin(), ids.end()), ids.end()) << "a hit repeated across pages";
}

}  // namespace
}  // namespace abstracts::testing::reliability_test
