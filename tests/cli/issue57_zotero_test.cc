// Issue 57: a Zotero library through the real binary. An edit in the same
// second as the last (dateModified and version as they were) is seen; the
// private copies of the library in $TMPDIR are 0700, removed when a run is
// ended by a signal, and swept after a kill -9; an item with a hundred
// thousand tags keeps the first thousand; and what is said of bad databases.
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "tests/support/test_support.h"
#include "tests/support/zotero_library.h"

namespace abstracts::testing::issue57_zotero_test {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;
using Clock = std::chrono::steady_clock;

class Issue57Zotero : public ::testing::Test {
 protected:
  std::map<std::string, std::string> env() const {
    auto e = sandbox_env(dir_.path());
    e["TMPDIR"] = tmp_.string();
    return e;
  }
  RunResult abstracts(std::vector<std::string> args) const {
    args.insert(args.begin(), {"--index", (dir_ / "index").string()});
    return run_abstracts(args, env(), dir_.path());
  }
  std::size_t count(const std::string& query) const {
    const auto r = abstracts({"search", "--count", "--no-correct", "--", query});
    EXPECT_LE(r.status, 1) << r.err;
    return r.status <= 1 ? std::stoul(r.out) : 0;
  }
  // The folders in $TMPDIR: a run's copies of the library.
  std::vector<fs::path> copies() const {
    std::vector<fs::path> out;
    for (const auto& e : fs::directory_iterator(tmp_)) out.push_back(e.path());
    return out;
  }
  // Those of them that have their name: made and held.
  std::vector<fs::path> named_copies() const {
    std::vector<fs::path> out;
    for (auto& p : copies()) {
      if (p.filename().string().starts_with("abstracts-zotero-")) out.push_back(p);
    }
    return out;
  }
  fs::path database() const { return dir_ / "zotero" / "zotero.sqlite"; }

  void SetUp() override { fs::create_directories(tmp_); }

