#include "tests/support/zotero_library.h"

#include <gtest/gtest.h>

namespace abstracts::testing {
namespace fs = std::filesystem;

namespace {

// Zotero's declarations of the tables read (its schema.sql, userdata 120),
// without the triggers and the tables nobody reads here.
constexpr const char* kSchema = R"sql(
CREATE TABLE version (schema TEXT PRIMARY KEY, version INT NOT NULL);
CREATE TABLE libraries (libraryID INTEGER PRIMARY KEY, type TEXT NOT NULL, editable INT NOT NULL,
  filesEditable INT NOT NULL, version INT NOT NULL DEFAULT 0, storageVersion INT NOT NULL DEFAULT 0,
  lastSync INT NOT NULL DEFAULT 0, archived INT NOT NULL DEFAULT 0);
CREATE TABLE groups (groupID INTEGER PRIMARY KEY, libraryID INT NOT NULL UNIQUE, name TEXT NOT NULL,
  description TEXT NOT NULL, version INT NOT NULL);
CREATE TABLE itemTypesCombined (itemTypeID INT NOT NULL, typeName TEXT NOT NULL, display INT DEFAULT 1 NOT NULL,
  custom INT NOT NULL, PRIMARY KEY (itemTypeID));
CREATE TABLE fieldsCombined (fieldID INT NOT NULL, fieldName TEXT NOT NULL, label TEXT, fieldFormatID INT,
  custom INT NOT NULL, PRIMARY KEY (fieldID));
CREATE TABLE baseFieldMappingsCombined (itemTypeID INT, baseFieldID INT, fieldID INT,
  PRIMARY KEY (itemTypeID, baseFieldID, fieldID));
CREATE TABLE items (itemID INTEGER PRIMARY KEY, itemTypeID INT NOT NULL,
  dateAdded TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP, dateModified TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
  clientDateModified TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP, libraryID INT NOT NULL, key TEXT NOT NULL,
  version INT NOT NULL DEFAULT 0, synced INT NOT NULL DEFAULT 0, UNIQUE (libraryID, key));
CREATE TABLE deletedItems (itemID INTEGER PRIMARY KEY, dateDeleted DEFAULT CURRENT_TIMESTAMP NOT NULL);
CREATE TABLE itemDataValues (valueID INTEGER PRIMARY KEY, value UNIQUE);
CREATE TABLE itemData (itemID INT, fieldID INT, valueID, PRIMARY KEY (itemID, fieldID));
CREATE INDEX itemData_fieldID ON itemData(fieldID);
CREATE TABLE creators (creatorID INTEGER PRIMARY KEY, firstName TEXT, lastName TEXT, fieldMode INT,
  UNIQUE (lastName, firstName, fieldMode));
CREATE TABLE creatorTypes (creatorTypeID INTEGER PRIMARY KEY, creatorType TEXT);
CREATE TABLE itemTypeCreatorTypes (itemTypeID INT, creatorTypeID INT, primaryField INT,
  PRIMARY KEY (itemTypeID, creatorTypeID));
CREATE TABLE itemCreators (itemID INT NOT NULL, creatorID INT NOT NULL, creatorTypeID INT NOT NULL DEFAULT 1,
  orderIndex INT NOT NULL DEFAULT 0, PRIMARY KEY (itemID, creatorID, creatorTypeID, orderIndex),
  UNIQUE (itemID, orderIndex));
CREATE TABLE tags (tagID INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
CREATE TABLE itemTags (itemID INT NOT NULL, tagID INT NOT NULL, type INT NOT NULL, PRIMARY KEY (itemID, tagID));
CREATE INDEX itemTags_tagID ON itemTags(tagID);
CREATE TABLE collections (collectionID INTEGER PRIMARY KEY, collectionName TEXT NOT NULL,
  parentCollectionID INT DEFAULT NULL, clientDateModified TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
  libraryID INT NOT NULL, key TEXT NOT NULL, version INT NOT NULL DEFAULT 0, synced INT NOT NULL DEFAULT 0,
  UNIQUE (libraryID, key));
CREATE TABLE collectionItems (collectionID INT NOT NULL, itemID INT NOT NULL, orderIndex INT NOT NULL DEFAULT 0,
  PRIMARY KEY (collectionID, itemID));
CREATE INDEX collectionItems_itemID ON collectionItems(itemID);
INSERT INTO version VALUES ('userdata', 120);
INSERT INTO libraries (libraryID, type, editable, filesEditable) VALUES (1, 'user', 1, 1);
INSERT INTO itemTypesCombined (itemTypeID, typeName, custom) VALUES
  (1, 'annotation', 0), (2, 'attachment', 0), (3, 'note', 0), (22, 'journalArticle', 0);
INSERT INTO fieldsCombined (fieldID, fieldName, custom) VALUES
  (1, 'title', 0), (2, 'abstractNote', 0), (6, 'date', 0), (12, 'publicationTitle', 0), (13, 'url', 0),
  (16, 'extra', 0), (26, 'DOI', 0);
INSERT INTO creatorTypes VALUES (8, 'author'), (10, 'editor');
INSERT INTO itemTypeCreatorTypes VALUES (22, 8, 1), (22, 10, 0);
)sql";

}  // namespace

ZoteroLibrary::ZoteroLibrary(const fs::path& path) : path_(path) {
  std::error_code ec;
  fs::create_directories(path.parent_path(), ec);
  for (const char* suffix : {"", "-journal", "-wal"}) fs::remove(path.string() + suffix, ec);
  if (sqlite3_open(path.c_str(), &db_) != SQLITE_OK) ADD_FAILURE() << "cannot create " << path;
  exec(kSchema);
}

ZoteroLibrary::~ZoteroLibrary() { close(); }

void ZoteroLibrary::close() {
  if (db_ != nullptr) sqlite3_close(db_);
  db_ = nullptr;
}

void ZoteroLibrary::exec(const std::string& sql) {
  char* message = nullptr;
  if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &message) != SQLITE_OK) {
    ADD_FAILURE() << sql.substr(0, 200) << ": " << (message != nullptr ? message : sqlite3_errmsg(db_));
    sqlite3_free(message);
  }
}

