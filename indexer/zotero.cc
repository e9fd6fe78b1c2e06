#include "indexer/zotero.h"

#include <fcntl.h>
#include <linux/fs.h>
#include <sqlite3.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <limits>
#include <map>
#include <set>
#include <string_view>
#include <system_error>
#include <thread>
#include <unordered_map>
#include <utility>

#include "abstracts/error.h"
#include "engine/analysis/unicode_text.h"
#include "engine/layout.h"
#include "engine/scratch.h"
#include "indexer/line_source.h"
#include "indexer/markup.h"
#include "indexer/names.h"

namespace abstracts::indexer::zotero {
namespace {

namespace fs = std::filesystem;

// How the snapshot is taken, and why so.
//
// Zotero opens zotero.sqlite in exclusive locking mode with a rollback journal:
// while it runs, no other connection gets even a shared lock, so SQLite's own
// ways to read (a connection, the backup API) block or fail with SQLITE_BUSY.
// Opening the live file with immutable=1 takes no lock but promises SQLite the
// file does not change: a read racing Zotero's write sees a torn database, and
// a hot journal (Zotero mid-transaction, pages already written) is ignored. So
// the file is copied with plain reads (no lock, nothing written: POSIX locks
// do not stop read()), with its -journal and -wal, into a private folder, and
// the copy opened normally: SQLite rolls a hot journal back there, which gives
// the database as of the last commit before the copy.
//
// The copy must not mix pages from before and after one of Zotero's commits.
// The header's change counter cannot tell: in exclusive mode SQLite bumps it
// once per lock, not per transaction (seen: 1 after four commits), and a
// file's mtime has the clock's tick (4 ms) for resolution. What every
// transaction does change is the journal: it writes the original pages there,
// under a header with a random nonce, before touching the database, and zeroes
// that header to commit (exclusive mode keeps the file). So the journal's
// bytes (hashed), the -wal's, the header's 100 bytes and each file's size,
// mtime, ctime and inode are taken before and after the copy, and the copied
// journal's hash must be the one before: any difference is a commit, or pages
// written, during the copy, and the copy is made again, after a pause, up to
// kTries times. Reading within one transaction is safe: the journal is copied
// after the database, so it holds the original of every page the transaction
// had written there, and the copy rolls them back.
//
// A copy is no lock and leaves the live file's bytes as they were; it costs a
// read of the database (the page cache holds it, as Zotero just used it) and
// the space of a copy in the temporary folder ($TMPDIR). The copy is made with
// a reflink where the file system allows (instant), else copy_file_range.
constexpr int kTries = 6;
constexpr std::array<int, kTries> kPauseMs = {0, 20, 50, 100, 200, 400};

constexpr std::string_view kSqliteMagic{"SQLite format 3\0", 16};

std::string errno_text(int err) { return std::error_code(err, std::generic_category()).message(); }

InputError input_error(const fs::path& database, const std::string& what, std::string hint = {}) {
  return InputError(database.string() + ": " + what, database.string(), 0, std::move(hint));
}

// What is seen of one file: enough to tell any write to it.
struct FileSeen {
  bool exists = false;
  dev_t dev = 0;
  ino_t ino = 0;
  off_t size = 0;
  std::int64_t mtime_ns = 0, ctime_ns = 0;
  XXH64_hash_t hash = 0;  // of the bytes, for the journal and the -wal
  bool operator==(const FileSeen&) const = default;
};

// An open file descriptor, closed with the object.
class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

// XXH3 of the bytes of `fd` from its start; false on a read error.
bool hash_fd(int fd, XXH64_hash_t& out) {
  XXH3_state_t* state = XXH3_createState();
  XXH3_64bits_reset(state);
  std::vector<char> buf(1 << 16);
  off_t at = 0;
  bool ok = true;
  while (true) {
    const ssize_t n = ::pread(fd, buf.data(), buf.size(), at);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      ok = false;
      break;
    }
    if (n == 0) break;
    XXH3_64bits_update(state, buf.data(), static_cast<std::size_t>(n));
    at += n;
  }
  out = XXH3_64bits_digest(state);
  XXH3_freeState(state);
  return ok;
}

// Throws InputError, naming `database`, for a file that is there but cannot be read.
FileSeen see(const fs::path& file, bool hash, const fs::path& database) {
  FileSeen seen;
  Fd fd(::open(file.c_str(), O_RDONLY | O_CLOEXEC));
  if (fd.get() < 0) {
    if (errno == ENOENT) return seen;
    throw input_error(database, "cannot read " + file.string() + ": " + errno_text(errno));
  }
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0)
    throw input_error(database, "cannot read " + file.string() + ": " + errno_text(errno));
  seen.exists = true;
  seen.dev = st.st_dev;
  seen.ino = st.st_ino;
  seen.size = st.st_size;
  seen.mtime_ns = std::int64_t{st.st_mtim.tv_sec} * 1000000000 + st.st_mtim.tv_nsec;
  seen.ctime_ns = std::int64_t{st.st_ctim.tv_sec} * 1000000000 + st.st_ctim.tv_nsec;
  if (hash && !hash_fd(fd.get(), seen.hash)) {
    throw input_error(database, "cannot read " + file.string() + ": " + errno_text(errno));
  }
  return seen;
}

// The first `n` bytes of `file` (fewer if it is shorter); "" if it cannot be read.
std::string first_bytes(const fs::path& file, std::size_t n) {
  std::string out(n, '\0');
  Fd fd(::open(file.c_str(), O_RDONLY | O_CLOEXEC));
  if (fd.get() < 0) return {};
  std::size_t got = 0;
  while (got < n) {
    const ssize_t r = ::pread(fd.get(), out.data() + got, n - got, static_cast<off_t>(got));
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) break;
    got += static_cast<std::size_t>(r);
  }
  out.resize(got);
  return out;
}

// What the live database looks like at one moment.
struct Fingerprint {
  FileSeen db, journal, wal;
  std::string header;  // the database's first 100 bytes
  bool operator==(const Fingerprint&) const = default;
};

// The fingerprint as a string: each file's inode, size, times and hash, and the header.
std::string encode(const Fingerprint& f) {
  std::string out;
  char buf[160];
  for (const FileSeen* seen : {&f.db, &f.journal, &f.wal}) {
    std::snprintf(buf, sizeof buf, "%d:%llx:%llx:%llx:%llx:%llx:%llx;", seen->exists ? 1 : 0,
                  static_cast<unsigned long long>(seen->dev),
                  static_cast<unsigned long long>(seen->ino),
                  static_cast<unsigned long long>(seen->size),
                  static_cast<unsigned long long>(seen->mtime_ns),
                  static_cast<unsigned long long>(seen->ctime_ns),
                  static_cast<unsigned long long>(seen->hash));
    out += buf;
  }
  for (unsigned char c : f.header) {
    std::snprintf(buf, sizeof buf, "%02x", c);
    out += buf;
  }
  return out;
}

// `live` is the database's file; errors name `database`.
Fingerprint fingerprint(const fs::path& live, const fs::path& database) {
  Fingerprint f;
  f.db = see(live, false, database);
  f.journal = see(live.string() + "-journal", true, database);
  f.wal = see(live.string() + "-wal", true, database);
  f.header = first_bytes(live, 100);
  return f;
}

