// Tests of the Zotero reader (indexer/zotero.h) on real Zotero databases: the
// shared ones (../shared/data/zotero/, Zotero 5 to 9), checked against what SQL
// over a copy says; copies changed by SQL for the cases they lack; a snapshot
// taken while another process holds the database as Zotero does; Zotero's data
// directory found under a fake home.
#include "indexer/zotero.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <strings.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "abstracts/error.h"
#include "indexer/markup.h"
#include "tests/support/test_support.h"

namespace abstracts::indexer::zotero {
namespace zotero_test {
namespace {

namespace fs = std::filesystem;
using abstracts::testing::contains;
using abstracts::testing::read_file;
using abstracts::testing::TempDir;
using abstracts::testing::write_file;

fs::path shared_dir() { return fs::path(ABSTRACTS_SHARED_DATA_DIR) / "zotero"; }

std::vector<fs::path> shared_databases() {
  std::vector<fs::path> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(shared_dir(), ec)) {
    if (e.path().extension() == ".sqlite") out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

#define SKIP_WITHOUT_SHARED_DATABASES()                       \
  if (shared_databases().empty()) {                           \
    GTEST_SKIP() << "no Zotero databases in " << shared_dir() \
                 << " (the shared data is not checked out)";  \
  }

// A SQLite connection of the test's own, to say what a database holds.
class Sql {
 public:
  explicit Sql(const fs::path& file) {
    if (sqlite3_open(file.c_str(), &db_) != SQLITE_OK) ADD_FAILURE() << "cannot open " << file;
  }
  ~Sql() { sqlite3_close(db_); }
  Sql(const Sql&) = delete;
  Sql& operator=(const Sql&) = delete;

  void exec(const std::string& sql) {
    char* message = nullptr;
    if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &message) != SQLITE_OK) {
      ADD_FAILURE() << sql << ": " << (message != nullptr ? message : "?");
      sqlite3_free(message);
    }
  }
  // The rows of `sql`, each column as text ("" for NULL); `?`s bound to `params`.
  std::vector<std::vector<std::string>> rows(const std::string& sql,
                                             const std::vector<std::string>& params = {}) {
    std::vector<std::vector<std::string>> out;
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK) {
      ADD_FAILURE() << sql << ": " << sqlite3_errmsg(db_);
      return out;
    }
    for (std::size_t i = 0; i < params.size(); ++i) {
      sqlite3_bind_text(stmt, static_cast<int>(i + 1), params[i].data(),
                        static_cast<int>(params[i].size()), SQLITE_TRANSIENT);
    }
    while (sqlite3_step(stmt) == SQLITE_ROW) {
      std::vector<std::string> row;
      for (int c = 0; c < sqlite3_column_count(stmt); ++c) {
        const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(stmt, c));
        row.emplace_back(
            p != nullptr ? std::string(p, static_cast<std::size_t>(sqlite3_column_bytes(stmt, c)))
                         : "");
      }
      out.push_back(std::move(row));
    }
    sqlite3_finalize(stmt);
    return out;
  }
  std::string value(const std::string& sql, const std::vector<std::string>& params = {}) {
    auto r = rows(sql, params);
    return r.empty() || r[0].empty() ? std::string() : r[0][0];
  }
  std::vector<std::string> column(const std::string& sql,
                                  const std::vector<std::string>& params = {}) {
    std::vector<std::string> out;
    for (auto& r : rows(sql, params)) out.push_back(r.at(0));
    return out;
  }

 private:
  sqlite3* db_ = nullptr;
};

// A writable copy of `database` in `dir`, as zotero.sqlite.
fs::path copy_of(const fs::path& database, const TempDir& dir,
                 const std::string& name = "zotero.sqlite") {
  const fs::path copy = dir / name;
  fs::create_directories(copy.parent_path());
  fs::copy_file(database, copy, fs::copy_options::overwrite_existing);
  fs::permissions(copy, fs::perms::owner_read | fs::perms::owner_write);
  return copy;
}

// The live regular items, as the test says them: not notes, attachments or
// annotations, not in the trash, not a feed's.
constexpr const char* kLiveItemsSql =
    "SELECT i.itemID, i.key, i.version, i.dateModified, i.libraryID FROM items i"
    " JOIN itemTypesCombined t ON t.itemTypeID = i.itemTypeID JOIN libraries l ON l.libraryID = "
    "i.libraryID"
    " WHERE t.typeName NOT IN ('note', 'attachment', 'annotation') AND l.type <> 'feed'"
    " AND i.itemID NOT IN (SELECT itemID FROM deletedItems) ORDER BY i.itemID";

std::string field_value(Sql& sql, const std::string& item_id, const std::string& field) {
  return sql.value(
      "SELECT v.value FROM itemData d JOIN fieldsCombined f ON f.fieldID = d.fieldID"
      " JOIN itemDataValues v ON v.valueID = d.valueID WHERE d.itemID = ? AND f.fieldName = ?",
      {item_id, field});
}

std::string trimmed(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r\n");
  return b == std::string::npos ? "" : s.substr(b, s.find_last_not_of(" \t\r\n") - b + 1);
}

// The DOI of a "DOI: ..." line of Extra, as the test reads it.
std::string extra_doi(const std::string& extra) {
  std::size_t at = 0;
  while (at <= extra.size()) {
    const auto end = std::min(extra.find('\n', at), extra.size());
    const std::string line = trimmed(extra.substr(at, end - at));
    if (line.size() > 4 && strncasecmp(line.c_str(), "DOI:", 4) == 0) {
      const std::string doi = trimmed(line.substr(4));
      return doi.substr(0, doi.find(' '));
    }
    at = end + 1;
  }
  return {};
}

// The paths of the collections item `item_id` is in, from the top, left out
// where a collection above is in the trash; sorted.
std::vector<std::string> collection_paths(Sql& sql, const std::string& item_id) {
  const bool has_trash =
      !sql.value("SELECT name FROM sqlite_master WHERE name = 'deletedCollections'").empty();
  const std::string trashed =
      has_trash ? "(SELECT collectionID FROM deletedCollections)" : "(SELECT 0 WHERE 0)";
  return sql.column(
      "WITH RECURSIVE p(collectionID, path, trashed) AS ("
      " SELECT collectionID, collectionName, collectionID IN " +
          trashed +
          " FROM collections WHERE parentCollectionID IS NULL"
          " UNION ALL SELECT c.collectionID, p.path || '/' || c.collectionName, p.trashed OR "
          "c.collectionID IN " +
          trashed +
          " FROM collections c JOIN p ON c.parentCollectionID = p.collectionID)"
          " SELECT p.path FROM collectionItems ci JOIN p ON p.collectionID = ci.collectionID"
          " WHERE ci.itemID = ? AND NOT p.trashed ORDER BY p.path",
      {item_id});
}

