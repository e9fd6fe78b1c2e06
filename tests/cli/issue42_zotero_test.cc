// Issue 42: Zotero's own database as a source, through the real binary: every
// live item with an abstract found by its title, first creator, DOI, tags and
// collections, counted independently by SQL; trashed items never found;
// re-syncs that read only what changed; a sync while a process holds the
// database as Zotero does, which leaves its file byte for byte as it was.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "tests/support/test_support.h"

namespace abstracts::testing::issue42_zotero_test {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

const fs::path kZotero = fs::path(ABSTRACTS_SHARED_DATA_DIR) / "zotero";

// Rows of `sql` on the database at `path` (a copy: the shared files are read-only).
std::vector<std::vector<std::string>> rows(const fs::path& path, const std::string& sql) {
  sqlite3* db = nullptr;
  std::vector<std::vector<std::string>> out;
  if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
    ADD_FAILURE() << sqlite3_errmsg(db);
    sqlite3_close(db);
    return out;
  }
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK) {
    ADD_FAILURE() << sqlite3_errmsg(db) << ": " << sql;
  } else {
    while (sqlite3_step(stmt) == SQLITE_ROW) {
      auto& row = out.emplace_back();
      for (int i = 0; i < sqlite3_column_count(stmt); ++i) {
        const auto* text = sqlite3_column_text(stmt, i);
        row.emplace_back(text == nullptr ? "" : reinterpret_cast<const char*>(text));
      }
    }
  }
  sqlite3_finalize(stmt);
  sqlite3_close(db);
  return out;
}

// The live regular items with an abstract: not notes, attachments or
// annotations, not in the trash, not in a feed.
const std::string kLive =
    "FROM items i JOIN itemTypesCombined t ON t.itemTypeID = i.itemTypeID "
    "JOIN libraries l ON l.libraryID = i.libraryID "
    "WHERE t.typeName NOT IN ('note', 'attachment', 'annotation') AND l.type != 'feed' "
    "AND i.itemID NOT IN (SELECT itemID FROM deletedItems) ";

std::string field(const std::string& name) {
  return "(SELECT v.value FROM itemData d JOIN fieldsCombined f ON f.fieldID = d.fieldID "
         "JOIN itemDataValues v ON v.valueID = d.valueID WHERE d.itemID = i.itemID AND f.fieldName = '" +
         name + "')";
}

class Issue42 : public ::testing::Test {
 protected:
  RunResult abstracts(std::vector<std::string> args) const {
    args.insert(args.begin(), {"--index", (dir_ / "index").string()});
    return run_abstracts(args, sandbox_env(dir_.path()), dir_.path());
  }

  // The Zotero keys of the hits of `query`.
  std::set<std::string> keys(const std::string& query) const {
    const auto r = abstracts({"search", "--json", "--limit", "0", "--no-correct", "--", query});
    EXPECT_LE(r.status, 1) << query << ": " << r.err;
    std::set<std::string> out;
    for (const auto& line : lines(r.out)) out.insert(json::parse(line).at("zotero_key").get<std::string>());
    return out;
  }

  // The Zotero keys of the hits of each query, run as one batch (`search
  // --queries`, one process where a search each would start thousands).
  std::vector<std::set<std::string>> keys(const std::vector<std::string>& queries) const {
    std::string batch;
    for (std::size_t i = 0; i < queries.size(); ++i) batch += std::to_string(i) + "\t" + queries[i] + "\n";
    write_file(dir_ / "queries.tsv", batch);
    const auto r = abstracts({"search", "--json", "--limit", "0", "--no-correct", "--queries",
                              (dir_ / "queries.tsv").string()});
    EXPECT_LE(r.status, 1) << r.err;
    EXPECT_FALSE(contains(r.err, "error:")) << r.err;
    std::vector<std::set<std::string>> out(queries.size());
    for (const auto& line : lines(r.out)) {
      const auto hit = json::parse(line);
      out.at(std::stoul(hit.at("query").get<std::string>())).insert(hit.at("zotero_key").get<std::string>());
    }
    return out;
  }