// Copies `from` to the new file `to` (mode 0600); false if `from` is not there.
// Throws InputError, naming `database`, if the copy fails (a full disk).
bool copy_file(const fs::path& from, const fs::path& to, const fs::path& database) {
  Fd in(::open(from.c_str(), O_RDONLY | O_CLOEXEC));
  if (in.get() < 0) {
    if (errno == ENOENT) return false;
    throw input_error(database, "cannot read " + from.string() + ": " + errno_text(errno));
  }
  Fd out(::open(to.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600));
  auto fail = [&](int err) {
    return input_error(database, "cannot copy it to " + to.string() + ": " + errno_text(err),
                       "set TMPDIR to a folder with room for a copy of the database");
  };
  if (out.get() < 0) throw fail(errno);
  if (::ioctl(out.get(), FICLONE, in.get()) == 0) return true;
  bool in_kernel = true;
  std::vector<char> buf;
  while (true) {
    ssize_t n = -1;
    if (in_kernel) {
      n = ::copy_file_range(in.get(), nullptr, out.get(), nullptr, std::size_t{1} << 30, 0);
      if (n < 0 && (errno == EXDEV || errno == ENOSYS || errno == EINVAL || errno == EOPNOTSUPP)) {
        in_kernel = false;  // across file systems on older kernels, or a file system without it
        buf.resize(1 << 20);
        continue;
      }
    } else {
      n = ::read(in.get(), buf.data(), buf.size());
      for (ssize_t done = 0; n > 0 && done < n;) {
        const ssize_t w = ::write(out.get(), buf.data() + done, static_cast<std::size_t>(n - done));
        if (w < 0 && errno == EINTR) continue;
        if (w < 0) throw fail(errno);
        done += w;
      }
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw fail(errno);
    if (n == 0) break;
  }
  return true;  // no fsync: the copy is thrown away, and a crash loses nothing
}

// The private folder of a copy, in $TMPDIR (scratch::Folder: removed on every
// way out, a killed run's by sweep_copies()).
constexpr std::string_view kCopyPrefix = "abstracts-zotero-";

scratch::Folder copy_folder(const fs::path& database) {
  try {
    return scratch::Folder::make(scratch::temp_directory(), kCopyPrefix,
                                 "set TMPDIR to a folder where abstracts may write");
  } catch (const Error& e) {
    throw input_error(database, std::string("cannot make a folder for its copy: ") + e.what(), e.hint());
  }
}

// One prepared statement, finalised with the object.
class Statement {
 public:
  Statement(sqlite3* db, std::string_view sql, const fs::path& database)
      : db_(db), database_(&database) {
    if (sqlite3_prepare_v2(db, sql.data(), static_cast<int>(sql.size()), &stmt_, nullptr) !=
        SQLITE_OK) {
      throw error("cannot read it");
    }
  }
  ~Statement() { sqlite3_finalize(stmt_); }
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  // True while there is a row.
  bool step() {
    const int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    throw error("cannot read it");
  }
  void reset() {
    sqlite3_reset(stmt_);
    sqlite3_clear_bindings(stmt_);
  }
  void bind(int i, std::int64_t v) { sqlite3_bind_int64(stmt_, i, v); }
  void bind(int i, std::string_view v) {
    sqlite3_bind_text(stmt_, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
  }
  std::int64_t integer(int i) const { return sqlite3_column_int64(stmt_, i); }
  int type(int i) const { return sqlite3_column_type(stmt_, i); }
  bool is_null(int i) const { return sqlite3_column_type(stmt_, i) == SQLITE_NULL; }
  // The column as text (a number as SQLite writes it); "" for NULL.
  std::string_view text(int i) const {
    const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, i));
    if (p == nullptr) return {};
    return {p, static_cast<std::size_t>(sqlite3_column_bytes(stmt_, i))};
  }

  InputError error(const std::string& what) const {
    return input_error(*database_, what + ": " + sqlite3_errmsg(db_) + " (SQLite)");
  }

 private:
  sqlite3* db_;
  const fs::path* database_;
  sqlite3_stmt* stmt_ = nullptr;
};

void exec(sqlite3* db, const char* sql, const fs::path& database) {
  char* message = nullptr;
  if (sqlite3_exec(db, sql, nullptr, nullptr, &message) != SQLITE_OK) {
    std::string what = message != nullptr ? message : sqlite3_errmsg(db);
    sqlite3_free(message);
    throw input_error(database, "cannot read it: " + what + " (SQLite)");
  }
}

// The tables and columns read: a schema that lacks one is not read.
constexpr std::pair<const char*, std::array<const char*, 6>> kColumnsRead[] = {
    {"items", {"itemID", "itemTypeID", "libraryID", "key", "version", "dateModified"}},
    {"itemTypesCombined", {"itemTypeID", "typeName"}},
    {"libraries", {"libraryID", "type"}},
    {"groups", {"groupID", "libraryID"}},
    {"deletedItems", {"itemID"}},
    {"itemData", {"itemID", "fieldID", "valueID"}},
    {"itemDataValues", {"valueID", "value"}},
    {"fieldsCombined", {"fieldID", "fieldName"}},
    {"baseFieldMappingsCombined", {"itemTypeID", "baseFieldID", "fieldID"}},
    {"creators", {"creatorID", "firstName", "lastName", "fieldMode"}},
    {"itemCreators", {"itemID", "creatorID", "creatorTypeID", "orderIndex"}},
    {"creatorTypes", {"creatorTypeID", "creatorType"}},
    {"itemTypeCreatorTypes", {"itemTypeID", "creatorTypeID", "primaryField"}},
    {"tags", {"tagID", "name"}},
    {"itemTags", {"itemID", "tagID"}},
    {"collections", {"collectionID", "collectionName", "parentCollectionID", "libraryID"}},
    {"collectionItems", {"collectionID", "itemID"}},
};

// The tables Snapshot::take checks, those live_items() reads.
constexpr const char* kCheckedTables[] = {"version", "items", "itemTypesCombined", "libraries",
                                          "deletedItems"};

std::string versions_read() {
  return "abstracts reads userdata " + std::to_string(kMinUserdataVersion) + " (Zotero 5) to " +
         std::to_string(kNewestUserdataVersionSeen) +
         " (Zotero 9), and newer ones that keep the tables it reads";
}

// The items that are records: regular ones (no note, attachment or annotation),
// out of the trash, in a user's or a group's library (a feed's items are the
// feed's, not the user's). `i` is the items table.
constexpr const char* kLiveItem =
    " JOIN itemTypesCombined t ON t.itemTypeID = i.itemTypeID"
    " JOIN libraries l ON l.libraryID = i.libraryID"
    " WHERE t.typeName NOT IN ('note', 'attachment', 'annotation') AND l.type <> 'feed'"
    " AND i.itemID NOT IN (SELECT itemID FROM deletedItems)";

// What a field of itemData is to a record.
enum class Role {
  kTitle,
  kAbstract,
  kDate,
  kVenue,
  kRepository,
  kDoi,
  kUrl,
  kExtra,
  kArchiveId,
  kCitationKey,
  kIsbn,
  kVolume,
  kIssue,
  kPages,
  kPublisher,
  kIssn
};

}  // namespace

