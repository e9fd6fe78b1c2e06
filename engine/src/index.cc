#include "abstracts/index.h"

#include <mutex>
#include <unordered_set>
#include <vector>
#include <xapian.h>

#include "abstracts/error.h"
#include "engine/analysis/analyzer.h"
#include "engine/schema.h"
#include "engine/xapian_errors.h"
#include "query/parser.h"
#include "query/snippet.h"

namespace abstracts {
namespace fs = std::filesystem;

namespace {

// Xapian::Stem is not thread-safe, so each thread has its own analyzer.
const analysis::Analyzer& thread_analyzer() {
  thread_local analysis::Analyzer analyzer;
  return analyzer;
}

Xapian::Database open_database(const fs::path& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    throw IndexNotFound("no index at " + dir.string(),
                        "create it with `abstracts index --index " + dir.string() + " [PATH...]`");
  }
  Xapian::Database db(dir.string());
  if (db.get_metadata(std::string(schema::kSchemaKey)) != schema::kSchemaVersion) {
    throw CorruptIndex("the index at " + dir.string() + " was written by another version of abstracts",
                       "delete " + dir.string() + " and run `abstracts index` to rebuild it");
  }
  return db;
}

}  // namespace

struct Index::Impl {
  fs::path dir;
  // Xapian::Database is not safe to share between threads, so concurrent callers
  // each borrow their own handle from this pool.
  std::mutex mutex;
  std::vector<std::unique_ptr<Xapian::Database>> idle;

  class Lease {
   public:
    explicit Lease(Impl& impl) : impl_(impl) {
      {
        std::lock_guard lock(impl_.mutex);
        if (!impl_.idle.empty()) {
          db_ = std::move(impl_.idle.back());
          impl_.idle.pop_back();
        }
      }
      if (db_) {
        db_->reopen();  // see what writers committed since this handle last looked
      } else {
        db_ = std::make_unique<Xapian::Database>(open_database(impl_.dir));
      }
    }
    ~Lease() {
      std::lock_guard lock(impl_.mutex);
      impl_.idle.push_back(std::move(db_));
    }
    Xapian::Database& operator*() { return *db_; }
    Xapian::Database* operator->() { return db_.get(); }

   private:
    Impl& impl_;
    std::unique_ptr<Xapian::Database> db_;
  };

  // Runs `f` with a database handle, translating errors, and retrying once if a
  // writer's commit invalidated the revision being read.
  template <class F>
  auto with_db(F&& f) {
    return xapian_try(dir, [&] {
      Lease db(*this);
      try {
        return f(*db);
      } catch (const Xapian::DatabaseModifiedError&) {
        db->reopen();
        return f(*db);
      }
    });
  }
};

Index::Index(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Index::Index(Index&&) noexcept = default;
Index& Index::operator=(Index&&) noexcept = default;
Index::~Index() = default;

Index Index::open(const fs::path& dir) {
  auto impl = std::make_unique<Impl>();
  impl->dir = dir;
  // Open one handle now, so a missing or unreadable index fails here.
  xapian_try(dir, [&] { impl->idle.push_back(std::make_unique<Xapian::Database>(open_database(dir))); });
  return Index(std::move(impl));
}

const fs::path& Index::path() const { return impl_->dir; }

SearchResults Index::search(std::string_view text, const SearchOptions& options) const {
  const auto& analyzer = thread_analyzer();
  Xapian::Query query = query::Parser(analyzer).parse(text);
  std::unordered_set<std::string> terms;
  for (auto t = query.get_unique_terms_begin(); t != query.get_unique_terms_end(); ++t) {
    if (schema::is_word_term(*t)) terms.insert(*t);
  }
  return impl_->with_db([&](Xapian::Database& db) {
    Xapian::Enquire enquire(db);
    enquire.set_query(query);
    enquire.set_weighting_scheme(Xapian::BM25Weight());
    Xapian::MSet mset = enquire.get_mset(static_cast<Xapian::doccount>(options.offset),
                                         static_cast<Xapian::doccount>(options.limit));
    SearchResults results;
    results.estimated_matches = mset.get_matches_estimated();
    std::size_t rank = options.offset;
    for (auto it = mset.begin(); it != mset.end(); ++it) {
      Hit hit;
      hit.rank = ++rank;
      hit.score = it.get_weight();
      hit.abstract = schema::decode(it.get_document().get_data());
      if (options.snippets) {
        hit.snippet = query::make_snippet(hit.abstract.text, terms, options.snippet_chars, analyzer);
      }
      results.hits.push_back(std::move(hit));
    }
    return results;
  });
}

std::optional<Abstract> Index::get(std::string_view id) const {
  return impl_->with_db([&](Xapian::Database& db) -> std::optional<Abstract> {
    std::string term = schema::id_term(id);
    auto it = db.postlist_begin(term);
    if (it == db.postlist_end(term)) return std::nullopt;
    return schema::decode(db.get_document(*it).get_data());
  });
}

IndexStats Index::stats() const {
  return impl_->with_db([&](Xapian::Database& db) {
    IndexStats s;
    s.path = impl_->dir.string();
    s.abstracts = db.get_doccount();
    s.average_length = db.get_avlength();
    const std::string file_prefix(schema::kFileKeyPrefix);
    for (auto k = db.metadata_keys_begin(file_prefix); k != db.metadata_keys_end(file_prefix); ++k) {
      if (!db.get_metadata(*k).empty()) ++s.files;
    }
    for (auto t = db.allterms_begin(); t != db.allterms_end(); ++t) {
      if (schema::is_word_term(*t)) ++s.terms;
    }
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(impl_->dir, ec)) {
      if (e.is_regular_file(ec)) s.size_bytes += e.file_size(ec);
    }
    return s;
  });
}

}  // namespace abstracts
