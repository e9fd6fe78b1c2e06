// Zotero's own database (zotero.sqlite, Zotero 5 and later) as a source of
// records: a snapshot taken while Zotero runs, its live regular items, and each
// item as a Record; where Zotero keeps its data directory.
#ifndef ABSTRACTS_INDEXER_ZOTERO_H_
#define ABSTRACTS_INDEXER_ZOTERO_H_

#include <cctype>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "indexer/reader.h"

namespace abstracts::indexer::zotero {

// The userdata schema versions read: 80 is the step of Zotero's schema.js that
// made Zotero 5's layout (libraries by type, item keys and versions), so a
// Zotero 4 database is older; the shared databases run from 102 (Zotero
// 5.0.65) to 125 (Zotero 9). A newer version is read when the tables and
// columns read are all there (Zotero's minor steps keep them).
inline constexpr int kMinUserdataVersion = 80;
inline constexpr int kNewestUserdataVersionSeen = 125;

// One live regular item: not a note, attachment or annotation, not in the
// trash (deletedItems), not in a feed's library; with or without an abstract.
struct ItemState {
  std::int64_t item_id = 0;
  std::int64_t library_id = 0;
  std::string key;            // items.key ("ABCD2345")
  std::int64_t version = 0;   // items.version (the sync version)
  std::string date_modified;  // items.dateModified ("2024-02-10 14:03:55", UTC)
  // What the item is made of: its type, its fields' values, creators, tags (by
  // name) and collections (by path), as Zotero refers to them (a value edited
  // is a new valueID). An edit changes it even where dateModified, which has
  // whole seconds, and version, which a local edit leaves, stay as they were.
  std::uint64_t digest = 0;
};

// A consistent snapshot of a Zotero database, taken without writing to,
// locking or blocking the live file (zotero.cc says how and why). Move-only;
// the destructor removes the private copy it reads. Not thread-safe: one
// thread at a time may use a snapshot (and the functions below on it).
class Snapshot {
 public:
  // Throws InputError naming `database` for a file that cannot be read, is not
  // a SQLite database or not Zotero's (no `version` table with `userdata`), is
  // damaged (SQLite's quick_check), or kept changing over every try to copy it
  // (Zotero writing all the while); and for a schema it does not read, naming
  // the version found and the versions read. Needs room for a copy of the
  // database in $TMPDIR (else /tmp): 680 MB for 100,000 items.
  //
  // How it is read: Read::kCopy copies the files to a private folder and reads
  // the copy, which stays consistent whatever Zotero writes meanwhile; a copy
  // costs a read and the room of the whole database. Read::kInPlaceIfQuiet
  // reads the live file itself (no lock, no copy) when no transaction is open
  // on it, else copies: such a snapshot is consistent only while Zotero does
  // not commit, so its reader checks unchanged() after its last read and takes
  // a copy if not. For a few items' reads; a long one had better copy.
  enum class Read { kCopy, kInPlaceIfQuiet };
  static Snapshot take(const std::filesystem::path& database, Read read = Read::kCopy);

  Snapshot(Snapshot&&) noexcept;
  Snapshot& operator=(Snapshot&&) noexcept;
  ~Snapshot();

  int userdata_version() const;
  // The live database the snapshot was taken of, as given to take().
  const std::filesystem::path& database() const;
  // The live files' state when they were copied, or opened in place (current_state()).
  const std::string& state() const;
  // Whether the snapshot reads the live file in place (Read::kInPlaceIfQuiet).
  bool in_place() const;
  // Whether what was read so far is a consistent snapshot: always for a copy;
  // for a snapshot in place, whether the live files are as they were when it
  // was taken (no commit came while it was read). Reads the journal, not the
  // database (current_state()).
  bool unchanged() const;

  struct Impl;  // zotero.cc's

 private:
  friend std::vector<ItemState> live_items(const Snapshot& snapshot);
  friend std::vector<Record> read_items(const Snapshot& snapshot,
                                        const std::vector<std::int64_t>& item_ids,
                                        std::size_t& without_abstract,
                                        std::vector<RecordProblem>* left_out);

