// Fuzzes the Zotero reader (indexer/zotero.h) as a sync uses it: the input is
// SQL run on a Zotero database of the tables abstracts reads (empty but for its
// lookups), which is then read as the Writer reads one: a snapshot, its live
// items with their digests, every item's record, the sync state encoded and
// decoded. SQL is the fuzzer's language for what a database may hold: items
// with many tags, long keys, bytes that are not UTF-8, cycles of collections, a
// userdata version that is no number. Each input gets bounded SQL (no ATTACH
// or VACUUM INTO, which would write elsewhere; a cap on steps and pages).
#include <sqlite3.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>

#include "abstracts/error.h"
#include "indexer/zotero.h"
#include "indexer/zotero_sync.h"
#include "tests/fuzz/fuzz_check.h"
#include "tests/support/zotero_schema.h"

using abstracts::fuzz::check;
using abstracts::fuzz::is_utf8;
namespace zotero = abstracts::indexer::zotero;
namespace fs = std::filesystem;

namespace {

// This process's database, made anew for each input; its folder removed at
// exit (the path is never destroyed, so the exit handler may read it).
const fs::path& database() {
  static const fs::path* const path = [] {
    char dir[] = "/tmp/abstracts-fuzz-zotero-XXXXXX";
    check(::mkdtemp(dir) != nullptr, "mkdtemp");
    return new fs::path(fs::path(dir) / "zotero.sqlite");
  }();
  static const int removed_at_exit = std::atexit([] {
    std::error_code ec;
    fs::remove_all(database().parent_path(), ec);
  });
  (void)removed_at_exit;
  return *path;
}

int deny_attach(void*, int action, const char*, const char*, const char*, const char*) {
  return action == SQLITE_ATTACH || action == SQLITE_DETACH ? SQLITE_DENY : SQLITE_OK;
}

int enough(void* steps) { return ++*static_cast<long*>(steps) > 2000 ? 1 : 0; }  // x 1000 instructions

// Writes the database: the schema, then `sql` as far as SQLite takes it.
void write_database(const std::string& sql) {
  std::error_code ec;
  for (const char* suffix : {"", "-journal", "-wal", "-shm"}) fs::remove(database().string() + suffix, ec);
  sqlite3* db = nullptr;
  check(sqlite3_open(database().c_str(), &db) == SQLITE_OK, "sqlite3_open");
  check(sqlite3_exec(db, abstracts::testing::kZoteroSchema, nullptr, nullptr, nullptr) == SQLITE_OK,
        "the schema is SQL");
  sqlite3_exec(db, "PRAGMA max_page_count = 16384", nullptr, nullptr, nullptr);  // 64 MB
  sqlite3_limit(db, SQLITE_LIMIT_LENGTH, 32 << 20);
  sqlite3_set_authorizer(db, deny_attach, nullptr);
  long steps = 0;
  sqlite3_progress_handler(db, 1000, enough, &steps);
  sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr);
  sqlite3_close(db);
}

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string sql(reinterpret_cast<const char*>(data), size);
  const std::string folded = lower(sql);
  if (folded.find("vacuum") != std::string::npos || folded.find("attach") != std::string::npos) return 0;
  write_database(sql);
  try {
    const auto snapshot = zotero::Snapshot::take(database());
    const auto live = zotero::live_items(snapshot);
    std::vector<std::int64_t> ids;
    for (const auto& item : live) ids.push_back(item.item_id);
    std::size_t without = 0;
    std::vector<abstracts::indexer::RecordProblem> left_out;
    const auto records = zotero::read_items(snapshot, ids, without, &left_out);
    check(records.size() + without + left_out.size() <= ids.size(), "each item is a record, skipped or left out");
    for (const auto& r : records) {
      const abstracts::Abstract& f = r.fields;
      bool utf8 = is_utf8(r.raw_text) && is_utf8(f.title) && is_utf8(f.zotero_key) && is_utf8(f.venue);
      for (const auto& t : f.tags) utf8 = utf8 && is_utf8(t);
      for (const auto& c : f.collections) utf8 = utf8 && is_utf8(c);
      check(utf8, "a record is UTF-8");
      check(f.tags.size() <= 1000 && f.collections.size() <= 1000, "a record keeps at most 1,000 tags and collections");
      check(std::is_sorted(f.tags.begin(), f.tags.end()), "tags are in name order");
    }
    for (const auto& p : left_out) check(is_utf8(p.what) && p.what.find('\0') == std::string::npos, "a problem is said in UTF-8");
    // The state a sync keeps reads back as it was.
    zotero::SyncState state = zotero::state_of(live, snapshot.state());
    zotero::SyncState back;
    check(zotero::decode(zotero::encode(state), back), "a sync state decodes");
    check(zotero::changes(back, live).read.empty() && zotero::changes(back, live).take_out.empty(),
          "a sync state read back finds nothing changed");
  } catch (const abstracts::Error&) {
    // InputError: not Zotero's database, damaged, or a schema it does not read.
  }
  return 0;
}