struct Snapshot::Impl {
  fs::path database;
  scratch::Folder folder;  // the private copy's, once the snapshot holds it
  bool copied = false;  // read from a copy (else the live file, in place)
  std::string state;    // the live files' when copied or opened: encode(Fingerprint)
  sqlite3* db = nullptr;
  int userdata = 0;
  // fieldID -> what the field gives a record; those fieldIDs as "1,2,8".
  std::unordered_map<std::int64_t, Role> roles;
  std::string role_fields;
  std::unordered_map<std::int64_t, std::string> types;  // itemTypeID -> typeName
  // (itemTypeID, creatorTypeID) of each type's authors; creatorTypeIDs of editors.
  std::set<std::pair<std::int64_t, std::int64_t>> primary;
  std::set<std::int64_t> editor_types;
  std::unordered_map<std::int64_t, std::int64_t> groups;  // libraryID -> groupID
  // collectionID -> path from the library's top; none for a trashed one.
  std::unordered_map<std::int64_t, std::string> collection_paths;

  ~Impl() {
    if (db != nullptr) sqlite3_close(db);  // before its folder goes
  }
};

namespace {

// Copies the database file `live` (`database` with its links followed, as
// SQLite follows them to find the journal) into `folder` until a copy is
// consistent (see above), and returns the files' fingerprint; throws
// InputError if none is after kTries.
Fingerprint copy_consistently(const fs::path& database, const fs::path& live,
                              const fs::path& folder) {
  const fs::path copy = folder / "zotero.sqlite";
  for (int attempt = 0; attempt < kTries; ++attempt) {
    if (kPauseMs[attempt] > 0) {
      std::this_thread::sleep_for(std::chrono::milliseconds(kPauseMs[attempt]));
    }
    const Fingerprint before = fingerprint(live, database);
    if (!before.db.exists) throw input_error(database, "no such file");
    std::error_code ec;
    for (const char* suffix : {"-journal", "-wal"}) fs::remove(copy.string() + suffix, ec);
    copy_file(live, copy, database);
    for (const char* suffix : {"-journal", "-wal"}) {
      copy_file(live.string() + suffix, copy.string() + suffix, database);
    }
    const Fingerprint after = fingerprint(live, database);
    if (before != after) continue;
    // The journal and -wal copied are the ones hashed before and after.
    const FileSeen journal = see(copy.string() + "-journal", true, database);
    const FileSeen wal = see(copy.string() + "-wal", true, database);
    if (journal.exists == before.journal.exists && journal.hash == before.journal.hash &&
        wal.exists == before.wal.exists && wal.hash == before.wal.hash) {
      return after;
    }
  }
  throw input_error(database,
                    "kept changing while it was copied (" + std::to_string(kTries) + " tries)",
                    "Zotero was writing to it all along; try again in a moment");
}

bool has_table(sqlite3* db, const char* table, const fs::path& database) {
  Statement s(db, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", database);
  s.bind(1, std::string_view(table));
  return s.step();
}

// Throws InputError, naming the version found and those read, if a table or
// column read is missing.
void require_columns(sqlite3* db, int userdata, const fs::path& database) {
  for (const auto& [table, columns] : kColumnsRead) {
    std::set<std::string, std::less<>> have;
    Statement s(db, "SELECT name FROM pragma_table_info(?)", database);
    s.bind(1, std::string_view(table));
    while (s.step()) have.emplace(s.text(0));
    for (const char* column : columns) {
      if (column == nullptr) break;
      if (!have.contains(std::string_view(column))) {
        throw input_error(
            database,
            "a Zotero database of userdata version " + std::to_string(userdata) + " has no " +
                (have.empty() ? std::string("table ") + table : std::string(table) + "." + column),
            versions_read());
      }
    }
  }
}

void load_lookups(Snapshot::Impl& s) {
  const fs::path& database = s.database;
  std::unordered_map<std::string, std::int64_t> field_ids;
  {
    Statement q(s.db, "SELECT fieldID, fieldName FROM fieldsCombined", database);
    while (q.step()) field_ids.emplace(std::string(q.text(1)), q.integer(0));
  }
  auto give = [&](const char* name, Role role) {
    if (auto it = field_ids.find(name); it != field_ids.end()) s.roles.emplace(it->second, role);
  };
  give("abstractNote", Role::kAbstract);
  give("repository", Role::kRepository);
  give("DOI", Role::kDoi);
  give("url", Role::kUrl);
  give("extra", Role::kExtra);
  give("archiveID", Role::kArchiveId);
  give("citationKey", Role::kCitationKey);
  give("ISBN", Role::kIsbn);
  give("issue", Role::kIssue);
  give("ISSN", Role::kIssn);
  // A base field and the fields item types have in its place: title (caseName,
  // subject, ...), date (issueDate, dateDecided, ...), publicationTitle
  // (proceedingsTitle, bookTitle, websiteTitle, blogTitle, ...). An item has
  // only its type's fields, so the field says the role whatever the type.
  // Likewise volume (codeVolume, ...), pages (codePages, firstPage) and publisher
  // (institution, university, label, ...).
  for (const auto& [base, role] :
       {std::pair{"title", Role::kTitle}, std::pair{"date", Role::kDate},
        std::pair{"publicationTitle", Role::kVenue}, std::pair{"volume", Role::kVolume},
        std::pair{"pages", Role::kPages}, std::pair{"publisher", Role::kPublisher}}) {
    give(base, role);
    Statement q(s.db,
                "SELECT DISTINCT m.fieldID FROM baseFieldMappingsCombined m JOIN fieldsCombined b"
                " ON b.fieldID = m.baseFieldID WHERE b.fieldName = ?",
                database);
    q.bind(1, std::string_view(base));
    while (q.step()) s.roles.emplace(q.integer(0), role);
  }
  for (const auto& [id, role] : s.roles) {
    if (!s.role_fields.empty()) s.role_fields += ',';
    s.role_fields += std::to_string(id);
  }
  {
    Statement q(s.db, "SELECT itemTypeID, typeName FROM itemTypesCombined", database);
    while (q.step()) s.types.emplace(q.integer(0), std::string(q.text(1)));
  }
  {
    Statement q(s.db,
                "SELECT itemTypeID, creatorTypeID FROM itemTypeCreatorTypes WHERE primaryField = 1",
                database);
    while (q.step()) s.primary.emplace(q.integer(0), q.integer(1));
  }
  {
    Statement q(
        s.db,
        "SELECT creatorTypeID FROM creatorTypes WHERE creatorType IN ('editor', 'seriesEditor')",
        database);
    while (q.step()) s.editor_types.insert(q.integer(0));
  }
  {
    Statement q(s.db,
                "SELECT g.libraryID, g.groupID FROM groups g JOIN libraries l USING (libraryID)"
                " WHERE l.type = 'group'",
                database);
    while (q.step()) s.groups.emplace(q.integer(0), q.integer(1));
  }
  // Collections as paths from the top of their library. Zotero 7 keeps trashed
  // collections in deletedCollections: such a collection, and those below it,
  // gives no path.
  struct Node {
    std::string name;
    std::int64_t parent = 0;
    bool trashed = false;
  };
  std::unordered_map<std::int64_t, Node> nodes;
  {
    Statement q(s.db, "SELECT collectionID, collectionName, parentCollectionID FROM collections",
                database);
    while (q.step()) {
      nodes[q.integer(0)] = Node{std::string(q.text(1)), q.is_null(2) ? 0 : q.integer(2), false};
    }
  }
  if (has_table(s.db, "deletedCollections", database)) {
    Statement q(s.db, "SELECT collectionID FROM deletedCollections", database);
    while (q.step()) {
      if (auto it = nodes.find(q.integer(0)); it != nodes.end()) it->second.trashed = true;
    }
  }
  for (const auto& [id, node] : nodes) {
    std::vector<const std::string*> names;
    bool trashed = false;
    // The depth bound stops at a cycle of parents, which a damaged database may hold.
    std::int64_t at = id;
    for (std::size_t depth = 0; at != 0 && depth <= nodes.size(); ++depth) {
      const auto it = nodes.find(at);
      if (it == nodes.end()) break;
      trashed = trashed || it->second.trashed;
      names.push_back(&it->second.name);
      at = it->second.parent;
    }
    if (trashed) continue;
    std::string path;
    for (auto n = names.rbegin(); n != names.rend(); ++n) {
      if (!path.empty()) path += '/';
      path += **n;
    }
    s.collection_paths.emplace(id, std::move(path));
  }
}

// SQLite's quick_check of the tables live_items() reads: their b-trees and
// records are well formed; "ok" or what it found. Not of the whole file: in a
// library of 100,000 items that took 0.55 s, more than the copy, for every
// sync; what read_items() reads besides, SQLite checks as it reads it (a
// damaged page is SQLITE_CORRUPT, an InputError).
std::string quick_check(sqlite3* db, const fs::path& database) {
  try {
    for (const char* table : kCheckedTables) {
      if (!has_table(db, table, database)) continue;
      Statement q(db, std::string("PRAGMA quick_check(\"") + table + "\")", database);
      if (q.step() && q.text(0) != "ok") return std::string(q.text(0));
    }
  } catch (const InputError&) {
    return sqlite3_errmsg(db);  // not a database at all: "file is not a database"
  }
  return "ok";
}

void open_settings(sqlite3* db, const fs::path& database) {
  sqlite3_extended_result_codes(db, 1);
  exec(db, "PRAGMA temp_store = MEMORY", database);
}

// Opens the live file `live` itself, read-only and without a lock
// (immutable_uri), when no transaction is open on it: no -wal with frames, and
// no journal with a header (SQLite zeroes it, truncates or deletes the journal
// to commit; a header is a transaction under way, or a hot journal after a
// crash, which only the copy rolls back). Its fingerprint now is the
// snapshot's state, so Snapshot::unchanged() can tell later whether a commit
// came while it was read. False, with nothing open, when the file is not quiet
// or fails quick_check (open_copy() then tells a torn read from damage).
bool open_in_place(Snapshot::Impl& impl, const fs::path& live, const fs::path& database) {
  const Fingerprint before = fingerprint(live, database);
  if (!before.db.exists) throw input_error(database, "no such file");
  if (before.wal.exists && before.wal.size > 0) return false;
  if (before.journal.exists && before.journal.size > 0 &&
      first_bytes(live.string() + "-journal", 28).find_first_not_of('\0') != std::string::npos) {
    return false;
  }
  if (sqlite3_open_v2(immutable_uri(live).c_str(), &impl.db,
                      SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX, nullptr) == SQLITE_OK) {
    open_settings(impl.db, database);
    if (quick_check(impl.db, database) == "ok") {
      impl.state = encode(before);
      return true;
    }
  }
  sqlite3_close(impl.db);
  impl.db = nullptr;
  return false;
}

// Copies the live files into `folder` (copy_consistently) and opens the copy.
// A copy that fails quick_check is made once more, in case a write the
// fingerprint missed tore it; a second failure is the database's own damage.
void open_copy(Snapshot::Impl& impl, const fs::path& live, const fs::path& database, const fs::path& folder) {
  impl.copied = true;
  const fs::path copy = folder / "zotero.sqlite";
  constexpr int kChecks = 2;
  for (int check = 0;; ++check) {
    if (impl.db != nullptr) sqlite3_close(impl.db);  // the copy that failed the check
    impl.db = nullptr;
    impl.state = encode(copy_consistently(database, live, folder));
    // Read-write, so that SQLite rolls a hot journal back (into the copy).
    if (sqlite3_open_v2(copy.c_str(), &impl.db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nullptr) !=
        SQLITE_OK) {
      throw input_error(database,
                        std::string("cannot open its copy: ") + sqlite3_errmsg(impl.db) + " (SQLite)");
    }
    open_settings(impl.db, database);
    const std::string verdict = quick_check(impl.db, database);
    if (verdict == "ok") return;
    if (check + 1 == kChecks) {
      throw input_error(database, "damaged: SQLite's quick_check says: " + verdict,
                        "Zotero's Help > Troubleshooting > Check Database Integrity may repair it");
    }
  }
}

}  // namespace

Snapshot::Snapshot(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Snapshot::Snapshot(Snapshot&&) noexcept = default;
Snapshot& Snapshot::operator=(Snapshot&&) noexcept = default;
Snapshot::~Snapshot() = default;

int Snapshot::userdata_version() const { return impl_->userdata; }
const fs::path& Snapshot::database() const { return impl_->database; }
const std::string& Snapshot::state() const { return impl_->state; }
bool Snapshot::in_place() const { return !impl_->copied; }
bool Snapshot::unchanged() const { return !in_place() || current_state(impl_->database) == impl_->state; }

std::string current_state(const fs::path& database) {
  std::error_code ec;
  const fs::path live = fs::canonical(database, ec);
  if (ec) return {};
  try {
    return encode(fingerprint(live, database));
  } catch (const InputError&) {
    return {};
  }
}

Snapshot Snapshot::take(const fs::path& database, Read read) {
  std::error_code ec;
  const auto status = fs::status(database, ec);
  if (!fs::exists(status)) throw input_error(database, "no such file");
  if (!fs::is_regular_file(status)) throw input_error(database, "not a file");
  const std::string magic = first_bytes(database, kSqliteMagic.size());
  if (magic != kSqliteMagic) {
    throw input_error(database, "not a SQLite database",
                      "give Zotero's database, zotero.sqlite in its data directory");
  }

  auto impl = std::make_unique<Impl>();
  impl->database = database;
  const fs::path live = fs::canonical(database, ec);
  if (ec) throw input_error(database, "cannot read it: " + ec.message());
  if (read != Read::kInPlaceIfQuiet || !open_in_place(*impl, live, database)) {
    sweep_copies();
    impl->folder = copy_folder(database);
    open_copy(*impl, live, database, impl->folder.path());
  }
  {
    Statement q(impl->db, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'version'",
                database);
    if (!q.step()) {
      throw input_error(database, "a SQLite database but not Zotero's: it has no `version` table",
                        "give Zotero's database, zotero.sqlite in its data directory");
    }
  }
  {
    Statement q(impl->db, "SELECT version FROM version WHERE schema = 'userdata'", database);
    if (!q.step()) {
      throw input_error(database,
                        "a SQLite database but not Zotero's: its `version` table names no userdata",
                        "give Zotero's database, zotero.sqlite in its data directory");
    }
    // A number as Zotero writes it; text ("abc") or a number no Zotero wrote
    // is not read as version 0 (Zotero 4) or cut to an int.
    constexpr std::int64_t kMostVersion = 1000000;
    if (q.type(0) != SQLITE_INTEGER || q.integer(0) < 0 || q.integer(0) > kMostVersion) {
      throw input_error(database,
                        "a SQLite database but not one Zotero wrote: its userdata version is " +
                            layout::shown(q.text(0)) + ", not a version number",
                        "give Zotero's database, zotero.sqlite in its data directory");
    }
    impl->userdata = static_cast<int>(q.integer(0));
  }
  if (impl->userdata < kMinUserdataVersion) {
    throw input_error(
        database,
        "a Zotero database of userdata version " + std::to_string(impl->userdata) +
            " (Zotero 4 or older), which abstracts does not read",
        versions_read() + "; opening the library once in Zotero 5 or later upgrades it");
  }
  require_columns(impl->db, impl->userdata, database);
  load_lookups(*impl);
  return Snapshot(std::move(impl));
}

namespace {

// One row's part of an item's digest: a hash of the row's kind and values.
// Digests add up the parts of their rows, so that rows may come in any order.
std::uint64_t part(std::int64_t kind, std::int64_t a, std::int64_t b = 0, std::int64_t c = 0) {
  const std::array<std::int64_t, 4> values{kind, a, b, c};
  return XXH3_64bits(values.data(), sizeof values);
}

std::int64_t text_hash(std::string_view text) {
  return static_cast<std::int64_t>(XXH3_64bits(text.data(), text.size()));
}

}  // namespace

std::vector<ItemState> live_items(const Snapshot& snapshot) {
  const Snapshot::Impl& s = *snapshot.impl_;
  std::vector<ItemState> items;
  std::unordered_map<std::int64_t, std::size_t> at;  // itemID -> its place in items
  {
    Statement q(s.db,
                std::string("SELECT i.itemID, i.libraryID, i.key, i.version, i.dateModified, i.itemTypeID FROM items i") +
                    kLiveItem + " ORDER BY i.itemID",
                s.database);
    while (q.step()) {
      at.emplace(q.integer(0), items.size());
      items.push_back(ItemState{q.integer(0), q.integer(1), std::string(q.text(2)), q.integer(3),
                                std::string(q.text(4)), part(0, q.integer(5))});
    }
  }
  auto add = [&](std::int64_t item_id, std::uint64_t h) {
    if (const auto it = at.find(item_id); it != at.end()) items[it->second].digest += h;
  };
  // Every table read_items() reads an item from, by the ids Zotero gives what
  // it holds: a field's value, a creator, is a row of its own, which an edit
  // replaces (Zotero's REPLACE INTO itemData); a tag and a collection by name,
  // which a rename changes.
  {
    Statement q(s.db, "SELECT itemID, fieldID, valueID FROM itemData", s.database);
    while (q.step()) add(q.integer(0), part(1, q.integer(1), q.integer(2)));
  }
  {
    Statement q(s.db, "SELECT itemID, creatorID, creatorTypeID, orderIndex FROM itemCreators", s.database);
    while (q.step()) add(q.integer(0), part(2, q.integer(1), q.integer(2), q.integer(3)));
  }
  {
    Statement q(s.db, "SELECT it.itemID, t.name FROM itemTags it JOIN tags t ON t.tagID = it.tagID", s.database);
    while (q.step()) add(q.integer(0), part(3, text_hash(q.text(1))));
  }
  {
    Statement q(s.db, "SELECT itemID, collectionID FROM collectionItems", s.database);
    while (q.step()) {
      const auto path = s.collection_paths.find(q.integer(1));
      add(q.integer(0), part(4, path == s.collection_paths.end() ? 0 : text_hash(path->second)));
    }
  }
  return items;
}

namespace {

bool starts_with_ci(std::string_view s, std::string_view prefix) {
  if (s.size() < prefix.size()) return false;
  for (std::size_t i = 0; i < prefix.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(s[i])) !=
        std::tolower(static_cast<unsigned char>(prefix[i]))) {
      return false;
    }
  }
  return true;
}

bool all_digits(std::string_view s) {
  return !s.empty() && s.find_first_not_of("0123456789") == std::string_view::npos;
}

// An arXiv id as arXiv writes it: "2301.00001", "0704.0001v2", "hep-th/9901001".
bool is_arxiv_id(std::string_view id) {
  if (const auto v = id.rfind('v');
      v != std::string_view::npos && v + 1 < id.size() && all_digits(id.substr(v + 1))) {
    id = id.substr(0, v);
  }
  if (const auto dot = id.find('.'); dot == 4 && id.find('/') == std::string_view::npos) {
    return all_digits(id.substr(0, 4)) && all_digits(id.substr(5)) && id.size() >= 9 &&
           id.size() <= 10;
  }
  const auto slash = id.find('/');
  if (slash == std::string_view::npos || slash == 0 || id.size() - slash - 1 != 7) return false;
  return all_digits(id.substr(slash + 1)) &&
         id.substr(0, slash).find_first_not_of(
             "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-.") == std::string_view::npos;
}

// The arXiv id of an arxiv.org link ("https://arxiv.org/abs/2301.00001v2",
// ".../pdf/2301.00001.pdf"), or "".
std::string arxiv_id_of_url(std::string_view url) {
  for (std::string_view path : {"arxiv.org/abs/", "arxiv.org/pdf/"}) {
    const auto at = url.find(path);
    if (at == std::string_view::npos) continue;
    std::string_view id = url.substr(at + path.size());
    id = id.substr(0, id.find_first_of("?# "));
    while (id.ends_with('/')) id.remove_suffix(1);
    if (id.ends_with(".pdf")) id.remove_suffix(4);
    if (is_arxiv_id(id)) return std::string(id);
  }
  return {};
}

// The first word of `value`.
std::string_view first_word(std::string_view value) {
  value = trim(value, kSpaceAndLineBreaks);
  return value.substr(0, value.find_first_of(" \t"));
}

// What Extra's "Key: value" lines say (Zotero's arXiv translator writes
// "arXiv:2209.02575 [cs]"; PubMed's "PMID: 30425819" and "PMCID: PMC5584645";
// Better BibTeX "Citation Key: x"); the first line of each key counts.
void read_extra(std::string_view extra, std::string& doi, std::string& arxiv, std::string& pmid,
                std::string& pmcid, std::string& citation_key) {
  while (!extra.empty()) {
    const auto end = extra.find('\n');
    const std::string_view line = trim(extra.substr(0, end), kSpaceAndLineBreaks);
    extra = end == std::string_view::npos ? std::string_view{} : extra.substr(end + 1);
    const auto colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    const std::string_view key = trim(line.substr(0, colon));
    const std::string_view value = line.substr(colon + 1);
    auto is = [&](std::string_view name) {
      return key.size() == name.size() && starts_with_ci(key, name);
    };
    if (is("DOI") && doi.empty()) {
      const std::string_view d = first_word(value);
      if (d.find("10.") != std::string_view::npos) doi = d;
    } else if ((is("arXiv") || is("arXiv ID")) && arxiv.empty()) {
      std::string_view id = first_word(value);
      if (starts_with_ci(id, "arXiv:")) id.remove_prefix(6);
      if (is_arxiv_id(id)) arxiv = id;
    } else if (is("PMID") && pmid.empty()) {
      const std::string_view id = first_word(value);
      if (all_digits(id)) pmid = id;  // not "0369-15271803014J", which is no PubMed id
    } else if (is("PMCID") && pmcid.empty()) {
      pmcid = first_word(value);
    } else if (is("Citation Key") && citation_key.empty()) {
      citation_key = first_word(value);
    }
  }
}

// Zotero's stored date, "YYYY-MM-DD original text" with 00 for a part not
// known ("2018-03-00 March 2018"); a value not in that form is read as a date.
void read_date(std::string_view value, Abstract& f) {
  auto digits = [&](std::size_t at, std::size_t n) {
    int v = 0;
    for (std::size_t i = at; i < at + n; ++i) v = v * 10 + (value[i] - '0');
    return v;
  };
  const bool stored = value.size() >= 10 && all_digits(value.substr(0, 4)) && value[4] == '-' &&
                      all_digits(value.substr(5, 2)) && value[7] == '-' &&
                      all_digits(value.substr(8, 2)) && (value.size() == 10 || value[10] == ' ');
  if (stored) {
    f.year = digits(0, 4);
    f.month = digits(5, 2);
    f.day = digits(8, 2);
  } else if (!parse_date(value, f.year, f.month, f.day)) {
    f.year = f.month = f.day = 0;
  }
  settle_date(f.year, f.month, f.day);
}

// A creator as Zotero keeps them: two fields, or one (fieldMode 1: a
// collaboration, an institution, a name not split) as the family name.
std::optional<Author> creator(std::string_view first, std::string_view last,
                              std::int64_t field_mode) {
  first = trim(first, kSpaceAndLineBreaks);
  last = trim(last, kSpaceAndLineBreaks);
  if (field_mode == 1 || last.empty()) {
    const std::string_view whole = last.empty() ? first : last;
    if (whole.empty()) return std::nullopt;
    return Author{std::string(whole), ""};
  }
  return Author{std::string(last), std::string(first)};
}

// The most tags and collections a record keeps: a tag is a term of the
// document, and 3 million tags on one item (15 MB of names, under the record's
// cap) took 2 GB. The first by name are kept.
constexpr std::size_t kMaxTags = 1000;

// Keeps the kMaxTags first of `names` by name, in order; at most twice as many
// held while they are added (keep_first(..., false)), so memory stays bounded.
void keep_first(std::vector<std::string>& names, bool last) {
  if (names.size() < 2 * kMaxTags && !last) return;
  if (names.size() > kMaxTags) {
    std::nth_element(names.begin(), names.begin() + kMaxTags, names.end());
    names.resize(kMaxTags);
  }
  if (last) std::sort(names.begin(), names.end());
}

// One item while its rows are read.
struct Pending {
  Record record;
  std::string key;  // items.key, for what is said of it (record is let go past the cap)
  bool live = false;
  std::size_t uses = 0;   // times its id is given
  std::size_t bytes = 0;  // of the values read
  std::string problem;    // why it cannot be a record, "" if it can
  std::string repository, url, archive_id, extra, citation_key_field;
};

std::uint32_t line_of(std::int64_t item_id) {
  return item_id > 0 && item_id <= std::numeric_limits<std::uint32_t>::max()
             ? static_cast<std::uint32_t>(item_id)
             : 0;
}

}  // namespace