  // A writable copy of a shared database.
  fs::path copy_of(const std::string& name) const {
    const fs::path to = dir_ / "home" / "Zotero" / "zotero.sqlite";
    fs::create_directories(to.parent_path());
    fs::copy_file(kZotero / name, to, fs::copy_options::overwrite_existing);
    fs::permissions(to, fs::perms::owner_write, fs::perm_options::add);
    return to;
  }

  TempDir dir_;
};

// Quoted for the query language: a phrase of the title's words.
std::string phrase(const std::string& text) {
  std::string out;
  for (char c : text) out += (c == '"' || c == '\\' || c == '(' || c == ')' || c == '\t' || c == '\n' || c == '\r') ? ' ' : c;
  return "\"" + out + "\"";
}

// Quoted whole, as a tag or collection is written ("Rendering (computer graphics)").
std::string quoted(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += (c == '\t' || c == '\n' || c == '\r') ? ' ' : c;
  }
  return "\"" + out + "\"";
}

TEST_F(Issue42, EveryLiveItemWithAnAbstractIsFoundByWhatItHas) {
  if (!fs::exists(kZotero)) GTEST_SKIP() << "no shared data at " << kZotero;
  for (const auto& entry : fs::directory_iterator(kZotero)) {
    if (entry.path().extension() != ".sqlite") continue;
    SCOPED_TRACE(entry.path().filename().string());
    const fs::path db = copy_of(entry.path().filename().string());
    fs::remove_all(dir_ / "index");
    auto r = abstracts({"index", db.string()});
    ASSERT_EQ(r.status, 0) << r.err;
    const auto items = rows(db, "SELECT i.key, " + field("title") + ", " + field("DOI") + ", " + field("extra") + " " +
                                    kLive + "AND trim(coalesce(" + field("abstractNote") + ", '')) != ''");
    std::set<std::string> all;
    for (const auto& item : items) all.insert(item[0]);
    // Counted as SQL counts them: each record read (items of one DOI are one
    // abstract, which shows one of them: the others' keys are found through it).
    EXPECT_TRUE(contains(r.err, "(" + std::to_string(items.size()) + " records)")) << r.err;
    const auto every = keys("-zzqqxxnothing");
    // Each check's query, asked in one batch; then what each must find.
    std::vector<std::string> queries;
    std::vector<std::function<void(const std::set<std::string>&)>> checks;
    std::size_t found_by_title = 0;
    for (const auto& item : items) {
      const std::string key = item[0];
      if (!item[1].empty()) {
        queries.push_back("title:" + phrase(item[1]));
        checks.push_back([&, key, title = item[1]](const std::set<std::string>& hits) {
          // Two items of one paper show one record: found through its twin.
          if (hits.count(key) != 0) ++found_by_title;
          else if (every.count(key) != 0) ADD_FAILURE() << key << " not found by its title " << title;
        });
      }
      std::string doi = item[2];
      if (doi.empty()) {  // a DOI only in Extra
        for (const auto& line : lines(item[3])) {
          if (line.rfind("DOI:", 0) == 0) doi = line.substr(4);
        }
      }
      while (!doi.empty() && doi.front() == ' ') doi.erase(0, 1);
      if (!doi.empty()) {
        queries.push_back(doi);
        checks.push_back([key, doi](const std::set<std::string>& hits) {
          EXPECT_FALSE(hits.empty()) << key << ": not found by its DOI " << doi;
        });
      }
    }
    // Authors: each item's first creator, by family name (or one-field name).
    const auto first = rows(db,
                            "SELECT i.key, c.lastName FROM items i JOIN itemCreators ic ON ic.itemID = i.itemID "
                            "JOIN creators c ON c.creatorID = ic.creatorID JOIN creatorTypes ct ON "
                            "ct.creatorTypeID = ic.creatorTypeID WHERE ic.orderIndex = (SELECT min(orderIndex) FROM "
                            "itemCreators x JOIN creatorTypes y ON y.creatorTypeID = x.creatorTypeID WHERE x.itemID = "
                            "i.itemID AND y.creatorType = 'author') AND ct.creatorType = 'author'");
    // `query` must find the item `key`.
    const auto must_find = [&](const std::string& key, const std::string& query) {
      queries.push_back(query);
      checks.push_back([key, query](const std::set<std::string>& hits) {
        EXPECT_EQ(hits.count(key), 1u) << key << ": " << query;
      });
    };
    for (const auto& row : first) {
      if (every.count(row[0]) != 0 && !row[1].empty()) must_find(row[0], "author:" + phrase(row[1]));
    }
    // Tags and collections.
    for (const auto& row : rows(db, "SELECT i.key, t.name FROM items i JOIN itemTags it ON it.itemID = i.itemID "
                                    "JOIN tags t ON t.tagID = it.tagID")) {
      if (every.count(row[0]) != 0) must_find(row[0], "tag:" + quoted(row[1]));
    }
    for (const auto& row : rows(db, "SELECT i.key, c.collectionName FROM items i JOIN collectionItems ci ON "
                                    "ci.itemID = i.itemID JOIN collections c ON c.collectionID = ci.collectionID "
                                    "WHERE c.parentCollectionID IS NULL")) {
      if (every.count(row[0]) != 0) must_find(row[0], "collection:" + quoted(row[1]));
    }
    const auto hits = keys(queries);
    for (std::size_t i = 0; i < checks.size(); ++i) checks[i](hits[i]);
    EXPECT_GT(found_by_title, 0u);
    // Every abstract is a live item's, and no live item with an abstract is missing but a twin's.
    for (const auto& key : every) EXPECT_EQ(all.count(key), 1u) << key << " is no live item with an abstract";
    // The trash is never found.
    for (const auto& row : rows(db, "SELECT i.key FROM items i JOIN deletedItems d ON d.itemID = i.itemID")) {
      EXPECT_EQ(every.count(row[0]), 0u) << row[0] << " is in the trash";
    }
    // A hit opens in Zotero.
    r = abstracts({"search", "--json", "--limit", "1", "--", "-zzqqxxnothing"});
    if (!every.empty()) {
      const auto hit = json::parse(lines(r.out).at(0));
      EXPECT_TRUE(hit.at("zotero_link").get<std::string>().starts_with("zotero://select/")) << hit.dump();
    }
  }
}

