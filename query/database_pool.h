// The database handles of one index, pooled so that one Index can serve many
// threads: a Xapian::Database is not safe to share between threads, so each call
// borrows a handle of its own.
#ifndef ABSTRACTS_QUERY_DATABASE_POOL_H_
#define ABSTRACTS_QUERY_DATABASE_POOL_H_

#include <filesystem>
#include <memory>
#include <mutex>
#include <vector>

#include <xapian.h>

#include "engine/compression.h"
#include "engine/layout.h"
#include "engine/xapian_errors.h"

namespace abstracts::query {

class DatabasePool {
 public:
  // Opens one handle on the index in `dir` now, so that a missing or unreadable
  // index fails here: IndexNotFound, CorruptIndex (another schema version).
  explicit DatabasePool(std::filesystem::path dir);

  const std::filesystem::path& dir() const { return dir_; }

  // Runs `f(Xapian::Database&, const compression::Decompressor&)` with a handle
  // of its own and the decompressor of its stored abstracts, and returns what `f`
  // returns. Translates Xapian's errors (engine/xapian_errors.h), and retries once
  // if a writer's commit invalidated the revision being read. Thread-safe.
  template <class F>
  auto with_db(F&& f) {
    return xapian_try(dir_, [&] {
      Lease db(*this);
      try {
        return f(*db, db.stored());
      } catch (const Xapian::DatabaseModifiedError&) {
        db->reopen();
        return f(*db, db.stored());
      } catch (const Xapian::DatabaseOpeningError&) {
        db.refresh();  // a bulk build replaced the generation this handle had open
        return f(*db, db.stored());
      }
    });
  }

 private:
  // A database handle, and the version of the stub it was opened through: a
  // bulk build publishes a new generation, which reopen() alone would not see.
  struct Handle {
    std::unique_ptr<Xapian::Database> db;
    layout::StubVersion version;
    // Reads the stored abstracts; a generation's dictionary never changes.
    std::unique_ptr<compression::Decompressor> stored;
  };

  // A handle borrowed from the pool for one call, up to date with the index.
  class Lease {
   public:
    explicit Lease(DatabasePool& pool);
    ~Lease();
    Lease(const Lease&) = delete;
    Lease& operator=(const Lease&) = delete;
    // Opens a fresh handle (the generation it had was removed under it).
    void refresh() { h_ = pool_.open_handle(); }
    Xapian::Database& operator*() { return *h_.db; }
    Xapian::Database* operator->() { return h_.db.get(); }
    const compression::Decompressor& stored() const { return *h_.stored; }

   private:
    DatabasePool& pool_;
    Handle h_;
  };

  Handle open_handle();

  std::filesystem::path dir_;
  std::mutex mutex_;
  std::vector<Handle> idle_;
};

}  // namespace abstracts::query

#endif  // ABSTRACTS_QUERY_DATABASE_POOL_H_
