#include "query/database_pool.h"

#include <string>
#include <utility>

#include "abstracts/error.h"
#include "engine/schema.h"

namespace abstracts::query {
namespace fs = std::filesystem;

namespace {

Xapian::Database open_database(const fs::path& dir) {
  layout::reject_flat_layout(dir);
  if (!layout::has_index(dir)) {
    throw IndexNotFound("no index at " + dir.string(),
                        "create it with `abstracts index --index " + dir.string() + " [PATH...]`");
  }
  // The generation the stub names, opened as what it must be: Xapian would follow
  // the stub to any database it named, a remote one included.
  Xapian::Database db(layout::current_generation(dir).string(), Xapian::DB_BACKEND_GLASS);
  schema::require_version(db, dir);
  return db;
}

}  // namespace

DatabasePool::DatabasePool(fs::path dir) : dir_(std::move(dir)) {
  xapian_try(dir_, [&] { idle_.push_back(open_handle()); });
}

DatabasePool::Handle DatabasePool::open_handle() {
  constexpr int kAttempts = 100;
  for (int attempt = 1;; ++attempt) {
    Handle h;
    h.version = layout::stub_version(dir_);
    try {
      h.db = std::make_unique<Xapian::Database>(open_database(dir_));
      h.stored = std::make_unique<compression::Decompressor>(schema::dictionary_of(*h.db));
      return h;
    } catch (const Xapian::DatabaseOpeningError&) {
      if (attempt == kAttempts || layout::stub_version(dir_) == h.version) throw;
    } catch (const CorruptIndex&) {
      if (attempt == kAttempts || layout::stub_version(dir_) == h.version) throw;
    }
  }
}

DatabasePool::Lease::Lease(DatabasePool& pool) : pool_(pool) {
  std::lock_guard lock(pool_.mutex_);
  if (!pool_.idle_.empty()) {
    h_ = std::move(pool_.idle_.back());
    pool_.idle_.pop_back();
  }
}

DatabasePool::Lease::~Lease() {
  if (!h_.db) return;
  std::lock_guard lock(pool_.mutex_);
  pool_.idle_.push_back(std::move(h_));
}

void DatabasePool::Lease::catch_up(bool whole) {
  if (h_.db && !whole && h_.version == layout::stub_version(pool_.dir_)) {
    h_.db->reopen();  // see what the writer committed since this handle last looked
  } else {
    h_ = pool_.open_handle();  // first use, or a new generation was published
  }
}

}  // namespace abstracts::query