TEST_F(Issue42, ChineseTitlesAndOneFieldNamesAreSearchable) {
  if (!fs::exists(kZotero / "yuanluochen--Zotero.sqlite")) GTEST_SKIP() << "no shared data at " << kZotero;
  const fs::path db = copy_of("yuanluochen--Zotero.sqlite");
  ASSERT_EQ(abstracts({"index", db.string()}).status, 0);
  const auto chinese = rows(db, "SELECT i.key, " + field("title") + " " + kLive +
                                    "AND trim(coalesce(" + field("abstractNote") + ", '')) != '' AND " +
                                    field("title") + " GLOB '*[一-龥]*'");
  ASSERT_FALSE(chinese.empty());
  for (const auto& row : chinese) EXPECT_EQ(keys("title:" + phrase(row[1])).count(row[0]), 1u) << row[1];
  const auto one_field = rows(db, "SELECT i.key, c.lastName FROM items i JOIN itemCreators ic ON ic.itemID = "
                                  "i.itemID JOIN creators c ON c.creatorID = ic.creatorID JOIN itemTypeCreatorTypes p ON "
                                  "p.itemTypeID = i.itemTypeID AND p.creatorTypeID = ic.creatorTypeID AND "
                                  "p.primaryField = 1 WHERE c.fieldMode = 1 "
                                  "AND i.itemID NOT IN (SELECT itemID FROM deletedItems) AND trim(coalesce(" +
                                      field("abstractNote") + ", '')) != ''");
  ASSERT_FALSE(one_field.empty());
  for (const auto& row : one_field) EXPECT_EQ(keys("author:" + phrase(row[1])).count(row[0]), 1u) << row[1];
}