std::vector<std::int64_t> ids_of(const std::vector<ItemState>& items) {
  std::vector<std::int64_t> ids;
  for (const auto& i : items) ids.push_back(i.item_id);
  return ids;
}

const Record* record_of(const std::vector<Record>& records, std::int64_t item_id) {
  for (const auto& r : records) {
    if (r.line == item_id) return &r;
  }
  return nullptr;
}

// What the README of the shared databases says of each (items, abstracts, DOIs
// in the field, DOIs only in Extra): the test's SQL is checked against it.
struct Published {
  std::size_t items, abstracts, field_dois, extra_dois;
};
const std::map<std::string, Published> kPublished = {
    {"arreme--ProgrammingAndMathsZoteroResources.sqlite", {204, 87, 12, 5}},
    {"ganeshbelgur--zotero-sync.sqlite", {102, 44, 33, 5}},
    {"gglin001--Zotero.sqlite", {47, 36, 31, 1}},
    {"yuanluochen--Zotero.sqlite", {12, 10, 5, 1}},
    {"Chasing-Aurora--Paper.sqlite", {4, 2, 1, 0}},
};

bool has_non_ascii(const std::string& s) {
  return std::any_of(s.begin(), s.end(),
                     [](char c) { return static_cast<unsigned char>(c) >= 0x80; });
}

TEST(ZoteroSharedDatabases, RecordsAreTheLiveRegularItemsWithAnAbstractAsSqlSaysThem) {
  SKIP_WITHOUT_SHARED_DATABASES();
  for (const fs::path& database : shared_databases()) {
    SCOPED_TRACE(database.filename().string());
    TempDir dir;
    Sql sql(copy_of(database, dir));
    // Taken of the shared file itself, which is read-only: the snapshot only reads it.
    const Snapshot snapshot = Snapshot::take(database);
    EXPECT_EQ(std::to_string(snapshot.userdata_version()),
              sql.value("SELECT version FROM version WHERE schema = 'userdata'"));

    const auto expected_items = sql.rows(kLiveItemsSql);
    const std::vector<ItemState> items = live_items(snapshot);
    ASSERT_EQ(items.size(), expected_items.size());
    for (std::size_t i = 0; i < items.size(); ++i) {
      EXPECT_EQ(std::to_string(items[i].item_id), expected_items[i][0]);
      EXPECT_EQ(items[i].key, expected_items[i][1]);
      EXPECT_EQ(std::to_string(items[i].version), expected_items[i][2]);
      EXPECT_EQ(items[i].date_modified, expected_items[i][3]);
      EXPECT_EQ(std::to_string(items[i].library_id), expected_items[i][4]);
    }

    std::size_t without_abstract = 99;
    std::vector<RecordProblem> left_out;
    const std::vector<Record> records =
        read_items(snapshot, ids_of(items), without_abstract, &left_out);
    EXPECT_TRUE(left_out.empty());

    std::vector<std::uint32_t> expected_order;
    std::size_t field_dois = 0, extra_dois = 0, single_field_first = 0, non_ascii_titles = 0;
    for (const auto& row : expected_items) {
      const std::string& id = row[0];
      SCOPED_TRACE("itemID " + id);
      const std::string doi_field = trimmed(field_value(sql, id, "DOI"));
      const std::string doi =
          doi_field.empty() ? extra_doi(field_value(sql, id, "extra")) : doi_field;
      field_dois += !doi_field.empty();
      extra_dois += doi_field.empty() && !doi.empty();
      if (trimmed(field_value(sql, id, "abstractNote")).empty()) continue;
      expected_order.push_back(static_cast<std::uint32_t>(std::stoul(id)));
      const Record* r = record_of(records, std::stoll(id));
      ASSERT_NE(r, nullptr);
      const Abstract& f = r->fields;
      std::string title = field_value(sql, id, "title");
      EXPECT_EQ(f.title, strip_markup(title));
      EXPECT_EQ(r->raw_text, strip_markup(field_value(sql, id, "abstractNote")));
      EXPECT_EQ(f.doi, doi);
      EXPECT_EQ(f.zotero_key, row[1]);
      EXPECT_EQ(f.zotero_group, 0);
      EXPECT_EQ(
          f.item_type,
          sql.value("SELECT t.typeName FROM items i JOIN itemTypesCombined t USING (itemTypeID)"
                    " WHERE i.itemID = ?",
                    {id}));
      // The first of the creators of the item type's primary creator type.
      const auto first = sql.rows(
          "SELECT c.lastName, c.firstName, c.fieldMode FROM itemCreators ic JOIN creators c USING "
          "(creatorID)"
          " JOIN items i ON i.itemID = ic.itemID JOIN itemTypeCreatorTypes x"
          " ON x.itemTypeID = i.itemTypeID AND x.creatorTypeID = ic.creatorTypeID AND "
          "x.primaryField = 1"
          " WHERE ic.itemID = ? ORDER BY ic.orderIndex LIMIT 1",
          {id});
      if (first.empty()) {
        EXPECT_TRUE(f.authors.empty());
      } else {
        ASSERT_FALSE(f.authors.empty());
        EXPECT_EQ(f.authors[0].family, first[0][0]);
        if (first[0][2] == "1") {
          EXPECT_EQ(f.authors[0].given, "");
          ++single_field_first;
        } else {
          EXPECT_EQ(f.authors[0].given, first[0][1]);
        }
      }
      EXPECT_EQ(
          f.tags,
          sql.column("SELECT t.name FROM itemTags it JOIN tags t USING (tagID) WHERE it.itemID = ?"
                     " ORDER BY t.name",
                     {id}));
      EXPECT_EQ(f.collections, collection_paths(sql, id));
      non_ascii_titles += has_non_ascii(f.title);
    }
    std::vector<std::uint32_t> order;
    for (const auto& r : records) order.push_back(r.line);
    EXPECT_EQ(order, expected_order);
    EXPECT_EQ(without_abstract, expected_items.size() - expected_order.size());

    const auto published = kPublished.find(database.filename().string());
    if (published != kPublished.end()) {
      EXPECT_EQ(expected_items.size(), published->second.items);
      EXPECT_EQ(expected_order.size(), published->second.abstracts);
      EXPECT_EQ(field_dois, published->second.field_dois);
      EXPECT_EQ(extra_dois, published->second.extra_dois);
    }
    if (database.filename().string().starts_with("yuanluochen")) {
      EXPECT_GE(non_ascii_titles, 7u);  // the Chinese titles, read as written
      EXPECT_GT(single_field_first, 0u);
    }
    if (database.filename().string().starts_with("arreme")) {
      EXPECT_GT(single_field_first, 0u);
    }

    // The trash is never read, even when its items are asked for.
    const auto trashed = sql.column("SELECT itemID FROM deletedItems");
    std::vector<std::int64_t> trashed_ids;
    for (const auto& id : trashed) trashed_ids.push_back(std::stoll(id));
    for (const auto& r : records)
      EXPECT_EQ(std::count(trashed_ids.begin(), trashed_ids.end(), r.line), 0);
    EXPECT_TRUE(read_items(snapshot, trashed_ids, without_abstract).empty());
    EXPECT_EQ(without_abstract, 0u);
  }
}

