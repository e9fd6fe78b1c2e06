// The sources of an index: the files and folders it was built from, which it
// remembers so that it can be kept in step with them (Writer::sync).
#ifndef ABSTRACTS_SOURCE_H_
#define ABSTRACTS_SOURCE_H_

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace abstracts {

// A path given to Writer::index.
struct Source {
  enum class Kind {
    kFile,    // one file
    kFolder,  // the bibliographies below a folder, walked again at each sync
    kDemo,    // the bundled demo corpus (a folder), dropped when the user's own files come
    kZotero,  // a Zotero database (zotero.sqlite), synced item by item
  };
  std::filesystem::path path;  // absolute
  Kind kind = Kind::kFile;
  // A folder's globs (IndexOptions::globs) as given when it was indexed: its
  // walks keep using them.
  std::vector<std::string> globs;
  std::int64_t last_sync = 0;  // when it was last indexed, in seconds since 1970 (UTC); 0: never
};

// A source as Index::sources() finds it.
struct SourceStatus {
  Source source;
  std::uint64_t abstracts = 0;  // abstracts with a record from one of its files
  bool present = false;         // its path is there now
};

// "file", "folder", "demo" or "zotero".
const char* to_string(Source::Kind kind);

// The Zotero database of the user whose home is `home`, found as Zotero finds
// its data directory: the `extensions.zotero.dataDir` preference of the Zotero
// profile's prefs.js, else ~/Zotero; nullopt if there is no zotero.sqlite there.
std::optional<std::filesystem::path> zotero_database(const std::filesystem::path& home);

}  // namespace abstracts

#endif  // ABSTRACTS_SOURCE_H_