// A re-sync reads what changed: an abstract edited, an item trashed, one added.
TEST_F(Issue42, AResyncFollowsEditsTrashAndNewItems) {
  if (!fs::exists(kZotero)) GTEST_SKIP() << "no shared data at " << kZotero;
  const fs::path db = copy_of("ganeshbelgur--zotero-sync.sqlite");
  ASSERT_EQ(abstracts({"index", db.string()}).status, 0);
  auto r = abstracts({"index"});
  EXPECT_TRUE(contains(r.err, "0 new or changed, 1 unchanged")) << r.err;
  const auto item = rows(db, "SELECT i.itemID, i.key " + kLive + "AND trim(coalesce(" + field("abstractNote") +
                                 ", '')) != '' ORDER BY i.itemID LIMIT 2");
  ASSERT_EQ(item.size(), 2u);
  sqlite3* w = nullptr;
  ASSERT_EQ(sqlite3_open(db.c_str(), &w), SQLITE_OK);
  auto exec = [&](const std::string& sql) { EXPECT_EQ(sqlite3_exec(w, sql.c_str(), nullptr, nullptr, nullptr), SQLITE_OK) << sqlite3_errmsg(w); };
  exec("INSERT INTO itemDataValues (value) VALUES ('An edited abstract about quokkas.')");
  exec("UPDATE itemData SET valueID = last_insert_rowid() WHERE itemID = " + item[0][0] +
       " AND fieldID = (SELECT fieldID FROM fieldsCombined WHERE fieldName = 'abstractNote')");
  exec("UPDATE items SET version = version + 1, dateModified = '2030-01-01 00:00:00' WHERE itemID = " + item[0][0]);
  exec("INSERT INTO deletedItems (itemID) VALUES (" + item[1][0] + ")");
  sqlite3_close(w);
  r = abstracts({"index"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(keys("quokkas"), std::set<std::string>{item[0][1]});
  EXPECT_EQ(keys("-zzqqxxnothing").count(item[1][1]), 0u) << "trashed since the last sync";
}

// Zotero holds its database in exclusive locking mode: a process does so here,
// mid-transaction, while the index syncs; the file stays byte for byte as it was.
TEST_F(Issue42, ASyncWhileZoteroHoldsTheDatabaseChangesNothingOfIt) {
  if (!fs::exists(kZotero)) GTEST_SKIP() << "no shared data at " << kZotero;
  const fs::path db = copy_of("gglin001--Zotero.sqlite");
  int ready[2];
  ASSERT_EQ(pipe(ready), 0);
  const pid_t pid = fork();
  if (pid == 0) {
    sqlite3* w = nullptr;
    sqlite3_open(db.c_str(), &w);
    sqlite3_exec(w, "PRAGMA locking_mode = EXCLUSIVE; BEGIN IMMEDIATE; "
                    "UPDATE items SET version = version + 100; INSERT INTO deletedItems (itemID) "
                    "SELECT itemID FROM items LIMIT 3;",
                 nullptr, nullptr, nullptr);
    (void)!write(ready[1], "x", 1);
    pause();  // holds the lock, mid-transaction, until killed
    _exit(0);
  }
  ChildProcess zotero(pid);
  char c;
  const auto got = read(ready[0], &c, 1);
  close(ready[0]);
  close(ready[1]);
  ASSERT_EQ(got, 1);
  const std::string before = read_file(db);
  const bool journal = fs::exists(db.string() + "-journal");
  const std::string journal_before = journal ? read_file(db.string() + "-journal") : "";
  const auto r = abstracts({"index", db.string()});
  const std::string after = read_file(db);
  zotero.stop(SIGKILL);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(before == after) << "the database file changed";
  if (journal) { EXPECT_TRUE(journal_before == read_file(db.string() + "-journal")); }
  // As it was before the transaction: the trash of the uncommitted one is not seen.
  const auto live = rows(db, "SELECT count(*) " + kLive + "AND trim(coalesce(" + field("abstractNote") +
                                 ", '')) != ''");
  EXPECT_TRUE(contains(r.err, "(" + live.at(0).at(0) + " records)")) << r.err;
}

// A SQLite file that is no Zotero database, or a cut-off copy of one, is said
// to be what it is (not "a binary file"), and the files beside it are indexed.
TEST_F(Issue42, ASqliteFileThatIsNoZoteroDatabaseIsSaidToBeSo) {
  if (!fs::exists(kZotero)) GTEST_SKIP() << "no shared data at " << kZotero;
  const fs::path other = dir_ / "other.sqlite", cut = dir_ / "cut.sqlite", good = dir_ / "good.txt";
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(other.c_str(), &db), SQLITE_OK);
  sqlite3_exec(db, "CREATE TABLE t (a)", nullptr, nullptr, nullptr);
  sqlite3_close(db);
  write_file(cut, read_file(kZotero / "gglin001--Zotero.sqlite").substr(0, 100000));
  write_file(good, "NeurIPS 2026 Papers\nAbout numbats.\n");
  const auto r = abstracts({"index", other.string(), cut.string(), good.string()});
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(contains(r.err, "other.sqlite: a SQLite database but not Zotero's")) << r.err;
  EXPECT_TRUE(contains(r.err, "cut.sqlite: damaged")) << r.err;
  EXPECT_FALSE(contains(r.err, "binary file")) << r.err;
  EXPECT_EQ(abstracts({"search", "--count", "numbats"}).out, "1\n");
}

TEST_F(Issue42, IndexZoteroFindsTheDataDirectoryAsZoteroDoes) {
  if (!fs::exists(kZotero)) GTEST_SKIP() << "no shared data at " << kZotero;
  copy_of("Chasing-Aurora--Paper.sqlite");  // ~/Zotero/zotero.sqlite (HOME is the sandbox's home)
  auto r = abstracts({"index", "--zotero"});
  EXPECT_EQ(r.status, 0) << r.err;
  const auto listed = abstracts({"sources", "--json"});
  ASSERT_EQ(lines(listed.out).size(), 1u) << listed.out;
  EXPECT_EQ(json::parse(listed.out).at("kind"), "zotero");
  fs::remove_all(dir_ / "home" / "Zotero");
  r = abstracts({"index", "--zotero"});
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(contains(r.err, "no Zotero database found")) << r.err;
}

// --watch notices a change to the database and syncs it.
TEST_F(Issue42, WatchSyncsTheDatabaseWhenItChanges) {
  if (!fs::exists(kZotero)) GTEST_SKIP() << "no shared data at " << kZotero;
  const fs::path db = copy_of("ganeshbelgur--zotero-sync.sqlite");
  ASSERT_EQ(abstracts({"index", db.string()}).status, 0);
  SpawnArgs args(ABSTRACTS_BIN, {"--index", (dir_ / "index").string(), "index", "--watch"}, sandbox_env(dir_.path()));
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 2, (dir_ / "watch.log").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  pid_t pid = 0;
  const int spawned = posix_spawn(&pid, ABSTRACTS_BIN, &actions, nullptr, args.argv(), args.envp());
  posix_spawn_file_actions_destroy(&actions);
  ASSERT_EQ(spawned, 0);
  ChildProcess watcher(pid);
  for (int i = 0; i < 300 && !contains(read_file(dir_ / "watch.log"), "watching"); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  const auto item = rows(db, "SELECT i.itemID, i.key " + kLive + "AND trim(coalesce(" + field("abstractNote") +
                                 ", '')) != '' ORDER BY i.itemID LIMIT 1");
  sqlite3* w = nullptr;
  ASSERT_EQ(sqlite3_open(db.c_str(), &w), SQLITE_OK);
  sqlite3_exec(w, ("INSERT INTO itemDataValues (value) VALUES ('Watched abstract about bilbies.'); "
                   "UPDATE itemData SET valueID = last_insert_rowid() WHERE itemID = " + item.at(0).at(0) +
                   " AND fieldID = (SELECT fieldID FROM fieldsCombined WHERE fieldName = 'abstractNote'); "
                   "UPDATE items SET version = version + 1 WHERE itemID = " + item.at(0).at(0))
                      .c_str(),
               nullptr, nullptr, nullptr);
  sqlite3_close(w);
  const auto start = std::chrono::steady_clock::now();
  bool found = false;
  while (!found && std::chrono::steady_clock::now() - start < std::chrono::seconds(30)) {
    found = keys("bilbies").count(item.at(0).at(1)) == 1;
    if (!found) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  const int status = watcher.stop(SIGINT);
  EXPECT_TRUE(found) << read_file(dir_ / "watch.log");
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

}  // namespace
}  // namespace abstracts::testing::issue42_zotero_test
