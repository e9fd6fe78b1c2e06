#include "abstracts/writer.h"

#include <set>
#include <unordered_set>
#include <xapian.h>

#include "abstracts/error.h"
#include "engine/analysis/analyzer.h"
#include "engine/compression.h"
#include "engine/layout.h"
#include "engine/schema.h"
#include "engine/xapian_errors.h"
#include "indexer/bulk_build.h"
#include "indexer/document.h"
#include "indexer/file_state.h"
#include "indexer/input_files.h"
#include "indexer/reader.h"

namespace abstracts {
namespace fs = std::filesystem;

struct Writer::Impl {
  fs::path dir;
  std::unique_ptr<layout::WriterLock> lock;
  Xapian::WritableDatabase db;
  analysis::Analyzer analyzer;
  std::unique_ptr<compression::Compressor> compressor;  // with db's dictionary

  void set_db(Xapian::WritableDatabase opened) {
    db = std::move(opened);
    compressor = std::make_unique<compression::Compressor>(schema::dictionary_of(db));
  }

  // One file into the current database: read and validated whole, then written
  // in one transaction.
  FileReport index_file(const fs::path& file) {
    FileReport report;
    const std::string abs = indexer::absolute_path(file);
    report.path = abs;
    schema::FileState now;
    if (auto before = indexer::unchanged(db, file, abs, now)) {
      report.status = FileReport::Status::kUnchanged;
      report.abstracts = before->abstracts;
      return report;
    }

    auto reader = indexer::Reader::open(file);
    std::vector<std::pair<Abstract, bool>> abstracts;
    while (auto record = reader->next()) {
      bool title_in_text = record->title.empty();
      abstracts.emplace_back(indexer::make_abstract(*record, abs, reader->venue(), reader->year()),
                             title_in_text);
    }
    report.skipped = reader->skipped();

    db.begin_transaction();
    try {
      std::set<Xapian::docid> kept;
      for (const auto& [a, title_in_text] : abstracts) {
        auto doc = indexer::make_document(a, title_in_text, analyzer, *compressor);
        kept.insert(db.replace_document(schema::id_term(a.id), doc));
      }
      report.removed = indexer::delete_file_documents(db, abs, kept);
      now.abstracts = abstracts.size();
      db.set_metadata(schema::file_key(abs), schema::encode(now));
      db.commit_transaction();
    } catch (...) {
      db.cancel_transaction();
      throw;
    }
    report.abstracts = abstracts.size();
    return report;
  }

  std::size_t remove_file(const std::string& abs) {
    db.begin_transaction();
    std::size_t removed = indexer::delete_file_documents(db, abs, {});
    db.set_metadata(schema::file_key(abs), "");
    db.commit_transaction();
    return removed;
  }

  // Forgets the files indexed from below `dir` that no longer exist.
  void remove_vanished(const fs::path& from, const std::unordered_set<std::string>& seen) {
    std::string prefix = schema::file_key(indexer::absolute_path(from) + "/");
    std::vector<std::string> gone;
    std::error_code ec;
    for (auto k = db.metadata_keys_begin(prefix); k != db.metadata_keys_end(prefix); ++k) {
      std::string path = (*k).substr(schema::kFileKeyPrefix.size());
      if (seen.count(path) == 0 && !fs::exists(path, ec)) gone.push_back(path);
    }
    for (const auto& path : gone) remove_file(path);
  }