TEST(ZoteroSharedDatabases, AreZoteroDatabases) {
  SKIP_WITHOUT_SHARED_DATABASES();
  for (const fs::path& database : shared_databases())
    EXPECT_TRUE(is_zotero_database(database)) << database;
  EXPECT_FALSE(is_zotero_database(shared_dir() / "README.md"));
  EXPECT_FALSE(is_zotero_database(shared_dir()));
}

// A copy of the newest shared database to change with SQL, and the snapshot of it.
class ZoteroCopy : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto databases = shared_databases();
    if (databases.empty()) GTEST_SKIP() << "no Zotero databases in " << shared_dir();
    source_ = shared_dir() / "arreme--ProgrammingAndMathsZoteroResources.sqlite";
    if (!fs::exists(source_)) source_ = databases.front();
    file_ = copy_of(source_, dir_);
    sql_.emplace(file_);
  }

  // The first live item with an abstract, of the type `type` if given.
  std::string an_item(const std::string& type = {}) {
    return sql_->value(
        "SELECT i.itemID FROM items i JOIN itemTypesCombined t USING (itemTypeID) JOIN itemData d "
        "USING (itemID)"
        " JOIN fieldsCombined f USING (fieldID) WHERE f.fieldName = 'abstractNote'"
        " AND i.itemID NOT IN (SELECT itemID FROM deletedItems)"
        " AND t.typeName NOT IN ('note', 'attachment', 'annotation') AND (? = '' OR t.typeName = ?)"
        " ORDER BY i.itemID LIMIT 1",
        {type, type});
  }
  // Sets field `field` of item `id` to `value` (a new itemDataValues row).
  void set_field(const std::string& id, const std::string& field, const std::string& value) {
    sql_->rows("INSERT OR IGNORE INTO itemDataValues (value) VALUES (?)", {value});
    sql_->rows(
        "INSERT OR REPLACE INTO itemData (itemID, fieldID, valueID) VALUES (?,"
        " (SELECT fieldID FROM fieldsCombined WHERE fieldName = ?),"
        " (SELECT valueID FROM itemDataValues WHERE value = ?))",
        {id, field, value});
  }
  void clear_field(const std::string& id, const std::string& field) {
    sql_->rows(
        "DELETE FROM itemData WHERE itemID = ? AND fieldID = (SELECT fieldID FROM fieldsCombined"
        " WHERE fieldName = ?)",
        {id, field});
  }
  // The record of item `id` in a new snapshot of the copy (nullopt if none).
  std::optional<Record> read(const std::string& id,
                             std::vector<RecordProblem>* left_out = nullptr) {
    const Snapshot snapshot = Snapshot::take(file_);
    std::size_t without = 0;
    auto records = read_items(snapshot, {std::stoll(id)}, without, left_out);
    if (records.empty()) return std::nullopt;
    return records.front();
  }

  TempDir dir_;
  fs::path source_, file_;
  std::optional<Sql> sql_;
};

TEST_F(ZoteroCopy, DatesOfZoterosStoredForm) {
  const std::string id = an_item();
  struct Case {
    std::string stored;
    int year, month, day;
  };
  for (const Case& c :
       std::vector<Case>{{"2018-03-00 March 2018", 2018, 3, 0},
                         {"2015-07-30 July 30, 2015", 2015, 7, 30},
                         {"2019-00-00 2019", 2019, 0, 0},
                         {"0000-00-00 Spring, sometime", 0, 0, 0},
                         {"2001-01-01 0001-01-01", 2001, 1, 1},
                         {"1981-08-00 08/1981", 1981, 8, 0},
                         {"March 2007", 2007, 3, 0},  // not the stored form: read as a date
                         {"soon", 0, 0, 0}}) {
    SCOPED_TRACE(c.stored);
    set_field(id, "date", c.stored);
    const auto r = read(id);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->fields.year, c.year);
    EXPECT_EQ(r->fields.month, c.month);
    EXPECT_EQ(r->fields.day, c.day);
  }
}

TEST_F(ZoteroCopy, IdentifiersFromFieldsUrlAndExtra) {
  const std::string id = an_item();
  clear_field(id, "DOI");
  clear_field(id, "url");
  clear_field(id, "archiveID");
  set_field(id, "extra",
            "OCLC: 1\nDOI: 10.1000/Extra.1 \narXiv:2209.02575 [cs]\nPMID: 30425819\nPMCID: PMC5584645\n"
            "Citation Key: knuth1984");
  auto r = read(id);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->fields.doi, "10.1000/Extra.1");
  EXPECT_EQ(r->fields.arxiv_id, "2209.02575");
  EXPECT_EQ(r->fields.pmid, "30425819");
  EXPECT_EQ(r->fields.pmcid, "PMC5584645");
  EXPECT_EQ(r->fields.citation_key, "knuth1984");

  // The DOI field wins over Extra; an arXiv link over Extra; a PMID that is no
  // number is none.
  set_field(id, "DOI", "10.1000/field");
  set_field(id, "url", "https://arxiv.org/pdf/2301.00001v2.pdf");
  set_field(id, "extra", "arXiv: 1111.11111\nPMID: 0369-15271803014J");
  r = read(id);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->fields.doi, "10.1000/field");
  EXPECT_EQ(r->fields.arxiv_id, "2301.00001v2");
  EXPECT_EQ(r->fields.pmid, "");

  set_field(id, "url", "https://arxiv.org/abs/hep-th/9901001");
  r = read(id);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->fields.arxiv_id, "hep-th/9901001");

  set_field(id, "url", "https://example.org/arxiv.org/abs/not-an-id");
  set_field(id, "extra", "");
  r = read(id);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->fields.arxiv_id, "");
}

