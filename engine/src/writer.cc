#include "abstracts/writer.h"

#include <xxhash.h>

#include <algorithm>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <map>
#include <mutex>
#include <set>
#include <thread>
#include <unordered_map>
#include <unordered_set>
#include <xapian.h>

#include "abstracts/error.h"
#include "engine/analysis/analyzer.h"
#include "engine/compression.h"
#include "engine/layout.h"
#include "engine/schema.h"
#include "engine/xapian_errors.h"
#include "indexer/document.h"
#include "indexer/reader.h"

namespace abstracts {
namespace fs = std::filesystem;

namespace {

// A bulk build's shard commits every this many abstracts: Xapian's write path
// slows down as its in-memory batch grows, and memory stays bounded. Measured on
// 30k arXiv abstracts (2 cores): 250 -> 9.1 s, 500 -> 8.6 s (35 MB peak),
// 1000 -> 8.8 s, 2000 -> 9.2 s (87 MB), 5000 -> 11.0 s (187 MB).
constexpr Xapian::doccount kShardCommitEvery = 500;
// Abstracts handed to a worker at a time, and batches queued at most per worker.
constexpr std::size_t kBatchSize = 256;
constexpr std::size_t kQueuedBatchesPerWorker = 4;
// A bulk build trains the index's compression dictionary on its first this many
// abstracts (about 0.25 s, while the workers go on with what is queued); a
// smaller build has none, and zstd compresses its abstracts one by one.
constexpr std::size_t kDictionarySamples = 2000;
// Progress is reported every this many abstracts.
constexpr std::uint64_t kProgressEvery = 2000;

std::string absolute_path(const fs::path& p) {
  std::error_code ec;
  auto abs = fs::weakly_canonical(fs::absolute(p), ec);
  return (ec ? fs::absolute(p) : abs).lexically_normal().string();
}

// Size and modification time of a file (the content hash is filled in later).
schema::FileState file_state(const fs::path& file) {
  schema::FileState s;
  std::error_code ec;
  s.size = fs::file_size(file, ec);
  auto mtime = fs::last_write_time(file, ec);
  s.mtime_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(mtime.time_since_epoch()).count();
  return s;
}

unsigned long long hash_file(const fs::path& file) {
  std::FILE* f = std::fopen(file.c_str(), "rb");
  if (f == nullptr) return 0;
  XXH3_state_t* state = XXH3_createState();
  XXH3_64bits_reset(state);
  std::vector<char> buf(1 << 16);
  std::size_t n;
  while ((n = std::fread(buf.data(), 1, buf.size(), f)) > 0) XXH3_64bits_update(state, buf.data(), n);
  std::fclose(f);
  auto h = XXH3_64bits_digest(state);
  XXH3_freeState(state);
  return h;
}

bool is_hidden(const fs::path& p) {
  auto name = p.filename().string();
  return !name.empty() && name[0] == '.';
}

// The regular, non-hidden files below `dir`, in name order.
std::vector<fs::path> files_below(const fs::path& dir) {
  std::error_code ec;
  std::vector<fs::path> files;
  auto it = fs::recursive_directory_iterator(dir, fs::directory_options::skip_permission_denied, ec);
  if (ec) throw InputError("cannot read " + dir.string() + ": " + ec.message(), dir.string(), 0);
  for (; it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (ec) break;
    if (is_hidden(it->path())) {
      if (it->is_directory()) it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file()) files.push_back(it->path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

// The bytes of `files` on disk, for progress.
std::uint64_t bytes_of(const std::vector<fs::path>& files) {
  std::uint64_t total = 0;
  std::error_code ec;
  for (const auto& f : files) {
    auto size = fs::file_size(f, ec);
    if (!ec) total += size;
  }
  return total;
}

// The records of one file, with what every abstract of the file shares.
struct Batch {
  std::string source;  // absolute path
  std::string venue;
  int year = 0;
  std::vector<indexer::Record> records;
  std::shared_ptr<const std::string> dictionary;  // to compress with (empty: none yet)
};

// A bounded queue of batches from the reading thread to a worker.
class BatchQueue {
 public:
  explicit BatchQueue(std::size_t capacity) : capacity_(capacity) {}

  void push(Batch b) {
    std::unique_lock lock(mutex_);
    not_full_.wait(lock, [&] { return queue_.size() < capacity_; });
    queue_.push_back(std::move(b));
    not_empty_.notify_one();
  }

  // False once the queue is closed and drained.
  bool pop(Batch& b) {
    std::unique_lock lock(mutex_);
    not_empty_.wait(lock, [&] { return !queue_.empty() || closed_; });
    if (queue_.empty()) return false;
    b = std::move(queue_.front());
    queue_.pop_front();
    not_full_.notify_one();
    return true;
  }

  void close() {
    std::lock_guard lock(mutex_);
    closed_ = true;
    not_empty_.notify_all();
  }

 private:
  std::size_t capacity_;
  std::mutex mutex_;
  std::condition_variable not_full_, not_empty_;
  std::deque<Batch> queue_;
  bool closed_ = false;
};

// One worker of a bulk build: analyses batches into its own shard database.
class ShardWorker {
 public:
  // A shard is scratch: a crash discards the whole build, so its commits need not
  // reach the disk (no fsync); the merged generation is synced as usual.
  explicit ShardWorker(fs::path path)
      : path_(std::move(path)),
        db_(path_.string(), Xapian::DB_CREATE | Xapian::DB_BACKEND_GLASS | Xapian::DB_NO_SYNC) {}

  void run(BatchQueue& queue) {
    try {
      Batch batch;
      std::shared_ptr<const std::string> dictionary;
      auto compressor = std::make_unique<compression::Compressor>("");
      while (queue.pop(batch)) {
        if (batch.dictionary != dictionary) {
          dictionary = batch.dictionary;
          compressor = std::make_unique<compression::Compressor>(*dictionary);
        }
        for (const auto& record : batch.records) {
          Abstract a = indexer::make_abstract(record, batch.source, batch.venue, batch.year);
          db_.add_document(indexer::make_document(a, record.title.empty(), analyzer_, *compressor));
          if (db_.get_doccount() % kShardCommitEvery == 0) db_.commit();
        }
      }
      db_.commit();
    } catch (...) {
      error_ = std::current_exception();
      Batch drain;
      while (queue.pop(drain)) {
      }
    }
  }

  Xapian::WritableDatabase& db() { return db_; }
  const fs::path& path() const { return path_; }
  std::exception_ptr error() const { return error_; }

 private:
  fs::path path_;
  Xapian::WritableDatabase db_;
  analysis::Analyzer analyzer_;
  std::exception_ptr error_;
};

}  // namespace

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

  static std::string file_key(const std::string& abs) { return std::string(schema::kFileKeyPrefix) + abs; }

  // Deletes the documents of `abs` whose docids are not in `keep`.
  static std::size_t delete_file_documents(Xapian::WritableDatabase& w, const std::string& abs,
                                           const std::set<Xapian::docid>& keep) {
    std::string term = schema::file_term(abs);
    std::vector<Xapian::docid> doomed;
    for (auto it = w.postlist_begin(term); it != w.postlist_end(term); ++it) {
      if (keep.count(*it) == 0) doomed.push_back(*it);
    }
    for (auto id : doomed) w.delete_document(id);
    return doomed.size();
  }

  // The file's state if it is indexed and unchanged (same size and mtime, or
  // the same content); nullopt if it needs indexing, with `now` its current
  // state, hash included. Records a touched file's new time so the next run
  // skips it on the cheap check.
  std::optional<schema::FileState> unchanged(const fs::path& file, const std::string& abs,
                                             schema::FileState& now) {
    now = file_state(file);
    schema::FileState before;
    const bool known = schema::decode(db.get_metadata(file_key(abs)), before);
    if (known && before.size == now.size && before.mtime_ns == now.mtime_ns) return before;
    now.hash = hash_file(file);
    if (!known || before.hash != now.hash) return std::nullopt;
    now.abstracts = before.abstracts;
    db.set_metadata(file_key(abs), schema::encode(now));
    db.commit();
    return before;
  }

  // One file into the current database: read and validated whole, then written
  // in one transaction.
  FileReport index_file(const fs::path& file) {
    FileReport report;
    const std::string abs = absolute_path(file);
    report.path = abs;
    schema::FileState now;
    if (auto before = unchanged(file, abs, now)) {
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
      report.removed = delete_file_documents(db, abs, kept);
      now.abstracts = abstracts.size();
      db.set_metadata(file_key(abs), schema::encode(now));
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
    std::size_t removed = delete_file_documents(db, abs, {});
    db.set_metadata(file_key(abs), "");
    db.commit_transaction();
    return removed;
  }

  // Forgets the files indexed from below `dir` that no longer exist.
  void remove_vanished(const fs::path& from, const std::unordered_set<std::string>& seen) {
    std::string prefix = file_key(absolute_path(from) + "/");
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
        auto below = files_below(p);
        std::unordered_set<std::string> seen;
        for (const auto& f : below) seen.insert(absolute_path(f));
        dirs.emplace_back(p, std::move(seen));
        files.insert(files.end(), below.begin(), below.end());
      } catch (const InputError& e) {
        fail(e);
      }
    }

    if (db.get_doccount() == 0 && !files.empty()) {
      bulk_build(files, options, fail);
    } else {
      IndexProgress progress;
      progress.bytes_total = bytes_of(files);
      for (const auto& f : files) {
        try {
          FileReport report = xapian_try(dir, [&] { return index_file(f); });
          progress.bytes_done += bytes_of({f});
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

  // Builds an empty index from `files` in parallel shards, merges them into the
  // next generation and publishes it. Files that fail go to `fail`.
  template <class Fail>
  void bulk_build(const std::vector<fs::path>& files, const IndexOptions& options, Fail& fail) {
    const fs::path tmp = layout::make_temp_dir(dir);
    struct Cleanup {
      fs::path path;
      ~Cleanup() {
        std::error_code ec;
        fs::remove_all(path, ec);
      }
    } cleanup{tmp};

    unsigned threads = options.threads != 0 ? options.threads : std::max(1u, std::thread::hardware_concurrency());
    std::vector<std::unique_ptr<ShardWorker>> workers;
    for (unsigned i = 0; i < threads; ++i) {
      workers.push_back(xapian_try(dir, [&] {
        return std::make_unique<ShardWorker>(tmp / ("shard-" + std::to_string(i)));
      }));
    }
    // Batch k goes to worker k % threads, so the same files make the same shards
    // and, merged, the same document numbers, which order hits of equal score.
    std::vector<std::unique_ptr<BatchQueue>> queues;
    for (unsigned i = 0; i < threads; ++i) {
      queues.push_back(std::make_unique<BatchQueue>(kQueuedBatchesPerWorker));
    }
    std::size_t batches = 0;
    auto hand_out = [&](Batch b) { queues[batches++ % queues.size()]->push(std::move(b)); };
    std::vector<std::thread> pool;
    // Whatever leaves this function, the workers are told to stop and joined.
    struct Join {
      std::vector<std::unique_ptr<BatchQueue>>& queues;
      std::vector<std::thread>& pool;
      ~Join() {
        for (auto& q : queues) q->close();
        for (auto& t : pool) {
          if (t.joinable()) t.join();
        }
      }
    } join{queues, pool};
    for (unsigned i = 0; i < threads; ++i) {
      pool.emplace_back([&w = *workers[i], &q = *queues[i]] { w.run(q); });
    }

    // Read every file on this thread, handing batches to the workers.
    std::vector<std::pair<std::string, schema::FileState>> indexed;
    std::vector<std::string> failed_files;
    IndexProgress progress;
    progress.bytes_total = bytes_of(files);
    std::uint64_t next_report = kProgressEvery;
    std::exception_ptr reading_error;
    auto dictionary = std::make_shared<const std::string>();
    std::vector<std::string> samples;  // encoded abstracts to train the dictionary on
    bool sampling = true;
    for (const auto& f : files) {
      const std::string abs = absolute_path(f);
      try {
        schema::FileState state = file_state(f);
        state.hash = hash_file(f);
        auto reader = indexer::Reader::open(f);
        Batch batch{abs, reader->venue(), reader->year(), {}, dictionary};
        std::size_t count = 0;
        while (auto record = reader->next()) {
          if (sampling) {
            samples.push_back(schema::encode(indexer::make_abstract(*record, abs, reader->venue(), reader->year())));
            if (samples.size() == kDictionarySamples) {
              dictionary = std::make_shared<const std::string>(compression::train_dictionary(samples));
              samples = {};
              sampling = false;
            }
          }
          batch.records.push_back(std::move(*record));
          ++count;
          if (batch.records.size() == kBatchSize) {
            hand_out(std::move(batch));
            batch = Batch{abs, reader->venue(), reader->year(), {}, dictionary};
          }
          if (options.on_progress && progress.abstracts + count >= next_report) {
            next_report += kProgressEvery;
            IndexProgress now = progress;
            now.abstracts += count;
            now.bytes_done += reader->bytes_read();
            options.on_progress(now);
          }
        }
        if (!batch.records.empty()) hand_out(std::move(batch));
        progress.abstracts += count;
        progress.bytes_done += state.size;
        state.abstracts = count;
        indexed.emplace_back(abs, state);
        FileReport report;
        report.path = abs;
        report.abstracts = count;
        report.skipped = reader->skipped();
        if (options.on_file) options.on_file(report);
      } catch (const InputError& e) {
        failed_files.push_back(abs);
        try {
          fail(e);
        } catch (...) {
          reading_error = std::current_exception();
          break;
        }
      }
    }
    for (auto& q : queues) q->close();
    for (auto& t : pool) t.join();
    for (auto& w : workers) {
      if (w->error()) std::rethrow_exception(w->error());
    }
    if (options.on_progress) options.on_progress(progress);

    xapian_try(dir, [&] {
      // A file that failed half-way leaves nothing behind.
      for (auto& w : workers) {
        for (const auto& abs : failed_files) delete_file_documents(w->db(), abs, {});
      }
      remove_duplicates(workers, files, *dictionary);
      for (auto& w : workers) w->db().commit();

      Xapian::Database shards;
      for (auto& w : workers) shards.add_database(Xapian::Database(w->path().string()));
      const fs::path generation = layout::next_generation(dir);
      shards.compact(generation.string());
      workers.clear();

      Xapian::WritableDatabase fresh(generation.string(), Xapian::DB_OPEN);
      fresh.set_metadata(std::string(schema::kSchemaKey), std::string(schema::kSchemaVersion));
      if (!dictionary->empty()) fresh.set_metadata(std::string(schema::kDictionaryKey), *dictionary);
      for (const auto& [abs, state] : indexed) fresh.set_metadata(file_key(abs), schema::encode(state));
      fresh.commit();
      layout::publish(dir, generation);
      db.close();
      set_db(fresh);
      layout::remove_stale(dir);
    });
    // Without on_error, the first bad file stops the build; the files before it
    // are in the index, as when indexing file by file.
    if (reading_error) std::rethrow_exception(reading_error);
  }

  // The same id more than once (the same text twice, or a repeated "_id"): keep
  // the last one read, as indexing file by file would.
  static void remove_duplicates(std::vector<std::unique_ptr<ShardWorker>>& workers,
                                const std::vector<fs::path>& files, const std::string& dictionary) {
    const compression::Decompressor stored(dictionary);
    std::unordered_map<std::string, std::size_t> file_order;
    for (std::size_t i = 0; i < files.size(); ++i) file_order.emplace(absolute_path(files[i]), i);
    struct Copy {
      std::size_t shard;
      Xapian::docid docid;
      std::pair<std::size_t, std::uint32_t> order;  // (file, line)
    };
    std::unordered_map<std::string, std::vector<Copy>> copies;
    std::unordered_set<std::string> seen;
    const std::string prefix(schema::kIdPrefix);
    for (std::size_t s = 0; s < workers.size(); ++s) {
      auto& db = workers[s]->db();
      for (auto t = db.allterms_begin(prefix); t != db.allterms_end(prefix); ++t) {
        const std::string term = *t;
        if (t.get_termfreq() > 1 || !seen.insert(term).second) copies[term];
      }
    }
    for (auto& [term, list] : copies) {
      for (std::size_t s = 0; s < workers.size(); ++s) {
        auto& db = workers[s]->db();
        for (auto p = db.postlist_begin(term); p != db.postlist_end(term); ++p) {
          Abstract a = schema::stored_abstract(db.get_document(*p), stored);
          list.push_back({s, *p, {file_order[a.source], a.line}});
        }
      }
      auto last = std::max_element(list.begin(), list.end(),
                                   [](const Copy& x, const Copy& y) { return x.order < y.order; });
      for (auto it = list.begin(); it != list.end(); ++it) {
        if (it != last) workers[it->shard]->db().delete_document(it->docid);
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
  return xapian_try(impl_->dir, [&] { return impl_->remove_file(absolute_path(file)); });
}

void Writer::commit() {
  xapian_try(impl_->dir, [&] { impl_->db.commit(); });
}

}  // namespace abstracts