  std::size_t index(const std::vector<fs::path>& paths, const IndexOptions& options) {
    std::size_t failed = 0;
    auto fail = [&](const std::exception& e) {
      ++failed;
      if (!options.on_error) throw;
      options.on_error(e);
    };
    // Expand directories; remember them to forget their vanished files after.
    std::vector<fs::path> files;
    std::vector<std::pair<fs::path, std::unordered_set<std::string>>> dirs;
    for (const auto& p : paths) {
      std::error_code ec;
      if (!fs::is_directory(p, ec)) {
        files.push_back(p);
        continue;
      }
      try {
        auto below = indexer::files_below(p);
        std::unordered_set<std::string> seen;
        for (const auto& f : below) seen.insert(indexer::absolute_path(f));
        dirs.emplace_back(p, std::move(seen));
        files.insert(files.end(), below.begin(), below.end());
      } catch (const InputError& e) {
        fail(e);
      }
    }

    if (db.get_doccount() == 0 && !files.empty()) {
      indexer::BuiltGeneration built = indexer::bulk_build(dir, files, options, fail);
      db.close();
      set_db(std::move(built.db));
      layout::remove_stale(dir);
      // Without on_error, the first bad file stops the build; the files before it
      // are in the index, as when indexing file by file.
      if (built.stopped) std::rethrow_exception(built.stopped);
    } else {
      IndexProgress progress;
      progress.bytes_total = indexer::bytes_of(files);
      for (const auto& f : files) {
        try {
          FileReport report = xapian_try(dir, [&] { return index_file(f); });
          progress.bytes_done += indexer::bytes_of({f});
          progress.abstracts += report.abstracts;
          if (options.on_file) options.on_file(report);
          if (options.on_progress) options.on_progress(progress);
        } catch (const InputError& e) {
          fail(e);
        }
      }
    }
    xapian_try(dir, [&] {
      for (const auto& [d, seen] : dirs) remove_vanished(d, seen);
    });
    return failed;
  }
};

Writer::Writer(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Writer::Writer(Writer&&) noexcept = default;
Writer& Writer::operator=(Writer&&) noexcept = default;

Writer::~Writer() {
  if (!impl_) return;
  try {
    impl_->db.commit();
  } catch (...) {
    // A destructor must not throw; uncommitted changes are lost, the index stays
    // as of the last commit.
  }
}

Writer Writer::open(const fs::path& dir) {
  std::error_code ec;
  if (fs::exists(dir, ec) && !fs::is_directory(dir, ec)) {
    throw IndexNotFound(dir.string() + " is not a directory", "give --index a directory");
  }
  fs::create_directories(dir, ec);
  if (ec) throw Error("cannot create the index directory " + dir.string() + ": " + ec.message());
  auto impl = std::make_unique<Impl>();
  impl->dir = dir;
  impl->lock = std::make_unique<layout::WriterLock>(dir);
  return xapian_try(dir, [&] {
    if (!layout::has_index(dir)) {
      layout::reject_flat_layout(dir);
      const fs::path first = layout::next_generation(dir);
      Xapian::WritableDatabase created(first.string(), Xapian::DB_CREATE_OR_OPEN | Xapian::DB_BACKEND_GLASS);
      created.set_metadata(std::string(schema::kSchemaKey), std::string(schema::kSchemaVersion));
      created.commit();
      layout::publish(dir, first);
    }
    layout::remove_stale(dir);  // what a crashed bulk build left
    impl->set_db(Xapian::WritableDatabase(layout::current_generation(dir).string(), Xapian::DB_OPEN));
    schema::require_version(impl->db, dir);
    return Writer(std::move(impl));
  });
}

std::size_t Writer::index(const std::vector<fs::path>& paths, const IndexOptions& options) {
  return xapian_try(impl_->dir, [&] { return impl_->index(paths, options); });
}

FileReport Writer::index_file(const fs::path& file) {
  FileReport result;
  IndexOptions options;
  options.on_file = [&](const FileReport& r) { result = r; };
  index({file}, options);
  return result;
}

std::size_t Writer::index_directory(const fs::path& dir,
                                    const std::function<void(const FileReport&)>& on_file,
                                    const std::function<void(const std::exception&)>& on_error) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    throw InputError(dir.string() + ": not a directory", dir.string(), 0);
  }
  IndexOptions options;
  options.on_file = on_file;
  options.on_error = on_error;
  return index({dir}, options);
}

std::string Writer::add(Abstract a) {
  return xapian_try(impl_->dir, [&] {
    if (a.id.empty()) a.id = content_id(a.text);
    a.text = display_text(a.text);
    const bool title_in_text = a.title.empty();  // a derived title is the text's first sentence
    a.title = title_in_text ? derive_title(a.text) : display_text(a.title);
    impl_->db.replace_document(schema::id_term(a.id),
                               indexer::make_document(a, title_in_text, impl_->analyzer, *impl_->compressor));
    return a.id;
  });
}

bool Writer::remove(std::string_view id) {
  return xapian_try(impl_->dir, [&] {
    std::string term = schema::id_term(id);
    if (!impl_->db.term_exists(term)) return false;
    impl_->db.delete_document(term);
    return true;
  });
}

std::size_t Writer::remove_file(const fs::path& file) {
  return xapian_try(impl_->dir, [&] { return impl_->remove_file(indexer::absolute_path(file)); });
}

void Writer::commit() {
  xapian_try(impl_->dir, [&] { impl_->db.commit(); });
}

}  // namespace abstracts