TEST_F(ZoteroCopy, PreprintArchiveIdAndRepository) {
  if (sql_->value("SELECT itemTypeID FROM itemTypesCombined WHERE typeName = 'preprint'").empty()) {
    GTEST_SKIP() << "no preprint type in " << source_.filename() << "'s schema";
  }
  const std::string id = an_item();
  sql_->exec(
      "UPDATE items SET itemTypeID = (SELECT itemTypeID FROM itemTypesCombined WHERE typeName = "
      "'preprint')"
      " WHERE itemID = " +
      id);
  clear_field(id, "publicationTitle");
  clear_field(id, "url");
  set_field(id, "archiveID", "arXiv:2402.01234");
  set_field(id, "repository", "arXiv");
  const auto r = read(id);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->fields.item_type, "preprint");
  EXPECT_EQ(r->fields.arxiv_id, "2402.01234");
  EXPECT_EQ(r->fields.venue, "arXiv");
}

TEST_F(ZoteroCopy, VenueFromTheTypesOwnField) {
  for (const auto& [type, field] :
       std::vector<std::pair<std::string, std::string>>{{"conferencePaper", "proceedingsTitle"},
                                                        {"bookSection", "bookTitle"},
                                                        {"webpage", "websiteTitle"},
                                                        {"journalArticle", "publicationTitle"}}) {
    SCOPED_TRACE(type);
    const std::string id = an_item();
    sql_->exec("DELETE FROM itemData WHERE itemID = " + id +
               " AND fieldID NOT IN (SELECT fieldID FROM fieldsCombined WHERE fieldName IN "
               "('title', 'abstractNote'))");
    sql_->rows(
        "UPDATE items SET itemTypeID = (SELECT itemTypeID FROM itemTypesCombined WHERE typeName = "
        "?)"
        " WHERE itemID = ?",
        {type, id});
    set_field(id, field, "Venue of a " + type);
    const auto r = read(id);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->fields.venue, "Venue of a " + type);
  }
}

TEST_F(ZoteroCopy, CreatorsInOrderAuthorsAndEditorsApart) {
  const std::string id = an_item("bookSection");
  if (id.empty()) GTEST_SKIP() << "no book section with an abstract in " << source_.filename();
  sql_->exec("DELETE FROM itemCreators WHERE itemID = " + id);
  auto add = [&](const std::string& last, const std::string& first, int mode,
                 const std::string& type, int order) {
    sql_->rows("INSERT OR IGNORE INTO creators (firstName, lastName, fieldMode) VALUES (?, ?, ?)",
               {first, last, std::to_string(mode)});
    sql_->rows(
        "INSERT INTO itemCreators (itemID, creatorID, creatorTypeID, orderIndex) VALUES (?,"
        " (SELECT creatorID FROM creators WHERE firstName = ? AND lastName = ? AND fieldMode = ?),"
        " (SELECT creatorTypeID FROM creatorTypes WHERE creatorType = ?), ?)",
        {id, first, last, std::to_string(mode), type, std::to_string(order)});
  };
  add("Knuth", "Donald E.", 0, "author", 0);
  add("Programmer Ed", "", 0, "editor", 1);
  add("Translator", "Tina", 0, "translator", 2);  // neither: left out
  add("ATLAS Collaboration", "", 1, "author", 3);
  add("Series", "Sam", 0, "seriesEditor", 4);
  add("Plass", "Michael F.", 0, "author", 5);
  const auto r = read(id);
  ASSERT_TRUE(r);
  ASSERT_EQ(r->fields.authors.size(), 3u);
  EXPECT_EQ(r->fields.authors[0].family, "Knuth");
  EXPECT_EQ(r->fields.authors[0].given, "Donald E.");
  EXPECT_EQ(r->fields.authors[1].family, "ATLAS Collaboration");
  EXPECT_EQ(r->fields.authors[1].given, "");
  EXPECT_EQ(r->fields.authors[2].family, "Plass");
  EXPECT_EQ(r->fields.author_count, 3u);
  ASSERT_EQ(r->fields.editors.size(), 2u);
  EXPECT_EQ(r->fields.editors[0].family, "Programmer Ed");
  EXPECT_EQ(r->fields.editors[1].family, "Series");
}

TEST_F(ZoteroCopy, HtmlInTitleAndAbstractIsStripped) {
  const std::string id = an_item();
  set_field(id, "title", "Spin <i>and</i> H<sub>2</sub>O");
  set_field(id, "abstractNote", "<p>We show &amp; prove.</p><p>Second.</p>");
  const auto r = read(id);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->fields.title, "Spin and H2O");
  EXPECT_TRUE(contains(r->raw_text, "We show & prove."));
  EXPECT_FALSE(contains(r->raw_text, "<p>"));

  set_field(id, "abstractNote", " <p> </p> ");
  std::size_t without = 0;
  EXPECT_TRUE(read_items(Snapshot::take(file_), {std::stoll(id)}, without).empty());
  EXPECT_EQ(without, 1u);  // an abstract of markup only is none
}

TEST_F(ZoteroCopy, GroupLibrariesFeedsAndTrashedCollections) {
  const auto items = sql_->column(std::string(kLiveItemsSql));
  std::vector<std::string> with_abstract;
  for (const auto& id : items) {
    if (!trimmed(field_value(*sql_, id, "abstractNote")).empty()) with_abstract.push_back(id);
  }
  ASSERT_GE(with_abstract.size(), 3u);
  const std::string in_group = with_abstract[0], in_feed = with_abstract[1],
                    in_collection = with_abstract[2];
  sql_->exec(
      "INSERT INTO libraries (libraryID, type, editable, filesEditable) VALUES (77, 'group', 1, "
      "1)");
  sql_->exec(
      "INSERT INTO groups (groupID, libraryID, name, description, version) VALUES (4242, 77, "
      "'Lab', '', 0)");
  sql_->exec(
      "INSERT INTO libraries (libraryID, type, editable, filesEditable) VALUES (78, 'feed', 0, 0)");
  sql_->exec("DELETE FROM collectionItems WHERE itemID IN (" + in_group + ", " + in_feed + ")");
  sql_->exec("UPDATE items SET libraryID = 77 WHERE itemID = " + in_group);
  sql_->exec("UPDATE items SET libraryID = 78 WHERE itemID = " + in_feed);
  // Thesis/Chapter 2 and Thesis/Old (trashed), Old/Draft below it.
  sql_->exec(
      "INSERT INTO collections (collectionID, collectionName, parentCollectionID, libraryID, key)"
      " VALUES (9001, 'Thesis', NULL, 1, 'TTTTTTT1'), (9002, 'Chapter 2', 9001, 1, 'TTTTTTT2'),"
      " (9003, 'Old', 9001, 1, 'TTTTTTT3'), (9004, 'Draft', 9003, 1, 'TTTTTTT4')");
  sql_->exec("DELETE FROM collectionItems WHERE itemID = " + in_collection);
  sql_->exec("INSERT INTO collectionItems (collectionID, itemID) VALUES (9002, " + in_collection +
             "), (9004, " + in_collection + "), (9001, " + in_collection + ")");
  const bool trash_table =
      !sql_->value("SELECT name FROM sqlite_master WHERE name = 'deletedCollections'").empty();
  if (trash_table) sql_->exec("INSERT INTO deletedCollections (collectionID) VALUES (9003)");

  const Snapshot snapshot = Snapshot::take(file_);
  const auto live = live_items(snapshot);
  auto live_has = [&](const std::string& id) {
    return std::any_of(live.begin(), live.end(),
                       [&](const ItemState& s) { return s.item_id == std::stoll(id); });
  };
  EXPECT_TRUE(live_has(in_group));
  EXPECT_FALSE(live_has(in_feed));  // a feed's items are not the user's
  std::size_t without = 0;
  const auto records = read_items(
      snapshot, {std::stoll(in_group), std::stoll(in_feed), std::stoll(in_collection)}, without);
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0].line, std::stoul(in_group));
  EXPECT_EQ(records[0].fields.zotero_group, 4242);
  EXPECT_EQ(records[1].fields.zotero_group, 0);
  if (trash_table) {
    EXPECT_EQ(records[1].fields.collections,
              (std::vector<std::string>{"Thesis", "Thesis/Chapter 2"}));
  } else {
    EXPECT_EQ(records[1].fields.collections,
              (std::vector<std::string>{"Thesis", "Thesis/Chapter 2", "Thesis/Old/Draft"}));
  }
}

