#include "bench/speed/zotero_synth.h"

#include <sqlite3.h>
#include <zlib.h>

#include <cctype>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <map>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

#include "indexer/zotero.h"

namespace abstracts::speed {
// The helpers' own namespace: the library compiles as one unit with synth.cc,
// which has an Rng of its own.
namespace zotero_synth {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// A connection, and its statements, that throw std::runtime_error naming the file.
class Db {
 public:
  Db(const fs::path& file, int flags) : file_(file) {
    if (sqlite3_open_v2(file.c_str(), &db_, flags, nullptr) != SQLITE_OK) fail("cannot open");
  }
  ~Db() { sqlite3_close(db_); }
  Db(const Db&) = delete;
  Db& operator=(const Db&) = delete;

  [[noreturn]] void fail(const std::string& what) const {
    throw std::runtime_error(file_.string() + ": " + what + ": " + sqlite3_errmsg(db_));
  }
  void exec(const std::string& sql) {
    if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, nullptr) != SQLITE_OK)
      fail(sql.substr(0, 80));
  }
  sqlite3* get() const { return db_; }

 private:
  fs::path file_;
  sqlite3* db_ = nullptr;
};

class Stmt {
 public:
  Stmt(Db& db, const std::string& sql) : db_(&db) {
    if (sqlite3_prepare_v2(db.get(), sql.c_str(), -1, &stmt_, nullptr) != SQLITE_OK)
      db.fail(sql.substr(0, 80));
  }
  ~Stmt() { sqlite3_finalize(stmt_); }
  Stmt(const Stmt&) = delete;
  Stmt& operator=(const Stmt&) = delete;

  Stmt& bind(int i, std::int64_t v) {
    sqlite3_bind_int64(stmt_, i, v);
    return *this;
  }
  Stmt& bind(int i, std::string_view v) {
    sqlite3_bind_text(stmt_, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
    return *this;
  }
  Stmt& bind_null(int i) {
    sqlite3_bind_null(stmt_, i);
    return *this;
  }
  bool step() {
    const int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW) return true;
    if (rc != SQLITE_DONE) db_->fail("step");
    return false;
  }
  // Runs a statement that returns no rows, and makes it ready to run again.
  void run() {
    step();
    sqlite3_reset(stmt_);
  }
  void reset() { sqlite3_reset(stmt_); }
  std::int64_t integer(int i) const { return sqlite3_column_int64(stmt_, i); }
  std::string text(int i) const {
    const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, i));
    return p == nullptr ? std::string()
                        : std::string(p, static_cast<std::size_t>(sqlite3_column_bytes(stmt_, i)));
  }

 private:
  Db* db_;
  sqlite3_stmt* stmt_ = nullptr;
};

// Lines of a plain or gzip-compressed file (gzopen reads both).
class Lines {
 public:
  explicit Lines(const fs::path& file) : file_(file) { open(); }
  ~Lines() { gzclose(gz_); }
  Lines(const Lines&) = delete;
  Lines& operator=(const Lines&) = delete;

  bool next(std::string& line) {
    line.clear();
    char buf[1 << 16];
    while (gzgets(gz_, buf, sizeof buf) != nullptr) {
      line += buf;
      if (!line.empty() && line.back() == '\n') {
        line.pop_back();
        return true;
      }
    }
    int err = 0;
    gzerror(gz_, &err);
    if (err != Z_OK && err != Z_STREAM_END)
      throw std::runtime_error(file_.string() + ": cannot read");
    return !line.empty();
  }
  void rewind() {
    gzclose(gz_);
    open();
  }

 private:
  void open() {
    gz_ = gzopen(file_.c_str(), "rb");
    if (gz_ == nullptr) throw std::runtime_error(file_.string() + ": cannot open");
    gzbuffer(gz_, 1 << 17);
  }
  fs::path file_;
  gzFile gz_ = nullptr;
};

// One abstract of the source file.
struct Paper {
  std::string id, title, text, doi;
  std::vector<std::string> categories;
  std::vector<std::pair<std::string, std::string>> authors;  // family, given
};