std::vector<Record> read_items(const Snapshot& snapshot, const std::vector<std::int64_t>& item_ids,
                               std::size_t& without_abstract,
                               std::vector<RecordProblem>* left_out) {
  const Snapshot::Impl& s = *snapshot.impl_;
  without_abstract = 0;
  std::unordered_map<std::int64_t, Pending> pending;
  pending.reserve(item_ids.size());
  for (std::int64_t id : item_ids) ++pending[id].uses;

  // The ids go into a temporary table (in memory), so each query below is one
  // join over them, whatever their number. CROSS JOIN keeps them the outer
  // loop: without statistics SQLite would scan a whole table (itemData by its
  // fieldID index, itemCreators, ...) for each call: 45 s for 100 calls of
  // 1,000 ids in a library of 100,000 items, where the lookups take 1.6 s.
  exec(s.db, "CREATE TEMP TABLE IF NOT EXISTS wanted (itemID INTEGER PRIMARY KEY)", s.database);
  exec(s.db, "BEGIN", s.database);
  try {
    exec(s.db, "DELETE FROM temp.wanted", s.database);
    Statement insert(s.db, "INSERT INTO temp.wanted (itemID) VALUES (?)", s.database);
    for (const auto& [id, p] : pending) {
      insert.bind(1, id);
      insert.step();
      insert.reset();
    }
    exec(s.db, "COMMIT", s.database);
  } catch (...) {
    sqlite3_exec(s.db, "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }

  // Adds `n` bytes to what `p` holds; past the cap the item cannot be a record,
  // and what it holds is let go.
  auto count_bytes = [](Pending& p, std::size_t n) {
    p.bytes += n;
    if (p.bytes > kMaxRecordBytes && p.problem.empty()) {
      p.problem = "more than " + std::to_string(kMaxRecordBytes >> 20) + " MiB of fields";
      p.record = Record{};
    }
    return p.problem.empty();
  };
  // A value fit for a record: UTF-8 without NUL bytes.
  auto check_text = [](Pending& p, std::string_view value) {
    if (!p.problem.empty()) return false;
    if (value.find('\0') != std::string_view::npos) {
      p.problem = "a field holds a NUL byte";
    } else if (analysis::find_invalid_utf8(value) != std::string_view::npos) {
      p.problem = "a field is not UTF-8";
    }
    return p.problem.empty();
  };

  {
    Statement q(s.db,
                std::string("SELECT i.itemID, i.itemTypeID, i.libraryID, i.key FROM temp.wanted w"
                            " CROSS JOIN items i ON i.itemID = w.itemID") +
                    kLiveItem,
                s.database);
    while (q.step()) {
      Pending& p = pending[q.integer(0)];
      p.live = true;
      p.record.line = line_of(q.integer(0));
      Abstract& f = p.record.fields;
      if (auto t = s.types.find(q.integer(1)); t != s.types.end()) f.item_type = t->second;
      if (auto g = s.groups.find(q.integer(2)); g != s.groups.end()) f.zotero_group = g->second;
      f.zotero_key = q.text(3);
      p.key = f.zotero_key;
      check_text(p, f.zotero_key);
    }
  }
  if (!s.role_fields.empty()) {
    Statement q(s.db,
                "SELECT d.itemID, d.fieldID, v.value FROM temp.wanted w CROSS JOIN itemData d ON "
                "d.itemID = w.itemID"
                " JOIN itemDataValues v ON v.valueID = d.valueID WHERE d.fieldID IN (" +
                    s.role_fields + ")",
                s.database);
    while (q.step()) {
      Pending& p = pending[q.integer(0)];
      const std::string_view value = q.text(2);
      if (!p.live || !count_bytes(p, value.size()) || !check_text(p, value)) continue;
      Abstract& f = p.record.fields;
      switch (s.roles.at(q.integer(1))) {
        case Role::kTitle:
          f.title = strip_markup(value);
          break;
        case Role::kAbstract:
          p.record.raw_text = strip_markup(value);
          break;
        case Role::kDate:
          read_date(value, f);
          break;
        case Role::kVenue:
          f.venue = trim(value, kSpaceAndLineBreaks);
          break;
        case Role::kRepository:
          p.repository = trim(value, kSpaceAndLineBreaks);
          break;
        case Role::kDoi:
          f.doi = trim(value, kSpaceAndLineBreaks);
          break;
        case Role::kUrl:
          p.url = value;
          break;
        case Role::kExtra:
          p.extra = value;
          break;
        case Role::kArchiveId:
          p.archive_id = trim(value, kSpaceAndLineBreaks);
          break;
        case Role::kCitationKey:
          p.citation_key_field = trim(value, kSpaceAndLineBreaks);
          break;
        case Role::kIsbn:
          f.isbn = trim(value, kSpaceAndLineBreaks);
          break;
        case Role::kVolume:
          f.volume = trim(value, kSpaceAndLineBreaks);
          break;
        case Role::kIssue:
          f.issue = trim(value, kSpaceAndLineBreaks);
          break;
        case Role::kPages:
          f.pages = trim(value, kSpaceAndLineBreaks);
          break;
        case Role::kPublisher:
          f.publisher = trim(value, kSpaceAndLineBreaks);
          break;
        case Role::kIssn:
          f.issn = trim(value, kSpaceAndLineBreaks);
          break;
      }
    }
  }
  {
    Statement q(
        s.db,
        "SELECT ic.itemID, i.itemTypeID, ic.creatorTypeID, c.firstName, c.lastName, c.fieldMode"
        " FROM temp.wanted w CROSS JOIN itemCreators ic ON ic.itemID = w.itemID"
        " JOIN items i ON i.itemID = ic.itemID JOIN creators c ON c.creatorID = ic.creatorID"
        " ORDER BY ic.itemID, ic.orderIndex",
        s.database);
    while (q.step()) {
      Pending& p = pending[q.integer(0)];
      const std::string_view first = q.text(3), last = q.text(4);
      if (!p.live || !count_bytes(p, first.size() + last.size()) || !check_text(p, first) ||
          !check_text(p, last)) {
        continue;
      }
      const std::int64_t type = q.integer(2);
      Abstract& f = p.record.fields;
      if (s.primary.contains({q.integer(1), type})) {
        if (auto name = creator(first, last, q.integer(5)))
          add_author(f, [&] { return std::move(*name); });
      } else if (s.editor_types.contains(type) && f.editors.size() < kMaxAuthors) {
        if (auto name = creator(first, last, q.integer(5))) f.editors.push_back(std::move(*name));
      }
    }
  }
  {
    Statement q(
        s.db,
        "SELECT it.itemID, t.name FROM temp.wanted w CROSS JOIN itemTags it ON it.itemID = w.itemID"
        " JOIN tags t ON t.tagID = it.tagID",
        s.database);
    while (q.step()) {
      Pending& p = pending[q.integer(0)];
      const std::string_view tag = q.text(1);
      if (!p.live || !count_bytes(p, tag.size()) || !check_text(p, tag)) continue;
      p.record.fields.tags.emplace_back(tag);
      keep_first(p.record.fields.tags, false);
    }
  }
  {
    Statement q(
        s.db,
        "SELECT ci.itemID, ci.collectionID FROM temp.wanted w CROSS JOIN collectionItems ci ON "
        "ci.itemID = w.itemID",
        s.database);
    while (q.step()) {
      Pending& p = pending[q.integer(0)];
      const auto path = s.collection_paths.find(q.integer(1));
      if (!p.live || path == s.collection_paths.end() || !count_bytes(p, path->second.size()) ||
          !check_text(p, path->second)) {
        continue;
      }
      p.record.fields.collections.push_back(path->second);
      keep_first(p.record.fields.collections, false);
    }
  }

  std::vector<Record> records;
  for (std::int64_t id : item_ids) {
    Pending& p = pending[id];
    if (!p.live) continue;
    if (!p.problem.empty()) {
      if (left_out != nullptr) {
        left_out->push_back({line_of(id), "Zotero item " + layout::shown(p.key) + " (itemID " +
                                              std::to_string(id) + "): " + p.problem,
                             {}});
      }
      p.live = false;  // said once, if the id is given twice
      continue;
    }
    Record r =
        --p.uses == 0 ? std::move(p.record) : p.record;  // an id given twice gives two records
    if (is_empty_text(r.raw_text)) {
      ++without_abstract;
      continue;
    }
    Abstract& f = r.fields;
    if (f.venue.empty() && f.item_type == "preprint") f.venue = p.repository;  // "arXiv", "bioRxiv"
    std::string extra_doi, extra_arxiv, citation_key;
    read_extra(p.extra, extra_doi, extra_arxiv, f.pmid, f.pmcid, citation_key);
    if (f.doi.empty()) f.doi = extra_doi;
    if (starts_with_ci(p.archive_id, "arXiv:") &&
        is_arxiv_id(std::string_view(p.archive_id).substr(6))) {
      f.arxiv_id = p.archive_id.substr(6);
    }
    if (f.arxiv_id.empty()) f.arxiv_id = arxiv_id_of_url(p.url);
    if (f.arxiv_id.empty()) f.arxiv_id = extra_arxiv;
    f.url = trim(p.url, kSpaceAndLineBreaks);
    f.citation_key = p.citation_key_field.empty() ? citation_key : p.citation_key_field;
    keep_first(f.tags, true);
    keep_first(f.collections, true);
    f.collections.erase(std::unique(f.collections.begin(), f.collections.end()),
                        f.collections.end());
    records.push_back(std::move(r));
  }
  return records;
}

namespace {

// An INI file's sections, in file order, each its keys and values.
using IniSection = std::map<std::string, std::string, std::less<>>;

// The bytes of `file` if it is a regular file of at most 16 MiB, else "": a
// FIFO or a device in a settings file's place must not block or feed the run
// for ever.
std::string settings_file(const fs::path& file) {
  constexpr off_t kMostBytes = 16 << 20;
  Fd fd(::open(file.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC));
  struct stat st {};
  if (fd.get() < 0 || ::fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > kMostBytes) return {};
  std::string out(static_cast<std::size_t>(st.st_size), '\0');
  std::size_t got = 0;
  while (got < out.size()) {
    const ssize_t n = ::pread(fd.get(), out.data() + got, out.size() - got, static_cast<off_t>(got));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    got += static_cast<std::size_t>(n);
  }
  out.resize(got);
  return out;
}

std::vector<std::pair<std::string, IniSection>> read_ini(const fs::path& file) {
  std::vector<std::pair<std::string, IniSection>> sections;
  std::istringstream in(settings_file(file));
  for (std::string raw; std::getline(in, raw);) {
    const std::string_view line = trim(raw, " \t\r");
    if (line.empty() || line[0] == ';' || line[0] == '#') continue;
    if (line.front() == '[' && line.back() == ']') {
      sections.emplace_back(std::string(line.substr(1, line.size() - 2)), IniSection{});
    } else if (const auto eq = line.find('='); eq != std::string_view::npos && !sections.empty()) {
      sections.back().second[std::string(trim(line.substr(0, eq)))] =
          std::string(trim(line.substr(eq + 1)));
    }
  }
  return sections;
}

// The folder of the Zotero profile that `root`/profiles.ini names, or "".
fs::path profile_dir(const fs::path& root) {
  const auto sections = read_ini(root / "profiles.ini");
  auto resolve = [&](const IniSection& s, std::string_view path_key, bool relative) -> fs::path {
    const auto path = s.find(path_key);
    if (path == s.end() || path->second.empty()) return {};
    return relative ? root / path->second : fs::path(path->second);
  };
  // Firefox-based Zotero (7 and later) names the profile an installation uses in
  // an [Install...] section, which wins over Default=1.
  for (const auto& [name, s] : sections) {
    const auto path = s.find("Default");
    if (name.starts_with("Install") && path != s.end() && !path->second.empty()) {
      return resolve(s, "Default", !fs::path(path->second).is_absolute());
    }
  }
  std::vector<const IniSection*> profiles;
  for (const auto& [name, s] : sections) {
    if (name.starts_with("Profile")) profiles.push_back(&s);
  }
  const IniSection* chosen = profiles.size() == 1 ? profiles[0] : nullptr;
  for (const IniSection* s : profiles) {
    if (auto d = s->find("Default"); d != s->end() && d->second == "1") chosen = s;
  }
  if (chosen == nullptr) return {};
  const auto relative = chosen->find("IsRelative");
  return resolve(*chosen, "Path", relative == chosen->end() || relative->second != "0");
}

// A JavaScript string literal's content (between its quotes) with its escapes undone.
std::string js_string(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\\' || i + 1 == s.size()) {
      out += s[i];
      continue;
    }
    const char c = s[++i];
    if (c == 'n') {
      out += '\n';
    } else if (c == 't') {
      out += '\t';
    } else if (c == 'u' && i + 4 < s.size()) {
      const unsigned long cp = std::strtoul(std::string(s.substr(i + 1, 4)).c_str(), nullptr, 16);
      i += 4;
      // A path is ASCII or UTF-8 in prefs.js; \u escapes of the BMP are written back as UTF-8.
      if (cp < 0x80) {
        out += static_cast<char>(cp);
      } else if (cp < 0x800) {
        out += static_cast<char>(0xC0 | (cp >> 6));
        out += static_cast<char>(0x80 | (cp & 0x3F));
      } else {
        out += static_cast<char>(0xE0 | (cp >> 12));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
      }
    } else {
      out += c;  // \\, \", \'
    }
  }
  return out;
}

// The data-directory preferences of a profile's prefs.js.
struct DataDirPrefs {
  std::string data_dir;
  bool use_data_dir = false;
};

DataDirPrefs read_prefs(const fs::path& prefs_js) {
  DataDirPrefs prefs;
  std::istringstream in(settings_file(prefs_js));
  for (std::string line; std::getline(in, line);) {
    std::string_view l = trim(line, " \t\r");
    if (!l.starts_with("user_pref(")) continue;
    l.remove_prefix(10);
    const auto name_end = l.find("\",");
    if (l.empty() || l[0] != '"' || name_end == std::string_view::npos) continue;
    const std::string_view name = l.substr(1, name_end - 1);
    std::string_view value = trim(l.substr(name_end + 2));
    if (value.ends_with(");")) value.remove_suffix(2);
    value = trim(value);
    if (name == "extensions.zotero.dataDir" && value.size() >= 2 && value.front() == '"' &&
        value.back() == '"') {
      prefs.data_dir = js_string(value.substr(1, value.size() - 2));
    } else if (name == "extensions.zotero.useDataDir") {
      prefs.use_data_dir = value == "true";
    }
  }
  return prefs;
}

bool has_database(const fs::path& dir) {
  std::error_code ec;
  return fs::is_regular_file(dir / "zotero.sqlite", ec);
}

}  // namespace