TEST_F(ZoteroCopy, AnItemThatCannotBeARecordIsLeftOutAndSaid) {
  const auto items = sql_->column(std::string(kLiveItemsSql));
  std::vector<std::string> with_abstract;
  for (const auto& id : items) {
    if (!trimmed(field_value(*sql_, id, "abstractNote")).empty()) with_abstract.push_back(id);
  }
  ASSERT_GE(with_abstract.size(), 4u);
  // Not UTF-8; a NUL byte; over the cap of a record.
  sql_->exec("INSERT INTO itemDataValues (value) VALUES (CAST(x'4e6f7420ff5554462d38' AS TEXT))");
  sql_->exec(
      "UPDATE itemData SET valueID = last_insert_rowid() WHERE itemID = " + with_abstract[0] +
      " AND fieldID = (SELECT fieldID FROM fieldsCombined WHERE fieldName = 'title')");
  sql_->exec("INSERT INTO itemDataValues (value) VALUES (CAST(x'41004e554c' AS TEXT))");
  sql_->exec(
      "UPDATE itemData SET valueID = last_insert_rowid() WHERE itemID = " + with_abstract[1] +
      " AND fieldID = (SELECT fieldID FROM fieldsCombined WHERE fieldName = 'abstractNote')");
  set_field(with_abstract[2], "abstractNote", std::string(kMaxRecordBytes + 1, 'a'));
  const std::string key0 = sql_->value("SELECT key FROM items WHERE itemID = " + with_abstract[0]);

  const Snapshot snapshot = Snapshot::take(file_);
  std::vector<std::int64_t> ids;
  for (std::size_t i = 0; i < 4; ++i) ids.push_back(std::stoll(with_abstract[i]));
  std::size_t without = 0;
  std::vector<RecordProblem> left_out;
  const auto records = read_items(snapshot, ids, without, &left_out);
  ASSERT_EQ(records.size(), 1u);  // the fourth, read on
  EXPECT_EQ(records[0].line, ids[3]);
  EXPECT_EQ(without, 0u);
  ASSERT_EQ(left_out.size(), 3u);
  EXPECT_EQ(left_out[0].line, ids[0]);
  EXPECT_TRUE(contains(left_out[0].what, "not UTF-8")) << left_out[0].what;
  EXPECT_TRUE(contains(left_out[0].what, key0)) << left_out[0].what;
  EXPECT_TRUE(contains(left_out[1].what, "NUL")) << left_out[1].what;
  EXPECT_TRUE(contains(left_out[2].what, "MiB")) << left_out[2].what;
}

// Runs take() and returns the InputError it throws, or nullopt (after
// reporting a failure) when it throws none.
std::optional<InputError> take_error(const fs::path& file) {
  try {
    Snapshot::take(file);
    ADD_FAILURE() << "no error for " << file;
  } catch (const InputError& e) {
    return e;
  }
  return std::nullopt;
}

TEST_F(ZoteroCopy, AnOlderSchemaIsAnErrorNamingTheVersions) {
  sql_->exec("UPDATE version SET version = 60 WHERE schema = 'userdata'");
  EXPECT_TRUE(is_zotero_database(file_));
  const auto e = take_error(file_);
  ASSERT_TRUE(e);
  const std::string what = e->what();
  EXPECT_EQ(e->file(), file_.string());
  EXPECT_TRUE(contains(what, file_.string())) << what;
  EXPECT_TRUE(contains(what, "userdata version 60")) << what;
  EXPECT_TRUE(contains(e->hint(), "userdata 80")) << e->hint();
  EXPECT_TRUE(contains(e->hint(), "125")) << e->hint();
}

TEST_F(ZoteroCopy, ANewerSchemaWithoutATableReadIsAnErrorNamingTheVersions) {
  sql_->exec("UPDATE version SET version = 131 WHERE schema = 'userdata'");
  sql_->exec("ALTER TABLE itemTags RENAME TO itemTagsRenamed");
  const auto e = take_error(file_);
  ASSERT_TRUE(e);
  EXPECT_TRUE(contains(e->what(), "userdata version 131 has no table itemTags")) << e->what();
  EXPECT_TRUE(contains(e->hint(), "userdata 80")) << e->hint();
}

TEST_F(ZoteroCopy, ANewerSchemaThatKeepsTheTablesIsRead) {
  sql_->exec("UPDATE version SET version = 131 WHERE schema = 'userdata'");
  sql_->exec("CREATE TABLE somethingNew (x)");
  const Snapshot snapshot = Snapshot::take(file_);
  EXPECT_EQ(snapshot.userdata_version(), 131);
  EXPECT_FALSE(live_items(snapshot).empty());
}

// The folders of copies in `tmp`.
std::size_t copies_in(const fs::path& tmp) {
  std::size_t n = 0;
  for (const auto& e : fs::directory_iterator(tmp))
    n += e.path().filename().string().starts_with("abstracts-zotero-");
  return n;
}