std::string string_of(const json& j, const char* key) {
  const auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// The papers of `file`, one a line, from its start again past its end.
class Papers {
 public:
  explicit Papers(const fs::path& file) : file_(file), lines_(file) {}
  Paper next() {
    std::string line;
    for (int pass = 0; pass < 2; ++pass) {
      while (lines_.next(line)) {
        ++number_;
        if (line.empty()) continue;
        const json j = json::parse(line, nullptr, false);
        if (!j.is_object())
          throw std::runtime_error(file_.string() + ":" + std::to_string(number_) + ": not JSON");
        Paper p;
        p.id = j.contains("_id") ? string_of(j, "_id") : string_of(j, "id");
        p.title = string_of(j, "title");
        p.text = j.contains("text") ? string_of(j, "text") : string_of(j, "abstract");
        p.doi = string_of(j, "doi");
        if (const auto c = j.find("categories"); c != j.end()) {
          if (c->is_array()) {
            for (const auto& v : *c) {
              if (v.is_string()) p.categories.push_back(v.get<std::string>());
            }
          } else if (c->is_string()) {
            std::string s = c->get<std::string>();
            for (std::size_t at = 0; at < s.size();) {
              const auto end = std::min(s.find(' ', at), s.size());
              if (end > at) p.categories.push_back(s.substr(at, end - at));
              at = end + 1;
            }
          }
        }
        if (const auto a = j.find("authors_parsed"); a != j.end() && a->is_array()) {
          for (const auto& name : *a) {
            if (name.is_array() && name.size() >= 2 && name[0].is_string() && name[1].is_string()) {
              p.authors.emplace_back(name[0].get<std::string>(), name[1].get<std::string>());
            }
          }
        }
        return p;
      }
      lines_.rewind();
      number_ = 0;
    }
    throw std::runtime_error(file_.string() + ": no abstracts");
  }

 private:
  fs::path file_;
  Lines lines_;
  std::size_t number_ = 0;
};

// Draws from the generator's raw output, the same with every standard library.
class Rng {
 public:
  explicit Rng(std::uint64_t seed) : gen_(seed) {}
  std::size_t pick(std::size_t n) { return static_cast<std::size_t>(gen_() % n); }

 private:
  std::mt19937_64 gen_;
};

constexpr const char* kFamilies[] = {
    "Smith",        "Müller",     "García",   "Wang",   "Nakamura",     "Okafor",
    "Rossi",        "Novák",      "Kowalski", "Silva",  "Andersson",    "Dubois",
    "Ivanova",      "Chen",       "Kim",      "Singh",  "Haddad",       "O'Brien",
    "van der Berg", "de la Cruz", "Nguyen",   "Yılmaz", "Papadopoulos", "Schmidt",
    "Jensen",       "Costa",      "Li",       "Zhang",  "Tanaka",       "Moreau",
    "Bianchi",      "Horváth",    "Popescu",  "Kumar",  "Sato",         "Fischer"};
constexpr const char* kGivens[] = {
    "Anna",  "J.",     "María", "Wei",     "Hiroshi", "Chinedu", "Luca",   "Petra", "Jan",  "Ana",
    "Erik",  "Claire", "Olga",  "Min-jun", "Priya",   "Omar",    "Seán",   "Thi",   "Ayşe", "Nikos",
    "A. B.", "Yuki",   "Sofia", "Mateus",  "Xiu",     "Giulia",  "Zoltán", "Ioana"};
constexpr const char* kCollaborations[] = {"ATLAS Collaboration", "LIGO Scientific Collaboration",
                                           "Planck Collaboration", "The DESI Collaboration"};

// Zotero's key alphabet: digits and capitals without 0, 1 and O.
constexpr std::string_view kKeyAlphabet = "23456789ABCDEFGHIJKLMNPQRSTUVWXYZ";

// "YYYY-MM-DD HH:MM:SS" of `seconds` past 2023-01-01 00:00:00 UTC.
std::string timestamp(std::int64_t seconds) {
  const std::time_t t = 1672531200 + seconds;
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S", &tm);
  return buf;
}

// An arXiv id's year and month: "2301.00001" and "0705.1862" (YYMM),
// "hep-th/9901001" (YYMM after the slash); 0 if it has none.
std::pair<int, int> arxiv_month(std::string_view id) {
  std::string_view digits =
      id.substr(id.find('/') == std::string_view::npos ? 0 : id.find('/') + 1);
  if (digits.size() < 4) return {0, 0};
  for (std::size_t i = 0; i < 4; ++i) {
    if (digits[i] < '0' || digits[i] > '9') return {0, 0};
  }
  const int yy = (digits[0] - '0') * 10 + (digits[1] - '0');
  const int mm = (digits[2] - '0') * 10 + (digits[3] - '0');
  if (mm < 1 || mm > 12) return {0, 0};
  return {yy >= 91 ? 1900 + yy : 2000 + yy, mm};
}

// The tables whose rows a Zotero database needs before any item: types,
// fields, creator types, their mappings, the schema versions, and the like.
constexpr const char* kLookupTables[] = {"itemTypes",
                                         "itemTypesCombined",
                                         "fieldFormats",
                                         "fields",
                                         "fieldsCombined",
                                         "itemTypeFields",
                                         "itemTypeFieldsCombined",
                                         "baseFieldMappings",
                                         "baseFieldMappingsCombined",
                                         "charsets",
                                         "fileTypes",
                                         "fileTypeMimeTypes",
                                         "creatorTypes",
                                         "itemTypeCreatorTypes",
                                         "syncObjectTypes",
                                         "version",
                                         "relationPredicates",
                                         "customItemTypes",
                                         "customFields",
                                         "customItemTypeFields",
                                         "customBaseFieldMappings"};

}  // namespace