  TempDir dir_;
  fs::path tmp_ = dir_ / "tmp";
};

// Finding 3: an edit that leaves dateModified and version as they were (two
// saves in one second; Zotero keeps version for local edits) is seen, for any
// dateModified.
TEST_F(Issue57Zotero, AnEditInTheSameSecondIsSeen) {
  ZoteroLibrary lib(database());
  const auto item = lib.add_item("AAAA1111", "One mammal", "A first text about okapis.", "2021-05-05 10:00:00");
  lib.add_item("BBBB2222", "Tapirs", "Tapirs in the forest.", "2021-05-05 10:00:00");
  ASSERT_EQ(abstracts({"index", database().string()}).status, 0);
  lib.set_field(item, "abstractNote", "A second text about quokkas.");
  auto r = abstracts({"index"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(contains(r.err, "1 new or changed")) << r.err;
  EXPECT_EQ(count("quokkas"), 1u);
  EXPECT_EQ(count("okapis"), 0u);
  // Edited back, in the same second again: the first text returns.
  lib.set_field(item, "abstractNote", "A first text about okapis.");
  ASSERT_EQ(abstracts({"index"}).status, 0);
  EXPECT_EQ(count("quokkas"), 0u);
  EXPECT_EQ(count("okapis"), 1u);
  // A tag given, and a collection renamed, likewise.
  lib.exec("INSERT INTO tags (name) VALUES ('zebu'); INSERT INTO itemTags SELECT " + std::to_string(item) +
           ", tagID, 0 FROM tags WHERE name = 'zebu';"
           "INSERT INTO collections (collectionID, collectionName, libraryID, key) VALUES (1, 'Reading', 1, 'COLL0001');"
           "INSERT INTO collectionItems (collectionID, itemID) VALUES (1, " + std::to_string(item) + ");");
  ASSERT_EQ(abstracts({"index"}).status, 0);
  EXPECT_EQ(count("tag:zebu"), 1u);
  EXPECT_EQ(count("collection:Reading"), 1u);
  lib.exec("UPDATE collections SET collectionName = 'Thesis' WHERE collectionID = 1");
  ASSERT_EQ(abstracts({"index"}).status, 0);
  EXPECT_EQ(count("collection:Thesis"), 1u);
  EXPECT_EQ(count("collection:Reading"), 0u);
  // Nothing changed: nothing read.
  r = abstracts({"index"});
  EXPECT_TRUE(contains(r.err, "0 new or changed, 1 unchanged")) << r.err;
}

// A library big enough that its first sync takes a while to copy and read.
void fill_library(ZoteroLibrary& lib, int items) {
  lib.exec("BEGIN");
  for (int i = 0; i < items; ++i) {
    std::string text = "Abstract " + std::to_string(i) + " about pangolins";
    for (int w = 0; w < 40; ++w) text += " word" + std::to_string((i * 41 + w) % 997);
    lib.add_item("K" + std::to_string(1000000 + i), "Title " + std::to_string(i), text + ".");
  }
  lib.exec("COMMIT");
}

// Finding 7: a first sync ended by SIGINT, SIGTERM or SIGHUP leaves no copy of
// the library behind; one killed by SIGKILL leaves one, which the next run removes.
TEST_F(Issue57Zotero, CopiesOfTheLibraryArePrivateAndNeverLeftBehind) {
  {
    ZoteroLibrary lib(database());
    fill_library(lib, 20000);
  }
  for (int signal : {SIGINT, SIGTERM, SIGHUP, SIGKILL}) {
    SCOPED_TRACE(strsignal(signal));
    fs::remove_all(dir_ / "index");
    SpawnArgs args(ABSTRACTS_BIN, {"--index", (dir_ / "index").string(), "index", "-q", database().string()}, env());
    // The signals' default actions in the child, whatever this process was
    // started with (a shell's background job ignores SIGINT, which the child
    // would inherit and rightly keep ignoring).
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    sigset_t defaults;
    sigemptyset(&defaults);
    for (int s : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&defaults, s);
    posix_spawnattr_setsigdefault(&attr, &defaults);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF);
    pid_t pid = 0;
    const int spawned = posix_spawn(&pid, ABSTRACTS_BIN, nullptr, &attr, args.argv(), args.envp());
    posix_spawnattr_destroy(&attr);
    ASSERT_EQ(spawned, 0);
    ChildProcess sync(pid);
    // Once the copy is there (its name shown only once it is held).
    const auto start = Clock::now();
    std::vector<fs::path> made;
    while ((made = named_copies()).empty() && Clock::now() - start < std::chrono::seconds(60)) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    ASSERT_EQ(made.size(), 1u);
    struct stat st {};
    ASSERT_EQ(::stat(made[0].c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0700u) << made[0];
    const int status = sync.stop(signal);
    if (!WIFSIGNALED(status)) {
      // It finished first: nothing to learn from this round.
      ADD_FAILURE() << "the sync ended before the signal came; status " << status;
      continue;
    }
    EXPECT_EQ(WTERMSIG(status), signal);
    if (signal != SIGKILL) {
      EXPECT_TRUE(copies().empty()) << copies().at(0);
      continue;
    }
    ASSERT_EQ(copies().size(), 1u) << "kill -9 leaves the copy to the next run";
    // The next run of the tool that indexes removes it, whatever it indexes.
    write_file(dir_ / "other.txt", "NeurIPS 2026 Papers\nAbout numbats.\n");
    const auto r = run_abstracts({"--index", (dir_ / "other").string(), "index", "other.txt"}, env(), dir_.path());
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(copies().empty());
  }
}

// Finding 8: a hundred thousand tags on one item. The record keeps the first
// thousand by name; each is a tag: filter.
TEST_F(Issue57Zotero, AnItemKeepsTheFirstThousandTags) {
  ZoteroLibrary lib(database());
  const auto item = lib.add_item("TAGS0001", "Tagged", "An abstract about many tags.");
  lib.add_tags(item, 100000);
  lib.close();
  const auto r = abstracts({"index", database().string()});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(count("tag:tag0000000"), 1u);
  EXPECT_EQ(count("tag:tag0000999"), 1u);
  EXPECT_EQ(count("tag:tag0001000"), 0u);
  const auto hit = abstracts({"search", "--json", "tag:tag0000000"});
  ASSERT_EQ(hit.status, 0) << hit.err;
  EXPECT_EQ(json::parse(lines(hit.out).at(0)).at("tags").size(), 1000u) << hit.out.substr(0, 300);
}

// Finding 14: what is said of an item over the record cap names its key, one
// with a NUL byte shown escaped; a userdata version that is no number; a file
// that is not a database names its path once.
TEST_F(Issue57Zotero, WhatIsSaidOfBadItemsAndDatabases) {
  {
    ZoteroLibrary lib(database());
    lib.add_item("GOOD0001", "Good", "A good abstract about wombats.");
    lib.add_item("HUGE0001", "Huge", "An abstract about bandicoots " + std::string(17 << 20, 'x'));
    lib.add_item(std::string("NUL\0KEY1", 8), "Nul", std::string("A field with a NUL\0 byte.", 25));
  }
  auto r = abstracts({"index", database().string()});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(contains(r.err, "Zotero item \"HUGE0001\" (itemID 2): more than 16 MiB of fields")) << r.err;
  EXPECT_TRUE(contains(r.err, "Zotero item \"NUL\\x00KEY1\" (itemID 3): a field holds a NUL byte")) << r.err;
  EXPECT_EQ(count("wombats"), 1u);

  {
    ZoteroLibrary lib(dir_ / "abc" / "zotero.sqlite");
    lib.exec("UPDATE version SET version = 'abc' WHERE schema = 'userdata'");
  }
  r = abstracts({"index", (dir_ / "abc" / "zotero.sqlite").string()});
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(contains(r.err, "its userdata version is \"abc\", not a version number")) << r.err;
  EXPECT_FALSE(contains(r.err, "Zotero 4")) << r.err;

  const fs::path damaged = dir_ / "damaged" / "zotero.sqlite";
  write_file(damaged, std::string("SQLite format 3\0", 16) + std::string(8192, '\xff'));
  r = abstracts({"index", damaged.string()});
  EXPECT_EQ(r.status, 2);
  const std::string first_line = r.err.substr(0, r.err.find('\n'));
  EXPECT_TRUE(contains(first_line, damaged.string())) << r.err;
  EXPECT_FALSE(contains(first_line.substr(first_line.find(damaged.string()) + 1), damaged.string())) << r.err;
}

// Finding 14: a profiles.ini that is a FIFO (or a device) is not read, where
// reading it would wait for ever.
TEST_F(Issue57Zotero, AProfilesIniThatIsAFifoDoesNotHang) {
  const fs::path profiles = dir_ / "home" / ".zotero" / "zotero" / "profiles.ini";
  fs::create_directories(profiles.parent_path());
  ASSERT_EQ(::mkfifo(profiles.c_str(), 0600), 0);
  auto e = env();
  e["HOME"] = (dir_ / "home").string();
  const auto r = run_with_limit(std::chrono::seconds(60), ABSTRACTS_BIN,
                                {"--index", (dir_ / "index").string(), "index", "--zotero"}, e, dir_.path());
  EXPECT_FALSE(r.timed_out) << "reading the FIFO hung";
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_TRUE(contains(r.err, "no Zotero database found")) << r.err;
}

}  // namespace
}  // namespace abstracts::testing::issue57_zotero_test