std::optional<fs::path> find_data_dir(const fs::path& home) {
  fs::path profile;
  // Zotero's own build, then Flathub's (whose home is the sandbox's .var folder).
  for (const fs::path& root :
       {home / ".zotero" / "zotero", home / ".var/app/org.zotero.Zotero/.zotero/zotero"}) {
    profile = profile_dir(root);
    if (!profile.empty()) break;
  }
  const fs::path default_dir = home / "Zotero";
  if (!profile.empty()) {
    const DataDirPrefs prefs = read_prefs(profile / "prefs.js");
    if (prefs.use_data_dir && !prefs.data_dir.empty()) {
      const fs::path dir = fs::path(prefs.data_dir).lexically_normal();
      if (has_database(dir)) return dir;
      // A legacy folder (in the profile) that is gone: Zotero reverts to the default.
      const auto rel = dir.lexically_relative(profile);
      const bool legacy = !rel.empty() && *rel.begin() != "..";
      if (!legacy) return std::nullopt;
      return has_database(default_dir) ? std::optional(default_dir) : std::nullopt;
    }
  }
  if (has_database(default_dir)) return default_dir;
  if (!profile.empty() && has_database(profile / "zotero")) return profile / "zotero";
  return std::nullopt;
}

bool is_sqlite_file(const fs::path& file) {
  std::error_code ec;
  return fs::is_regular_file(file, ec) && first_bytes(file, kSqliteMagic.size()) == kSqliteMagic;
}

