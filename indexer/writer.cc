#include "abstracts/writer.h"

#include <algorithm>
#include <chrono>
#include <set>
#include <unordered_set>
#include <xapian.h>

#include "abstracts/error.h"
#include "engine/analysis/analyzer.h"
#include "engine/cluster.h"
#include "engine/compression.h"
#include "engine/layout.h"
#include "engine/schema.h"
#include "engine/xapian_errors.h"
#include "indexer/bulk_build.h"
#include "indexer/document.h"
#include "indexer/file_documents.h"
#include "indexer/file_state.h"
#include "indexer/input_files.h"
#include "indexer/reader.h"

namespace abstracts {
namespace fs = std::filesystem;

namespace {

// Files indexed one by one are committed together once this long has passed
// since the last commit, and at the end of the run. Each file is still all or
// nothing (a transaction of its own), but readers, whom a commit makes read the
// index again (query/database_pool.h), are not made to for every small file.
constexpr auto kCommitInterval = std::chrono::milliseconds(500);

// A file with more abstracts than this is not written in one transaction, which
// Xapian holds in memory until it commits (505 MB for 115k arXiv abstracts), but
// into a copy of the index, committed every kCopyCommitEvery abstracts, which
// replaces the index when the file is done (Impl::index_large_file). Adding
// 115k arXiv abstracts to an index: batches of 500 took 129 s and 25 MB, of
// 2,000 101 s and 31 MB (one transaction: 157 s and 505 MB).
constexpr std::size_t kTransactionAbstracts = 10000;
constexpr std::size_t kCopyCommitEvery = 2000;

}  // namespace

struct Writer::Impl {
  fs::path dir;
  std::unique_ptr<layout::WriterLock> lock;
  Xapian::WritableDatabase db;
  analysis::Analyzer analyzer;
  // With db's dictionary: to store abstracts, and to read where they came from.
  std::unique_ptr<compression::Compressor> compressor;
  std::unique_ptr<compression::Decompressor> stored;
  // The part of the corpus this index holds ({0, 0}: all of it).
  Shard shard;
  std::chrono::steady_clock::time_point last_commit = std::chrono::steady_clock::now();
  // Files to index again: abstracts they share with a file that let go of them
  // still name that file as their location (indexer/file_documents.h).
  std::set<std::string> relocate;

  void set_db(Xapian::WritableDatabase opened) {
    db = std::move(opened);
    const std::string dictionary = schema::dictionary_of(db);
    compressor = std::make_unique<compression::Compressor>(dictionary);
    stored = std::make_unique<compression::Decompressor>(dictionary);
  }

  void commit() {
    db.commit();
    last_commit = std::chrono::steady_clock::now();
  }

  void commit_if_due() {
    if (std::chrono::steady_clock::now() - last_commit >= kCommitInterval) commit();
  }

  // Takes note of files whose abstracts' locations must be read again, and marks
  // their state in `to` stale, so that a run that stops before it gets to them
  // leaves the next run to do it.
  void mark_for_relocation(Xapian::WritableDatabase& to, const std::set<std::string>& files) {
    for (const auto& path : files) {
      to.set_metadata(schema::file_key(path), schema::encode(schema::FileState{}));
      relocate.insert(path);
    }
  }

  Xapian::Document document(const Abstract& a, bool title_in_text) const {
    return indexer::make_document(a, title_in_text, analyzer, *compressor, shard.count != 0);
  }

  // Writes the abstract `a` of the file indexed as `abs` into `to`; returns its docid.
  Xapian::docid write(Xapian::WritableDatabase& to, const Abstract& a, bool title_in_text, const std::string& abs) {
    auto doc = document(a, title_in_text);
    const std::string id_term = schema::id_term(a.id);
    indexer::keep_other_files(to, id_term, abs, doc);
    indexer::replace_same_paper(to, id_term, abs, doc);
    return to.replace_document(id_term, doc);
  }