json synthesize(const ZoteroSynthOptions& o) {
  const auto start = std::chrono::steady_clock::now();
  if (o.count == 0) throw std::runtime_error("--count must be at least 1");
  std::error_code ec;
  for (const char* suffix : {"", "-journal", "-wal", "-shm"})
    fs::remove(o.out.string() + suffix, ec);

  Db db(o.out, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_URI);
  {
    Db src(indexer::zotero::immutable_uri(fs::absolute(o.from)), SQLITE_OPEN_READONLY | SQLITE_OPEN_URI);
    Stmt page(src, "PRAGMA page_size");
    if (page.step()) db.exec("PRAGMA page_size = " + std::to_string(page.integer(0)));
  }
  db.exec("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF");
  {
    Stmt attach(db, "ATTACH DATABASE ? AS src");
    attach.bind(1, indexer::zotero::immutable_uri(fs::absolute(o.from))).run();
  }
  auto src_has = [&](const std::string& table) {
    Stmt q(db, "SELECT 1 FROM src.sqlite_master WHERE type = 'table' AND name = ?");
    return q.bind(1, table).step();
  };
  if (!src_has("version") || !src_has("items")) {
    throw std::runtime_error(o.from.string() +
                             ": not a Zotero database (no version or items table)");
  }
  db.exec("BEGIN");
  std::vector<std::string> later;  // indexes and triggers, made once the rows are in
  {
    Stmt q(
        db,
        "SELECT type, sql FROM src.sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%'"
        " ORDER BY type = 'table' DESC, rowid");
    while (q.step()) {
      const std::string sql = q.text(1);
      if (q.text(0) == "table") {
        if (sql.rfind("CREATE VIRTUAL", 0) != 0) db.exec(sql);
      } else {
        later.push_back(sql);
      }
    }
  }
  for (const char* table : kLookupTables) {
    if (src_has(table))
      db.exec(std::string("INSERT INTO main.") + table + " SELECT * FROM src." + table);
  }
  db.exec("INSERT INTO main.libraries SELECT * FROM src.libraries WHERE type = 'user'");

  // The ids the rows need.
  auto one_id = [&](const std::string& sql, const std::string& name) -> std::int64_t {
    Stmt q(db, sql);
    if (!q.bind(1, name).step()) return 0;
    return q.integer(0);
  };
  const std::int64_t library =
      one_id("SELECT libraryID FROM main.libraries WHERE type = ?", "user");
  auto type_id = [&](const char* name) {
    return one_id("SELECT itemTypeID FROM main.itemTypesCombined WHERE typeName = ?", name);
  };
  const std::int64_t journal_article = type_id("journalArticle"),
                     conference_paper = type_id("conferencePaper");
  const std::int64_t preprint = type_id("preprint") != 0 ? type_id("preprint") : journal_article;
  const std::int64_t author =
      one_id("SELECT creatorTypeID FROM main.creatorTypes WHERE creatorType = ?", "author");
  if (library == 0 || journal_article == 0 || conference_paper == 0 || author == 0) {
    throw std::runtime_error(o.from.string() +
                             ": lacks the user library, an item type or the author creator type");
  }
  std::map<std::string, std::int64_t> field_ids;
  {
    Stmt q(db, "SELECT fieldName, fieldID FROM main.fieldsCombined");
    while (q.step()) field_ids[q.text(0)] = q.integer(1);
  }
  std::set<std::pair<std::int64_t, std::int64_t>> valid;  // (itemTypeID, fieldID) a type has
  {
    Stmt q(db, "SELECT itemTypeID, fieldID FROM main.itemTypeFieldsCombined");
    while (q.step()) valid.emplace(q.integer(0), q.integer(1));
  }

  Stmt insert_item(
      db,
      "INSERT INTO main.items (itemID, itemTypeID, dateAdded, dateModified, clientDateModified,"
      " libraryID, key, version, synced) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 1)");
  Stmt insert_value(db, "INSERT OR IGNORE INTO main.itemDataValues (value) VALUES (?)");
  Stmt find_value(db, "SELECT valueID FROM main.itemDataValues WHERE value = ?");
  Stmt insert_data(db, "INSERT INTO main.itemData (itemID, fieldID, valueID) VALUES (?, ?, ?)");
  Stmt insert_creator(
      db,
      "INSERT INTO main.creators (creatorID, firstName, lastName, fieldMode) VALUES (?, ?, ?, ?)");
  Stmt insert_item_creator(db,
                           "INSERT INTO main.itemCreators (itemID, creatorID, creatorTypeID, "
                           "orderIndex) VALUES (?, ?, ?, ?)");
  Stmt insert_tag(db, "INSERT INTO main.tags (tagID, name) VALUES (?, ?)");
  Stmt insert_item_tag(db, "INSERT INTO main.itemTags (itemID, tagID, type) VALUES (?, ?, ?)");
  Stmt insert_collection(
      db,
      "INSERT INTO main.collections (collectionID, collectionName, parentCollectionID,"
      " libraryID, key) VALUES (?, ?, ?, ?, ?)");
  Stmt insert_collection_item(
      db, "INSERT INTO main.collectionItems (collectionID, itemID, orderIndex) VALUES (?, ?, ?)");
  Stmt insert_trash(db, "INSERT INTO main.deletedItems (itemID) VALUES (?)");

  Rng rng(o.seed);
  std::set<std::string> keys;
  auto new_key = [&] {
    while (true) {
      std::string key;
      for (int i = 0; i < 8; ++i) key += kKeyAlphabet[rng.pick(kKeyAlphabet.size())];
      if (keys.insert(key).second) return key;
    }
  };
  auto set_field = [&](std::int64_t item, std::int64_t type, const char* field,
                       std::string_view value) {
    const auto f = field_ids.find(field);
    if (value.empty() || f == field_ids.end() || !valid.contains({type, f->second})) return false;
    insert_value.bind(1, value).run();
    std::int64_t value_id = 0;
    if (sqlite3_changes(db.get()) == 1) {
      value_id = sqlite3_last_insert_rowid(db.get());
    } else {
      find_value.bind(1, value);
      find_value.step();
      value_id = find_value.integer(0);
      find_value.reset();
    }
    insert_data.bind(1, item).bind(2, f->second).bind(3, value_id).run();
    return true;
  };
  std::map<std::tuple<std::string, std::string, int>, std::int64_t> creators;
  auto creator_id = [&](const std::string& family, const std::string& given, int mode) {
    auto [it, added] =
        creators.try_emplace({family, given, mode}, static_cast<std::int64_t>(creators.size() + 1));
    if (added)
      insert_creator.bind(1, it->second).bind(2, given).bind(3, family).bind(4, mode).run();
    return it->second;
  };
  std::map<std::string, std::int64_t> tags;
  auto tag_item = [&](std::int64_t item, const std::string& name, int type) {
    auto [it, added] = tags.try_emplace(name, static_cast<std::int64_t>(tags.size() + 1));
    if (added) insert_tag.bind(1, it->second).bind(2, name).run();
    insert_item_tag.bind(1, item).bind(2, it->second).bind(3, type).run();
  };
  std::map<std::pair<std::int64_t, std::string>, std::int64_t> collections;  // (parent, name) -> id
  auto collection = [&](std::int64_t parent, const std::string& name) {
    auto [it, added] =
        collections.try_emplace({parent, name}, static_cast<std::int64_t>(collections.size() + 1));
    if (added) {
      insert_collection.bind(1, it->second).bind(2, name);
      if (parent == 0) {
        insert_collection.bind_null(3);
      } else {
        insert_collection.bind(3, parent);
      }
      insert_collection.bind(4, library).bind(5, new_key()).run();
    }
    return it->second;
  };

  Papers papers(o.abstracts);
  std::size_t with_abstract = 0, trashed = 0, live_with_abstract = 0, doi_field = 0, doi_extra = 0;
  for (std::size_t i = 0; i < o.count; ++i) {
    const Paper p = papers.next();
    const auto item = static_cast<std::int64_t>(i + 1);
    // Mostly journal articles; a conference paper every 8th, a preprint every 10th.
    const std::int64_t type = i % 10 == 3  ? preprint
                              : i % 8 == 5 ? conference_paper
                                           : journal_article;
    const std::string added = timestamp(static_cast<std::int64_t>(i) * 60);
    const std::string modified = timestamp(static_cast<std::int64_t>(i) * 60 + 3600);
    insert_item.bind(1, item).bind(2, type).bind(3, added).bind(4, modified).bind(5, modified);
    insert_item.bind(6, library)
        .bind(7, new_key())
        .bind(8, static_cast<std::int64_t>(i % 997 + 1))
        .run();

    set_field(item, type, "title", p.title);
    const bool has_abstract = i % 25 != 24 && !p.text.empty();
    if (has_abstract) set_field(item, type, "abstractNote", p.text);
    if (const auto [year, month] = arxiv_month(p.id); year != 0) {
      char date[64];
      std::snprintf(date, sizeof date, "%04d-%02d-00 %02d/%04d", year, month, month, year);
      set_field(item, type, "date", date);
    }
    set_field(item, type, "url", "https://arxiv.org/abs/" + p.id);
    const std::string category = p.categories.empty() ? std::string("misc") : p.categories.front();
    const std::string archive = category.substr(0, category.find('.'));
    if (type == preprint && preprint != journal_article) {
      set_field(item, type, "archiveID", "arXiv:" + p.id);
      set_field(item, type, "repository", "arXiv");
    } else if (type == conference_paper) {
      set_field(item, type, "proceedingsTitle", "Proceedings of the Conference on " + category);
    } else {
      set_field(item, type, "publicationTitle", "Journal of " + archive);
    }
    // Its DOI: arXiv's own (DataCite) unless the record names one; every 15th
    // only as a line of Extra, as Zotero keeps a field a type lacks.
    const std::string doi = p.doi.empty() ? "10.48550/arXiv." + p.id : p.doi;
    std::string extra = i % 6 == 1 ? "arXiv: " + p.id : "";
    bool doi_in_field = false;
    if (i % 15 != 7) doi_in_field = set_field(item, type, "DOI", doi);
    if (!doi_in_field) extra = "DOI: " + doi + (extra.empty() ? "" : "\n" + extra);
    set_field(item, type, "extra", extra);

    std::vector<std::pair<std::string, std::string>> authors = p.authors;
    if (authors.empty()) {
      const std::size_t n = 1 + rng.pick(6);
      for (std::size_t a = 0; a < n; ++a) {
        authors.emplace_back(kFamilies[rng.pick(std::size(kFamilies))],
                             kGivens[rng.pick(std::size(kGivens))]);
      }
    }
    int order = 0;
    if (i % 30 == 11) {
      const std::int64_t c =
          creator_id(kCollaborations[rng.pick(std::size(kCollaborations))], "", 1);
      insert_item_creator.bind(1, item).bind(2, c).bind(3, author).bind(4, order++).run();
    }
    std::set<std::int64_t>
        seen;  // itemCreators allows a creator twice only at two places; keep one
    for (const auto& [family, given] : authors) {
      const std::int64_t c = creator_id(family, given, 0);
      if (!seen.insert(c).second) continue;
      insert_item_creator.bind(1, item).bind(2, c).bind(3, author).bind(4, order++).run();
    }

    for (const auto& c : p.categories)
      tag_item(item, c, 1);  // automatic tags, as a translator adds
    if (i % 7 == 0) tag_item(item, "to-read", 0);
    if (i % 13 == 0) tag_item(item, "★ important", 0);
    const std::int64_t top = collection(0, archive);
    insert_collection_item.bind(1, collection(top, category)).bind(2, item).bind(3, 0).run();
    if (i % 11 == 0) {
      const std::int64_t chapter =
          collection(collection(0, "Thesis"), "Chapter " + std::to_string(i % 5 + 1));
      insert_collection_item.bind(1, chapter).bind(2, item).bind(3, 0).run();
    }
    const bool in_trash = i % 50 == 48;  // items with an abstract: the reader must leave them out
    if (in_trash) insert_trash.bind(1, item).run();

    with_abstract += has_abstract;
    trashed += in_trash;
    live_with_abstract += has_abstract && !in_trash;
    doi_field += doi_in_field;
    doi_extra += !doi_in_field;
  }
  for (const auto& sql : later) db.exec(sql);
  db.exec("COMMIT");
  db.exec("DETACH DATABASE src");
  db.exec("PRAGMA journal_mode = DELETE");

  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return {{"items", o.count},
          {"with_abstract", with_abstract},
          {"without_abstract", o.count - with_abstract},
          {"trashed", trashed},
          {"live_with_abstract", live_with_abstract},
          {"doi_field", doi_field},
          {"doi_extra_only", doi_extra},
          {"creators", creators.size()},
          {"tags", tags.size()},
          {"collections", collections.size()},
          {"file_bytes", fs::file_size(o.out)},
          {"seconds", seconds}};
}

}  // namespace zotero_synth

nlohmann::json synthesize_zotero(const ZoteroSynthOptions& options) {
  return zotero_synth::synthesize(options);
}

}  // namespace abstracts::speed