bool is_zotero_database(const fs::path& file) {
  if (!is_sqlite_file(file)) return false;
  // immutable=1: no lock taken (Zotero's exclusive one would refuse even a
  // shared one), no journal read, nothing written. The schema is on the first
  // pages, which a write of Zotero's could tear: a failed read is tried again.
  const std::string uri = immutable_uri(file);
  for (int attempt = 0; attempt < 3; ++attempt) {
    sqlite3* db = nullptr;
    int rc = sqlite3_open_v2(uri.c_str(), &db,
                             SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX, nullptr);
    bool found = false;
    if (rc == SQLITE_OK) {
      sqlite3_stmt* stmt = nullptr;
      rc = sqlite3_prepare_v2(db, "SELECT 1 FROM version WHERE schema = 'userdata'", -1, &stmt,
                              nullptr);
      if (rc == SQLITE_OK) {
        rc = sqlite3_step(stmt);
        found = rc == SQLITE_ROW;
        if (rc == SQLITE_ROW || rc == SQLITE_DONE) rc = SQLITE_OK;
      } else if (std::strstr(sqlite3_errmsg(db), "no such table") != nullptr) {
        rc = SQLITE_OK;  // an answer: no version table
      }
      sqlite3_finalize(stmt);
    }
    sqlite3_close(db);
    if (rc == SQLITE_OK) return found;
  }
  return false;
}