  // The file indexed as `abs` now has the abstracts `kept` (docids, sorted) and
  // the state `now`: the rest leave it.
  std::size_t finish_file(Xapian::WritableDatabase& to, const std::string& abs, const std::vector<Xapian::docid>& kept,
                          const schema::FileState& now) {
    const indexer::FileRelease released = indexer::release_file_documents(to, abs, kept, *stored);
    mark_for_relocation(to, released.relocate);
    to.set_metadata(schema::file_key(abs), schema::encode(now));
    return released.removed;
  }

  // One file into the current database: read and validated whole, then written
  // in one transaction, which the next commit makes visible.
  FileReport index_file(const fs::path& file, const IndexOptions& options) {
    FileReport report;
    indexer::require_regular_file(file);
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
      if (abstracts.size() == kTransactionAbstracts) {
        abstracts = {};
        reader.reset();
        return index_large_file(file, abs, now, options);
      }
      if (!indexer::in_shard(*record, shard)) {
        ++report.other_shards;
        continue;
      }
      bool title_in_text = record->fields.title.empty();
      abstracts.emplace_back(indexer::make_abstract(*record, abs, reader->venue(), reader->year()),
                             title_in_text);
    }
    report.skipped = reader->skipped();
    report.rejected = reader->rejected();
    indexer::warn_skipped(*reader, file, options.on_warning);

    db.begin_transaction(false);
    try {
      std::vector<Xapian::docid> kept;
      for (const auto& [a, title_in_text] : abstracts) kept.push_back(write(db, a, title_in_text, abs));
      std::sort(kept.begin(), kept.end());
      now.abstracts = abstracts.size();
      report.removed = finish_file(db, abs, kept, now);
      db.commit_transaction();
    } catch (...) {
      db.cancel_transaction();
      throw;
    }
    report.abstracts = abstracts.size();
    return report;
  }

  // A file too large for a transaction: written into a copy of the current
  // generation, in batches, and published as the next generation when it is
  // whole. Readers and a crash see the index with the file or without it; a bad
  // line leaves the index as it was.
  FileReport index_large_file(const fs::path& file, const std::string& abs, schema::FileState now,
                              const IndexOptions& options) {
    commit();  // the files before this one go into the copy
    const fs::path next = layout::next_generation(dir);
    struct Cleanup {
      fs::path path;
      bool keep = false;
      ~Cleanup() {
        std::error_code ec;
        if (!keep) fs::remove_all(path, ec);
      }
    } cleanup{next};
    Xapian::Database(layout::current_generation(dir).string(), Xapian::DB_BACKEND_GLASS)
        .compact(next.string(), Xapian::DBCOMPACT_NO_RENUMBER);
    Xapian::WritableDatabase copy(next.string(), Xapian::DB_OPEN | Xapian::DB_BACKEND_GLASS);

    FileReport report;
    report.path = abs;
    auto reader = indexer::Reader::open(file);
    std::vector<Xapian::docid> kept;
    while (auto record = reader->next()) {
      if (!indexer::in_shard(*record, shard)) {
        ++report.other_shards;
        continue;
      }
      Abstract a = indexer::make_abstract(*record, abs, reader->venue(), reader->year());
      kept.push_back(write(copy, a, record->fields.title.empty(), abs));
      if (kept.size() % kCopyCommitEvery == 0) copy.commit();
    }
    std::sort(kept.begin(), kept.end());
    report.skipped = reader->skipped();
    report.rejected = reader->rejected();
    indexer::warn_skipped(*reader, file, options.on_warning);
    report.abstracts = kept.size();
    now.abstracts = kept.size();
    report.removed = finish_file(copy, abs, kept, now);
    copy.commit();
    layout::publish(dir, next);
    cleanup.keep = true;
    db.close();
    set_db(std::move(copy));
    layout::remove_stale(dir);
    return report;
  }

  // Forgets the file indexed as `abs`: the abstracts no other file has leave the
  // index. Returns how many did.
  std::size_t remove_file(const std::string& abs) {
    db.begin_transaction(false);
    try {
      const indexer::FileRelease released = indexer::release_file_documents(db, abs, {}, *stored);
      mark_for_relocation(db, released.relocate);
      db.set_metadata(schema::file_key(abs), "");
      db.commit_transaction();
      return released.removed;
    } catch (...) {
      db.cancel_transaction();
      throw;
    }
  }

