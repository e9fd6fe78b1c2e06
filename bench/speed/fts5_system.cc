// SQLite FTS5 through its C API: the embedded full-text index most projects reach for.
#include <sqlite3.h>

#include <stdexcept>

#include "bench/relevance/collection.h"
#include "bench/speed/system.h"

namespace abstracts::speed {
namespace {

namespace fs = std::filesystem;

class Db {
 public:
  Db(const fs::path& file, int flags) {
    if (sqlite3_open_v2(file.c_str(), &db_, flags, nullptr) != SQLITE_OK) {
      std::string msg = db_ ? sqlite3_errmsg(db_) : "out of memory";
      sqlite3_close(db_);
      throw std::runtime_error("cannot open " + file.string() + ": " + msg);
    }
  }
  ~Db() { sqlite3_close(db_); }
  Db(const Db&) = delete;
  Db& operator=(const Db&) = delete;

  void exec(const char* sql) {
    char* err = nullptr;
    if (sqlite3_exec(db_, sql, nullptr, nullptr, &err) != SQLITE_OK) {
      std::string msg = err ? err : "?";
      sqlite3_free(err);
      throw std::runtime_error(std::string(sql) + ": " + msg);
    }
  }
  sqlite3_stmt* prepare(const char* sql) {
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v2(db_, sql, -1, &stmt, nullptr) != SQLITE_OK) fail(sql);
    return stmt;
  }
  [[noreturn]] void fail(const std::string& what) {
    throw std::runtime_error(what + ": " + sqlite3_errmsg(db_));
  }

 private:
  sqlite3* db_ = nullptr;
};

class Fts5Searcher : public Searcher {
 public:
  explicit Fts5Searcher(const fs::path& file) : db_(file, SQLITE_OPEN_READONLY) {
    stmt_ = db_.prepare(
        "SELECT rowid, bm25(docs), snippet(docs, 1, '[', ']', '…', 24) FROM docs "
        "WHERE docs MATCH ? ORDER BY bm25(docs) LIMIT 10");
  }
  ~Fts5Searcher() override { sqlite3_finalize(stmt_); }

  std::size_t search(const BenchQuery& query) override {
    const std::string q = fts5_syntax(query);
    sqlite3_reset(stmt_);
    sqlite3_bind_text(stmt_, 1, q.c_str(), static_cast<int>(q.size()), SQLITE_TRANSIENT);
    std::size_t hits = 0;
    int rc;
    while ((rc = sqlite3_step(stmt_)) == SQLITE_ROW) {
      ++hits;
      sink_ += static_cast<std::size_t>(sqlite3_column_int64(stmt_, 0)) +
               static_cast<std::size_t>(-sqlite3_column_double(stmt_, 1)) +
               static_cast<std::size_t>(sqlite3_column_bytes(stmt_, 2));
    }
    if (rc != SQLITE_DONE) db_.fail(q);
    return hits;
  }

 private:
  Db db_;
  sqlite3_stmt* stmt_ = nullptr;
  std::size_t sink_ = 0;
};

}  // namespace

void index_fts5(const fs::path& corpus, const fs::path& file) {
  fs::remove(file);
  Db db(file, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
  db.exec(
      "CREATE VIRTUAL TABLE docs USING fts5(title, text, "
      "tokenize='porter unicode61 remove_diacritics 2')");
  db.exec("BEGIN");  // one transaction: one journal, one sync
  sqlite3_stmt* insert = db.prepare("INSERT INTO docs(title, text) VALUES (?, ?)");
  try {
    eval::for_each_document(corpus, [&](const eval::CorpusDocument& d) {
      sqlite3_reset(insert);
      sqlite3_bind_text(insert, 1, d.title.data(), static_cast<int>(d.title.size()), SQLITE_STATIC);
      sqlite3_bind_text(insert, 2, d.text.data(), static_cast<int>(d.text.size()), SQLITE_STATIC);
      if (sqlite3_step(insert) != SQLITE_DONE) db.fail("insert " + d.id);
    });
  } catch (...) {
    sqlite3_finalize(insert);
    throw;
  }
  sqlite3_finalize(insert);
  db.exec("COMMIT");
}

std::unique_ptr<Searcher> open_fts5(const fs::path& file) {
  return std::make_unique<Fts5Searcher>(file);
}

}  // namespace abstracts::speed