namespace {

class ItemReader : public Reader {
 public:
  ItemReader(const Snapshot& snapshot, std::vector<std::int64_t> ids) : snapshot_(snapshot), ids_(std::move(ids)) {
    format_ = Format::kZotero;
    std::error_code ec;
    size_ = std::filesystem::file_size(snapshot.database(), ec);
  }

  std::optional<Record> read_next() override {
    // Items a batch at a time: memory holds one batch of records.
    constexpr std::size_t kBatch = 1000;
    while (at_ == batch_.size()) {
      if (done_ == ids_.size()) return std::nullopt;
      const std::size_t n = std::min(kBatch, ids_.size() - done_);
      const std::vector<std::int64_t> ids(ids_.begin() + static_cast<std::ptrdiff_t>(done_),
                                          ids_.begin() + static_cast<std::ptrdiff_t>(done_ + n));
      done_ += n;
      std::size_t without = 0;
      std::vector<RecordProblem> left_out;
      batch_ = read_items(snapshot_, ids, without, &left_out);
      at_ = 0;
      skipped_ += without;
      for (auto& p : left_out) reject(p.line, std::move(p.what));
    }
    return std::move(batch_[at_++]);
  }

  std::uint64_t bytes_read() const override {
    return ids_.empty() ? size_ : size_ * done_ / ids_.size();
  }

 private:
  const Snapshot& snapshot_;
  std::vector<std::int64_t> ids_;
  std::vector<Record> batch_;
  std::size_t at_ = 0, done_ = 0;
  std::uint64_t size_ = 0;
};

}  // namespace

std::unique_ptr<Reader> item_reader(const Snapshot& snapshot, std::vector<std::int64_t> item_ids) {
  return std::make_unique<ItemReader>(snapshot, std::move(item_ids));
}

void sweep_copies() { scratch::sweep(scratch::temp_directory(), kCopyPrefix); }

}  // namespace abstracts::indexer::zotero