  // Forgets the files indexed from below `from` that are gone: not `seen` in it
  // now, and not on the disk either. What was indexed from an `unreadable`
  // folder stays: nobody can tell whether it is gone.
  void remove_vanished(const fs::path& from, const std::unordered_set<std::string>& seen,
                       const std::vector<fs::path>& unreadable, const IndexOptions& options) {
    std::string prefix = schema::file_key(indexer::absolute_path(from) + "/");
    std::vector<std::string> unreadable_folders;
    for (const auto& u : unreadable) unreadable_folders.push_back(indexer::absolute_path(u) + "/");
    std::vector<std::string> gone;
    for (auto k = db.metadata_keys_begin(prefix); k != db.metadata_keys_end(prefix); ++k) {
      std::string path = (*k).substr(schema::kFileKeyPrefix.size());
      if (seen.count(path) != 0 || db.get_metadata(*k).empty()) continue;
      auto under = [&](const std::string& folder) { return path.starts_with(folder); };
      if (std::any_of(unreadable_folders.begin(), unreadable_folders.end(), under)) continue;
      std::error_code ec;
      if (fs::status(path, ec).type() == fs::file_type::not_found) gone.push_back(path);
    }
    for (const auto& path : gone) {
      FileReport report;
      report.path = path;
      report.status = FileReport::Status::kRemoved;
      report.removed = remove_file(path);
      if (options.on_file) options.on_file(report);
    }
  }