TEST_F(ZoteroCopy, ThePrivateCopyGoesWithTheSnapshotAndWithAFailure) {
  const fs::path tmp = dir_ / "tmp";
  fs::create_directories(tmp);
  const char* old = std::getenv("TMPDIR");
  const std::string saved = old != nullptr ? old : "";
  ::setenv("TMPDIR", tmp.c_str(), 1);
  {
    std::optional<Snapshot> snapshot = Snapshot::take(file_);
    EXPECT_EQ(copies_in(tmp), 1u);
    Snapshot moved = std::move(*snapshot);
    snapshot.reset();
    EXPECT_EQ(copies_in(tmp), 1u);  // the moved-to snapshot keeps it
    EXPECT_FALSE(live_items(moved).empty());
  }
  EXPECT_EQ(copies_in(tmp), 0u);
  sql_->exec("UPDATE version SET version = 60 WHERE schema = 'userdata'");
  EXPECT_THROW(Snapshot::take(file_), InputError);
  EXPECT_EQ(copies_in(tmp), 0u);
  if (old != nullptr) {
    ::setenv("TMPDIR", saved.c_str(), 1);
  } else {
    ::unsetenv("TMPDIR");
  }
}

TEST(ZoteroErrors, NotSqliteAndNotZoteroAreInputErrors) {
  TempDir dir;
  const fs::path text = dir / "notes.sqlite";
  write_file(text, "just some text, not a database\n");
  auto e = take_error(text);
  ASSERT_TRUE(e);
  EXPECT_TRUE(contains(e->what(), "not a SQLite database")) << e->what();
  EXPECT_EQ(e->file(), text.string());
  EXPECT_FALSE(is_zotero_database(text));

  const fs::path other = dir / "other.sqlite";
  {
    Sql sql(other);
    sql.exec("CREATE TABLE papers (title TEXT); INSERT INTO papers VALUES ('x')");
  }
  e = take_error(other);
  ASSERT_TRUE(e);
  EXPECT_TRUE(contains(e->what(), "not Zotero's")) << e->what();
  EXPECT_FALSE(is_zotero_database(other));

  const fs::path versioned = dir / "versioned.sqlite";
  {
    Sql sql(versioned);
    sql.exec(
        "CREATE TABLE version (schema TEXT, version INT); INSERT INTO version VALUES ('other', 3)");
  }
  e = take_error(versioned);
  ASSERT_TRUE(e);
  EXPECT_TRUE(contains(e->what(), "not Zotero's")) << e->what();
  EXPECT_FALSE(is_zotero_database(versioned));

  e = take_error(dir / "missing.sqlite");
  ASSERT_TRUE(e);
  EXPECT_TRUE(contains(e->what(), "no such file")) << e->what();
}

TEST_F(ZoteroCopy, DamagedDatabasesAreInputErrorsNeverCrashes) {
  sql_.reset();
  const std::string original = read_file(file_);
  std::mt19937 rng(20260);
  std::size_t errors = 0, read = 0;
  constexpr int kRounds = 40;
  for (int round = 0; round < kRounds; ++round) {
    std::string bytes = original;
    if (round == 0) {
      bytes.resize(bytes.size() / 2);  // cut short
    } else {
      // Up to 64 bytes overwritten past the header: pages of b-trees, records, free space.
      for (std::uint32_t k = 1 + rng() % 64; k > 0; --k) {
        bytes[100 + rng() % (bytes.size() - 100)] = static_cast<char>(rng());
      }
    }
    write_file(file_, bytes);
    try {
      const Snapshot snapshot = Snapshot::take(file_);
      std::size_t without = 0;
      read_items(snapshot, ids_of(live_items(snapshot)), without);
      ++read;
    } catch (const InputError& e) {
      EXPECT_EQ(e.file(), file_.string());
      ++errors;
      if (round == 0) {
        EXPECT_TRUE(contains(e.what(), "damaged")) << e.what();
      }
    }
  }
  EXPECT_EQ(errors + read, static_cast<std::size_t>(kRounds));
  EXPECT_GT(errors, 1u);
}

// A process that holds a database as Zotero does: exclusive locking mode, a
// transaction open with `statements` run in it and its pages partly written
// (a cache of a few pages spills them), until told to commit; then it keeps
// the exclusive lock until told to go. A process, not a thread: POSIX locks
// are per process, and this one's close() of the file would drop a thread's.
class ExclusiveWriter {
 public:
  ExclusiveWriter(const fs::path& database, const std::string& statements) {
    int to_child[2], from_child[2];
    if (::pipe(to_child) != 0 || ::pipe(from_child) != 0) ADD_FAILURE() << "pipe";
    pid_ = ::fork();
    if (pid_ == 0) {
      ::close(to_child[1]);
      ::close(from_child[0]);
      run(database, statements, to_child[0], from_child[1]);
    }
    ::close(to_child[0]);
    ::close(from_child[1]);
    to_ = to_child[1];
    from_ = from_child[0];
  }
  ~ExclusiveWriter() {
    send('x');
    int status = 0;
    ::waitpid(pid_, &status, 0);
    ::close(to_);
    ::close(from_);
  }
  ExclusiveWriter(const ExclusiveWriter&) = delete;
  ExclusiveWriter& operator=(const ExclusiveWriter&) = delete;

  // The next byte the writer sends: 'r' (transaction open), 'd' (committed), 'e' (failed).
  char next() {
    char c = 0;
    return ::read(from_, &c, 1) == 1 ? c : '?';
  }
  void send(char c) {
    if (::write(to_, &c, 1) != 1) ADD_FAILURE() << "write to the writer";
  }

 private:
  [[noreturn]] static void run(const fs::path& database, const std::string& statements, int in,
                               int out) {
    auto say = [&](char c) { (void)!::write(out, &c, 1); };
    auto wait_for = [&](char want) {
      char c = 0;
      while (::read(in, &c, 1) == 1 && c != want && c != 'x') {
      }
      return c == want;
    };
    sqlite3* db = nullptr;
    auto ok = [&](const std::string& sql) {
      return sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr) == SQLITE_OK;
    };
    if (sqlite3_open(database.c_str(), &db) != SQLITE_OK ||
        !ok("PRAGMA locking_mode = EXCLUSIVE; PRAGMA cache_size = 10; BEGIN IMMEDIATE") ||
        !ok(statements)) {
      say('e');
      ::_exit(1);
    }
    say('r');
    if (wait_for('c')) {
      say(ok("COMMIT") ? 'd' : 'e');
      wait_for('x');
    }
    sqlite3_close(db);
    ::_exit(0);
  }

  pid_t pid_ = -1;
  int to_ = -1, from_ = -1;
};