  explicit Snapshot(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// What the live database's files look like now: each one's inode, size and
// times, the header's bytes and a hash of the journal's and the -wal's. Every
// commit changes it (the journal's bytes, in Zotero's exclusive mode; the
// header's change counter otherwise), so a caller that kept Snapshot::state()
// can skip a database that has not been written since. Cheap: reads the
// journal (at most the pages of a transaction), not the database. "" if the
// file cannot be read.
std::string current_state(const std::filesystem::path& database);

// Every live regular item, by itemID, with its digest. Reads the items table,
// the trash and the item tables' ids (no text but tag names): 0.2 s for a
// library of 100,000 items. Throws InputError (naming the database) if SQLite
// fails.
std::vector<ItemState> live_items(const Snapshot& snapshot);

// The records of the items `item_ids` (from live_items()), in the order given,
// for those with an abstract (abstractNote) that is not blank; `without_abstract`
// is set to the number of the others. What a record holds (docs/formats.md,
// "Your Zotero library"): title and abstract (HTML stripped), authors (the item
// type's primary creator type, "author" for most) and editors ("editor",
// "seriesEditor"; other creators are left out), one-field names as family names;
// the date of Zotero's stored form ("2018-03-00 March 2018": 2018, March); the
// venue (publicationTitle or the type's own field for it: proceedingsTitle,
// bookTitle, websiteTitle, ...; a preprint's repository); the DOI from its field
// or a "DOI:" line of Extra; the arXiv id from archiveID, the URL or Extra; the
// PMID and a Better BibTeX citation key from Extra; item type, tags, collections
// as paths ("Thesis/Chapter 2"), item key and group id (0: the user's library).
// `line` is the itemID. An id that is no live regular item is left out and not
// counted. Memory holds the records returned: give the ids in batches.
//
// An item that cannot be a record is left out, counted in neither, and said in
// `left_out` if given: one whose fields are not UTF-8 or hold a NUL byte, or
// add up to more than kMaxRecordBytes. Throws InputError (naming the database)
// if SQLite fails.
std::vector<Record> read_items(const Snapshot& snapshot, const std::vector<std::int64_t>& item_ids,
                               std::size_t& without_abstract,
                               std::vector<RecordProblem>* left_out = nullptr);

// The records of `item_ids` (in that order) of `snapshot`, read in batches as
// a Reader gives them, so that the Writer indexes a Zotero database as it does
// a file: skipped() counts the items without an abstract, rejected() and
// take_problems() those left out. bytes_read() grows with the items read, up to
// the database's size. `snapshot` must outlive the reader.
std::unique_ptr<Reader> item_reader(const Snapshot& snapshot, std::vector<std::int64_t> item_ids);

// Zotero's data directory, found as Zotero finds it: the
// `extensions.zotero.dataDir` preference (with `extensions.zotero.useDataDir`
// true) in the prefs.js of the Zotero profile (~/.zotero/zotero/<profile>/, or
// Flatpak's ~/.var/app/org.zotero.Zotero/.zotero/zotero/<profile>/; the profile
// profiles.ini names: an [Install...] section's Default, else Default=1, else
// the only one); else ~/Zotero; else the profile's own zotero/ folder (where
// Zotero 4 kept it). nullopt if the directory found holds no zotero.sqlite.
// `home` is $HOME. Reads only; never throws for what it cannot read.
std::optional<std::filesystem::path> find_data_dir(const std::filesystem::path& home);

// A file: URI that opens `file` read-only without locks, journal or -wal, and
// without writing: SQLite takes the file for one that does not change. Inline,
// for the bench's synthetic libraries (bench/speed/zotero_synth.cc) as well.
inline std::string immutable_uri(const std::filesystem::path& file) {
  std::string uri = "file:";
  for (unsigned char c : file.string()) {
    if (std::isalnum(c) || c == '/' || c == '.' || c == '-' || c == '_') {
      uri += static_cast<char>(c);
    } else {
      char hex[4];
      std::snprintf(hex, sizeof hex, "%%%02X", c);
      uri += hex;
    }
  }
  return uri + "?mode=ro&immutable=1";
}

// Whether `file` looks like a Zotero database: SQLite's header, and a `version`
// table with a `userdata` row. Reads the first bytes and the schema only,
// without locks (Zotero's exclusive lock does not stop it) and without writing.
// False for anything it cannot read.
bool is_zotero_database(const std::filesystem::path& file);

// Removes the private copies of Zotero databases in $TMPDIR that a killed run
// left (Snapshot::take makes them; scratch::sweep). Never throws.
void sweep_copies();

// Whether `file` starts with SQLite's header. A file given to `index` that does
// is read as a Zotero database, whose Snapshot::take() says what it is if not
// one (another program's database, a damaged or cut-off copy) rather than a
// reader of text formats calling it binary.
bool is_sqlite_file(const std::filesystem::path& file);

}  // namespace abstracts::indexer::zotero

#endif  // ABSTRACTS_INDEXER_ZOTERO_H_