  std::size_t index(const std::vector<fs::path>& paths, const IndexOptions& options) {
    std::size_t failed = 0;
    auto fail = [&](const InputError& e) {
      ++failed;
      if (!options.on_error) throw e;
      options.on_error(e);
    };
    auto warn = [&](const InputError& e) {
      if (options.on_warning) options.on_warning(e);
    };
    // Expand directories; remember them to forget their vanished files after.
    struct Folder {
      fs::path path;
      std::unordered_set<std::string> seen;
      std::vector<fs::path> unreadable;
    };
    std::vector<fs::path> files;
    std::vector<Folder> folders;
    for (const auto& p : paths) {
      std::error_code ec;
      if (!fs::is_directory(p, ec)) {
        files.push_back(p);
        continue;
      }
      try {
        indexer::FolderContents below = indexer::files_below(p, fail, warn);
        Folder folder{p, {}, std::move(below.unreadable)};
        for (const auto& f : below.files) folder.seen.insert(indexer::absolute_path(f));
        folders.push_back(std::move(folder));
        files.insert(files.end(), below.files.begin(), below.files.end());
      } catch (const InputError& e) {
        fail(e);
      }
    }

    // A file named twice ("a.txt a.txt", or a file and its folder) is read once;
    // the index's own files (`index .` with the index in "."), never.
    std::unordered_set<std::string> named;
    const std::string own = indexer::absolute_path(dir) + '/';
    std::erase_if(files, [&](const fs::path& f) {
      std::string name = indexer::absolute_path(f);
      return name.starts_with(own) || !named.insert(std::move(name)).second;
    });

    if (db.get_doccount() == 0 && !files.empty()) {
      indexer::BuiltGeneration built = indexer::bulk_build(dir, files, options, shard, fail);
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
          FileReport report = xapian_try(dir, [&] { return index_file(f, options); });
          progress.bytes_done += indexer::bytes_of({f});
          progress.abstracts += report.abstracts;
          if (options.on_file) options.on_file(report);
          if (options.on_progress) options.on_progress(progress);
        } catch (const InputError& e) {
          fail(e);
        }
        commit_if_due();
      }
    }
    for (const auto& folder : folders) remove_vanished(folder.path, folder.seen, folder.unreadable, options);
    relocate_abstracts(options, fail);
    commit();
    return failed;
  }

  // Indexes again the files marked for relocation (that are still indexed).
  template <class Fail>
  void relocate_abstracts(const IndexOptions& options, Fail& fail) {
    while (!relocate.empty()) {
      const std::string path = *relocate.begin();
      relocate.erase(relocate.begin());
      if (db.get_metadata(schema::file_key(path)).empty()) continue;  // forgotten since
      try {
        FileReport report = index_file(path, options);
        if (options.on_file) options.on_file(report);
      } catch (const InputError& e) {
        fail(e);
      }
    }
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

namespace {

// Checks that `wanted` is the shard setting of the index `db` in `dir`, storing
// it in a new, empty index.
void agree_on_shard(Xapian::WritableDatabase& db, const fs::path& dir, const Shard& wanted) {
  const std::string key(cluster::kShardKey);
  const std::string stored = db.get_metadata(key);
  const std::string asked = wanted.count == 0 ? "" : cluster::to_string(wanted);
  if (stored == asked) return;
  if (stored.empty() && db.get_doccount() == 0 && db.metadata_keys_begin(std::string(schema::kFileKeyPrefix)) ==
                                                      db.metadata_keys_end(std::string(schema::kFileKeyPrefix))) {
    db.set_metadata(key, asked);
    db.commit();
    return;
  }
  const std::string holds = stored.empty() ? "a whole corpus" : "shard " + stored;
  throw Error("the index at " + dir.string() + " holds " + holds + ", not " +
                  (asked.empty() ? std::string("a whole corpus") : "shard " + asked),
              "a shard is written with the setting it was built with; build another in a new directory");
}

}  // namespace

Writer Writer::open(const fs::path& dir, const WriterOptions& options) {
  const Shard& shard = options.shard;
  if (shard != Shard{} && !cluster::is_shard(shard)) {
    throw Error("no shard " + std::to_string(shard.index) + " of " + std::to_string(shard.count) +
                ": a shard is K of N, with 1 <= K <= N <= " + std::to_string(cluster::kMaxShards));
  }
  std::error_code ec;
  if (fs::exists(dir, ec) && !fs::is_directory(dir, ec)) {
    throw IndexNotFound(dir.string() + " is not a directory",
                        "Writer::open takes a directory (and creates it if missing)");
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
    const fs::path current = layout::current_generation(dir);  // checks the stub before removing anything
    layout::remove_stale(dir);  // what a crashed bulk build left
    impl->set_db(Xapian::WritableDatabase(current.string(), Xapian::DB_OPEN | Xapian::DB_BACKEND_GLASS));
    schema::require_version(impl->db, dir);
    agree_on_shard(impl->db, dir, shard);
    impl->shard = shard;
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
    const bool title_in_text = a.title.empty();  // a derived title is the text's first sentence
    // As a file's record is made an abstract: the same cleaning and id rule.
    const indexer::Record record{a, a.text, a.line};
    if (!indexer::in_shard(record, impl_->shard)) {
      const std::string id = indexer::abstract_id(record);
      throw Error("abstract " + id + " belongs to shard " +
                  cluster::to_string({cluster::shard_of(id, impl_->shard.count), impl_->shard.count}) +
                  ", not to this index, shard " + cluster::to_string(impl_->shard));
    }
    const Abstract made = indexer::make_abstract(record, a.source, a.venue, a.year);
    Xapian::Document doc = impl_->document(made, title_in_text);
    indexer::replace_same_paper(impl_->db, schema::id_term(made.id), "", doc);
    impl_->db.replace_document(schema::id_term(made.id), doc);
    return made.id;
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
  return xapian_try(impl_->dir, [&] {
    const std::size_t removed = impl_->remove_file(indexer::absolute_path(file));
    // A file that cannot be read again keeps its stale state: the next index run
    // that reaches it reads it.
    IndexOptions quiet;
    auto ignore = [](const InputError&) {};
    impl_->relocate_abstracts(quiet, ignore);
    impl_->commit();
    return removed;
  });
}

void Writer::commit() {
  xapian_try(impl_->dir, [&] { impl_->commit(); });
}

}  // namespace abstracts