TEST_F(ZoteroCopy, SnapshotUnderAnExclusiveWriterMidTransaction) {
  const Snapshot before = Snapshot::take(file_);
  const auto items_before = live_items(before);
  const std::string id = an_item();
  std::size_t without = 0;
  const std::string abstract_before = read_items(before, {std::stoll(id)}, without).at(0).raw_text;
  const std::string original_bytes = read_file(file_);
  sql_.reset();  // the test's own connection is closed: the writer's lock is the only one

  // Changes one abstract, adds one item and enough values that the writer's
  // small cache spills pages into the file before it commits.
  const std::string statements =
      "INSERT INTO itemDataValues (value) VALUES ('A rewritten abstract about okapis.');"
      "UPDATE itemData SET valueID = last_insert_rowid() WHERE itemID = " +
      id +
      " AND fieldID = (SELECT fieldID FROM fieldsCombined WHERE fieldName = 'abstractNote');"
      "INSERT INTO items (itemTypeID, libraryID, key) VALUES ((SELECT itemTypeID FROM "
      "itemTypesCombined"
      " WHERE typeName = 'journalArticle'), 1, 'OKAPI234');"
      "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000)"
      " INSERT INTO itemDataValues (value) SELECT 'filler ' || i || ' ' || hex(randomblob(300)) "
      "FROM n;";
  ExclusiveWriter writer(file_, statements);
  ASSERT_EQ(writer.next(), 'r');

  // The live file as the writer holds it: pages written, a hot journal.
  const std::string db_held = read_file(file_);
  const std::string journal_held = read_file(file_.string() + "-journal");
  ASSERT_NE(db_held, original_bytes)
      << "the writer's pages should be in the file before it commits";
  ASSERT_GE(journal_held.size(), 28u);
  ASSERT_NE(journal_held.substr(0, 8), std::string(8, '\0')) << "the journal should be hot";

  EXPECT_TRUE(is_zotero_database(file_));
  // The database as given, and through a link in another folder: the journal
  // is the one beside the file the link names, as SQLite finds it.
  const fs::path link = dir_ / "links" / "zotero.sqlite";
  fs::create_directories(link.parent_path());
  fs::create_symlink(file_, link);
  for (const fs::path& given : {file_, link}) {
    SCOPED_TRACE(given);
    const Snapshot during = Snapshot::take(given);
    const auto items = live_items(during);
    ASSERT_EQ(items.size(), items_before.size());  // the new item is not seen
    for (std::size_t i = 0; i < items.size(); ++i) EXPECT_EQ(items[i].key, items_before[i].key);
    const auto records = read_items(during, {std::stoll(id)}, without);
    ASSERT_EQ(records.size(), 1u);
    EXPECT_EQ(records[0].raw_text, abstract_before);
  }
  // Not a byte of the live files changed, while the writer holds them.
  EXPECT_TRUE(read_file(file_) == db_held);
  EXPECT_TRUE(read_file(file_.string() + "-journal") == journal_held);

  writer.send('c');
  ASSERT_EQ(writer.next(), 'd');
  const std::string db_committed = read_file(file_);
  const Snapshot after = Snapshot::take(file_);
  const auto items = live_items(after);
  EXPECT_EQ(items.size(), items_before.size() + 1);
  EXPECT_TRUE(std::any_of(items.begin(), items.end(),
                          [](const ItemState& s) { return s.key == "OKAPI234"; }));
  const auto records = read_items(after, {std::stoll(id)}, without);
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0].raw_text, "A rewritten abstract about okapis.");
  EXPECT_TRUE(read_file(file_) == db_committed);
}

// Issue 42: a re-sync reads the few changed items from the live file in place,
// never while a transaction is open on it, and knows when a commit came since.
TEST_F(ZoteroCopy, InPlaceOnlyWhenQuietAndTheCommitsAfterAreSeen) {
  const std::string id = an_item();
  sql_.reset();
  const std::string original_bytes = read_file(file_);
  std::size_t without = 0;
  const Snapshot copied = Snapshot::take(file_);
  EXPECT_FALSE(copied.in_place());
  const std::string abstract_before = read_items(copied, {std::stoll(id)}, without).at(0).raw_text;

  const Snapshot quiet = Snapshot::take(file_, Snapshot::Read::kInPlaceIfQuiet);
  EXPECT_TRUE(quiet.in_place());
  EXPECT_EQ(quiet.state(), copied.state());
  EXPECT_EQ(live_items(quiet).size(), live_items(copied).size());
  EXPECT_EQ(read_items(quiet, {std::stoll(id)}, without).at(0).raw_text, abstract_before);
  EXPECT_TRUE(quiet.unchanged());

  ExclusiveWriter writer(file_,
                         "INSERT INTO itemDataValues (value) VALUES ('A rewritten abstract about "
                         "okapis.');"
                         "UPDATE itemData SET valueID = last_insert_rowid() WHERE itemID = " +
                             id +
                             " AND fieldID = (SELECT fieldID FROM fieldsCombined WHERE fieldName = "
                             "'abstractNote');"
                             "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000)"
                             " INSERT INTO itemDataValues (value) SELECT 'filler ' || i || ' ' || "
                             "hex(randomblob(300)) FROM n;");
  ASSERT_EQ(writer.next(), 'r');
  // Mid-transaction (a hot journal, pages in the file): never read in place.
  {
    const Snapshot during = Snapshot::take(file_, Snapshot::Read::kInPlaceIfQuiet);
    EXPECT_FALSE(during.in_place());
    EXPECT_EQ(read_items(during, {std::stoll(id)}, without).at(0).raw_text, abstract_before);
  }
  EXPECT_FALSE(quiet.unchanged()) << "pages written since it was taken";
  writer.send('c');
  ASSERT_EQ(writer.next(), 'd');
  EXPECT_FALSE(quiet.unchanged());
  EXPECT_TRUE(copied.unchanged()) << "a copy stays consistent whatever comes after";

  // Committed, the writer still holding the file (its journal kept, zeroed):
  // quiet again, and the new abstract read in place.
  const std::string db_committed = read_file(file_);
  const Snapshot after = Snapshot::take(file_, Snapshot::Read::kInPlaceIfQuiet);
  EXPECT_TRUE(after.in_place());
  EXPECT_EQ(read_items(after, {std::stoll(id)}, without).at(0).raw_text,
            "A rewritten abstract about okapis.");
  EXPECT_TRUE(after.unchanged());
  EXPECT_TRUE(read_file(file_) == db_committed) << "a read in place writes nothing";
  EXPECT_FALSE(read_file(file_) == original_bytes);
}

