// A Zotero database made by the tests: the tables and columns abstracts reads,
// as Zotero 5-9 declares them (../shared/data/zotero holds real ones, which a
// fresh clone may not have), and items written into it as Zotero writes them
// (a field's value is a row of itemDataValues, REPLACE INTO itemData).
#ifndef ABSTRACTS_TESTS_SUPPORT_ZOTERO_LIBRARY_H_
#define ABSTRACTS_TESTS_SUPPORT_ZOTERO_LIBRARY_H_

#include <sqlite3.h>

#include <cstdint>
#include <filesystem>
#include <string>

namespace abstracts::testing {

class ZoteroLibrary {
 public:
  // Creates the database at `path` (replacing one there), userdata version 120.
  explicit ZoteroLibrary(const std::filesystem::path& path);
  ~ZoteroLibrary();
  ZoteroLibrary(const ZoteroLibrary&) = delete;
  ZoteroLibrary& operator=(const ZoteroLibrary&) = delete;

  // A journal article in the user's library; returns its itemID.
  std::int64_t add_item(const std::string& key, const std::string& title, const std::string& abstract,
                        const std::string& date_modified = "2024-01-01 10:00:00");
  // Sets a field ("abstractNote", "title", "DOI", ...) as Zotero saves an edit:
  // the value's row (new if no item has it), REPLACE INTO itemData. Leaves
  // version and dateModified as they are.
  void set_field(std::int64_t item, const std::string& field, const std::string& value);
  // Gives `item` the tags "tag0000000" .. up to `count` (one statement).
  void add_tags(std::int64_t item, std::int64_t count);
  // Runs `sql`; fails the test if SQLite does.
  void exec(const std::string& sql);
  // Closes the connection (a test may then copy or damage the file).
  void close();

  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
  sqlite3* db_ = nullptr;
};

}  // namespace abstracts::testing

#endif  // ABSTRACTS_TESTS_SUPPORT_ZOTERO_LIBRARY_H_