std::int64_t ZoteroLibrary::add_item(const std::string& key, const std::string& title, const std::string& abstract,
                                     const std::string& date_modified) {
  sqlite3_stmt* stmt = nullptr;
  sqlite3_prepare_v2(db_,
                     "INSERT INTO items (itemTypeID, dateModified, libraryID, key, version) VALUES (22, ?, 1, ?, 1)",
                     -1, &stmt, nullptr);
  sqlite3_bind_text(stmt, 1, date_modified.data(), static_cast<int>(date_modified.size()), SQLITE_TRANSIENT);
  sqlite3_bind_text(stmt, 2, key.data(), static_cast<int>(key.size()), SQLITE_TRANSIENT);
  if (sqlite3_step(stmt) != SQLITE_DONE) ADD_FAILURE() << "cannot add item " << key << ": " << sqlite3_errmsg(db_);
  sqlite3_finalize(stmt);
  const std::int64_t item = sqlite3_last_insert_rowid(db_);
  if (!title.empty()) set_field(item, "title", title);
  if (!abstract.empty()) set_field(item, "abstractNote", abstract);
  return item;
}

void ZoteroLibrary::set_field(std::int64_t item, const std::string& field, const std::string& value) {
  sqlite3_stmt* stmt = nullptr;
  sqlite3_prepare_v2(db_, "INSERT OR IGNORE INTO itemDataValues (value) VALUES (?)", -1, &stmt, nullptr);
  sqlite3_bind_text(stmt, 1, value.data(), static_cast<int>(value.size()), SQLITE_TRANSIENT);
  if (sqlite3_step(stmt) != SQLITE_DONE) ADD_FAILURE() << sqlite3_errmsg(db_);
  sqlite3_finalize(stmt);
  sqlite3_prepare_v2(db_,
                     "REPLACE INTO itemData VALUES (?, (SELECT fieldID FROM fieldsCombined WHERE fieldName = ?),"
                     " (SELECT valueID FROM itemDataValues WHERE value = ?))",
                     -1, &stmt, nullptr);
  sqlite3_bind_int64(stmt, 1, item);
  sqlite3_bind_text(stmt, 2, field.data(), static_cast<int>(field.size()), SQLITE_TRANSIENT);
  sqlite3_bind_text(stmt, 3, value.data(), static_cast<int>(value.size()), SQLITE_TRANSIENT);
  if (sqlite3_step(stmt) != SQLITE_DONE) ADD_FAILURE() << sqlite3_errmsg(db_);
  sqlite3_finalize(stmt);
}

void ZoteroLibrary::add_tags(std::int64_t item, std::int64_t count) {
  exec("WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < " + std::to_string(count) +
       ") INSERT OR IGNORE INTO tags (name) SELECT printf('tag%07d', i) FROM n;"
       "WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < " + std::to_string(count) +
       ") INSERT INTO itemTags (itemID, tagID, type) SELECT " + std::to_string(item) +
       ", tagID, 0 FROM n JOIN tags ON tags.name = printf('tag%07d', n.i);");
}

}  // namespace abstracts::testing