TEST_F(ZoteroCopy, TheStateChangesWithEveryCommitAndOnlyThen) {
  const std::string id = an_item();
  const std::string title = field_value(*sql_, id, "title");
  sql_.reset();
  const std::string before = current_state(file_);
  ASSERT_FALSE(before.empty());
  EXPECT_EQ(current_state(file_), before);
  {
    const Snapshot snapshot = Snapshot::take(file_);
    EXPECT_EQ(snapshot.state(), before);
  }
  EXPECT_EQ(current_state(file_), before);  // a snapshot writes nothing

  // A title set and set back, each by a commit in Zotero's exclusive mode: the
  // database is the size it was, and its header's change counter is bumped
  // once per lock, not per commit. The state while the writer holds the file
  // (the journal kept) and once it is gone (the journal deleted).
  auto commit = [&](const std::string& value) {
    std::string escaped;
    for (char c : value) escaped += c == '\'' ? std::string("''") : std::string(1, c);
    std::pair<std::string, std::string> states;
    {
      ExclusiveWriter writer(
          file_, "UPDATE itemDataValues SET value = '" + escaped +
                     "' WHERE valueID = (SELECT valueID FROM itemData WHERE itemID = " + id +
                     " AND fieldID = (SELECT fieldID FROM fieldsCombined WHERE "
                     "fieldName = 'title'))");
      EXPECT_EQ(writer.next(), 'r');
      writer.send('c');
      EXPECT_EQ(writer.next(), 'd');
      states.first = current_state(file_);
      EXPECT_EQ(current_state(file_), states.first);
    }
    states.second = current_state(file_);
    return states;
  };
  const auto changed = commit(title + " (changed)");
  const auto back = commit(title);
  const std::set<std::string> all = {before, changed.first, changed.second, back.first,
                                     back.second};
  EXPECT_EQ(all.size(), 5u);
  EXPECT_EQ(current_state(file_), back.second);
  EXPECT_EQ(current_state(dir_ / "missing.sqlite"), "");
}

// A fake home for find_data_dir().
class ZoteroDataDir : public ::testing::Test {
 protected:
  // A database file (not a real one: find_data_dir only looks for it).
  void database_in(const fs::path& dir) { write_file(dir / "zotero.sqlite", "SQLite format 3"); }
  void profiles(const std::string& ini) { write_file(home_ / ".zotero/zotero/profiles.ini", ini); }
  void prefs(const std::string& profile, const std::string& js) {
    write_file(home_ / ".zotero/zotero" / profile / "prefs.js", js);
  }
  static std::string pref_lines(const std::string& data_dir, bool use) {
    return "// Mozilla User Preferences\n"
           "user_pref(\"extensions.zotero.firstRun2\", false);\n"
           "user_pref(\"extensions.zotero.dataDir\", \"" +
           data_dir +
           "\");\n"
           "user_pref(\"extensions.zotero.useDataDir\", " +
           (use ? "true" : "false") + ");\n";
  }

  TempDir dir_;
  fs::path home_ = dir_ / "home";
};

TEST_F(ZoteroDataDir, NothingThereIsNone) {
  fs::create_directories(home_);
  EXPECT_EQ(find_data_dir(home_), std::nullopt);
  fs::create_directories(home_ / "Zotero");  // the folder, but no database in it
  EXPECT_EQ(find_data_dir(home_), std::nullopt);
}

TEST_F(ZoteroDataDir, TheDefaultIsZoteroInHome) {
  database_in(home_ / "Zotero");
  EXPECT_EQ(find_data_dir(home_), home_ / "Zotero");
  // A profile without the preference, or with it off, leaves the default.
  profiles(
      "[General]\nStartWithLastProfile=1\n\n[Profile0]\nName=default\nIsRelative=1\nPath=abcd."
      "default\n");
  prefs("abcd.default", pref_lines((dir_ / "elsewhere").string(), false));
  database_in(dir_ / "elsewhere");
  EXPECT_EQ(find_data_dir(home_), home_ / "Zotero");
}

TEST_F(ZoteroDataDir, ThePreferenceOfTheDefaultProfileWins) {
  database_in(home_ / "Zotero");
  const fs::path data = dir_ / "My \"Library\" Data";
  database_in(data);
  profiles(
      "[General]\nStartWithLastProfile=1\n\n"
      "[Profile1]\nName=other\nIsRelative=1\nPath=other.profile\n\n"
      "[Profile0]\nName=default\nIsRelative=1\nPath=abcd.default\nDefault=1\n");
  std::string escaped = data.string();
  for (std::size_t at = escaped.find('"'); at != std::string::npos;
       at = escaped.find('"', at + 2)) {
    escaped.insert(at, "\\");
  }
  prefs("abcd.default", pref_lines(escaped, true));
  prefs("other.profile", pref_lines((dir_ / "wrong").string(), true));
  database_in(dir_ / "wrong");
  EXPECT_EQ(find_data_dir(home_), data);

  // A custom folder that is gone is none (Zotero asks where it went), not the default.
  fs::remove_all(data);
  EXPECT_EQ(find_data_dir(home_), std::nullopt);
}

TEST_F(ZoteroDataDir, AnInstallSectionNamesTheProfile) {
  database_in(dir_ / "right");
  database_in(dir_ / "wrong");
  profiles(
      "[Install6C6C6C6C]\nDefault=Profiles/x.default\nLocked=1\n\n"
      "[Profile0]\nName=a\nIsRelative=1\nPath=Profiles/y.default\nDefault=1\n\n"
      "[Profile1]\nName=b\nIsRelative=1\nPath=Profiles/x.default\n");
  prefs("Profiles/x.default", pref_lines((dir_ / "right").string(), true));
  prefs("Profiles/y.default", pref_lines((dir_ / "wrong").string(), true));
  EXPECT_EQ(find_data_dir(home_), dir_ / "right");
}

TEST_F(ZoteroDataDir, TheProfilesOwnFolderOfZotero4) {
  profiles("[Profile0]\nName=default\nIsRelative=1\nPath=abcd.default\n");
  prefs("abcd.default", "user_pref(\"extensions.zotero.firstRun2\", false);\n");
  database_in(home_ / ".zotero/zotero/abcd.default/zotero");
  EXPECT_EQ(find_data_dir(home_), home_ / ".zotero/zotero/abcd.default/zotero");
  database_in(home_ / "Zotero");  // the default comes first
  EXPECT_EQ(find_data_dir(home_), home_ / "Zotero");
}

}  // namespace
}  // namespace zotero_test
}  // namespace abstracts::indexer::zotero
