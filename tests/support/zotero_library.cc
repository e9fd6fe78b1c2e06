#include "tests/support/zotero_library.h"

#include <gtest/gtest.h>

#include "tests/support/zotero_schema.h"

namespace abstracts::testing {
namespace fs = std::filesystem;

ZoteroLibrary::ZoteroLibrary(const fs::path& path) : path_(path) {
  std::error_code ec;
  fs::create_directories(path.parent_path(), ec);
  for (const char* suffix : {"", "-journal", "-wal"}) fs::remove(path.string() + suffix, ec);
  if (sqlite3_open(path.c_str(), &db_) != SQLITE_OK) ADD_FAILURE() << "cannot create " << path;
  exec(kZoteroSchema);
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
