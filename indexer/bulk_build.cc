#include "indexer/bulk_build.h"

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <exception>
#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <unordered_map>
#include <utility>

#include "abstracts/error.h"
#include "engine/analysis/analyzer.h"
#include "engine/cluster.h"
#include "engine/compression.h"
#include "engine/layout.h"
#include "engine/room.h"
#include "engine/schema.h"
#include "engine/xapian_errors.h"
#include "indexer/document.h"
#include "indexer/papers.h"
#include "indexer/file_state.h"
#include "indexer/input_files.h"
#include "indexer/reader.h"

namespace abstracts::indexer {
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

// The records of one file, with what every abstract of the file shares.
struct Batch {
  std::string source;  // absolute path
  std::string venue;
  int year = 0;
  std::vector<Record> records;
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

// One worker of a bulk build: analyses batches into shard databases of its own,
// a new one every `part_abstracts` abstracts.
class ShardWorker {
 public:
  // Opens the first part, so that a build of no abstracts has one (empty) too.
  // `dir` is the index's, on the same disk.
  ShardWorker(const fs::path& dir, fs::path path, bool xapian_positions, Xapian::doccount part_abstracts)
      : path_(std::move(path)), xapian_positions_(xapian_positions), part_abstracts_(part_abstracts) {
    pending_.dir = dir;
    open_part();
  }

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
          Abstract a = make_abstract(record, batch.source, batch.venue, batch.year);
          if (!db_) open_part();
          const Xapian::Document doc =
              make_document(a, record.fields.title.empty(), analyzer_, *compressor, xapian_positions_);
          db_->add_document(doc);
          pending_.bytes += room::document_bytes(doc);
          const Xapian::doccount n = db_->get_doccount();
          if (n == part_abstracts_) {
            close_part();
          } else if (n % kShardCommitEvery == 0) {
            room::commit(*db_, pending_);
          }
        }
      }
      if (db_) close_part();
    } catch (...) {
      error_ = std::current_exception();
      if (db_) room::discard(*db_);  // the build fails: nothing more to write
      Batch drain;
      while (queue.pop(drain)) {
      }
    }
  }

  // The shard databases written, in the order of their abstracts.
  const std::vector<fs::path>& parts() const { return parts_; }
  std::exception_ptr error() const { return error_; }

 private:
  // A shard is scratch: a crash discards the whole build, so its commits need not
  // reach the disk (no fsync) and may change its blocks in place (DB_DANGEROUS:
  // no reader ever opens a shard); the merged generation is synced as usual.
  void close_part() {
    room::commit(*db_, pending_);
    db_->close();
    db_.reset();
  }

  void open_part() {
    parts_.push_back(path_.string() + "-" + std::to_string(parts_.size()));
    db_.emplace(parts_.back().string(),
                Xapian::DB_CREATE | Xapian::DB_BACKEND_GLASS | Xapian::DB_NO_SYNC | Xapian::DB_DANGEROUS);
  }

  fs::path path_;
  bool xapian_positions_;
  Xapian::doccount part_abstracts_;
  std::vector<fs::path> parts_;
  std::optional<Xapian::WritableDatabase> db_;  // the part being written
  room::Pending pending_;                      // of db_
  analysis::Analyzer analyzer_;
  std::exception_ptr error_;
};

// The terms of `prefix` that more than one document of `parts` has, together.
// The parts' terms merged in order, by a heap of one cursor per part (the k-way
// merge of Xapian's own compaction): memory stays with the duplicates, not with
// every id of a million-abstract build. (The parts added to one
// Xapian::Database would merge them too, but Xapian 1.4 sums a term's
// frequencies there by asking every part, once per id.)
std::vector<std::string> shared_terms(std::vector<Xapian::WritableDatabase>& parts, std::string_view id_prefix) {
  const std::string prefix(id_prefix);
  struct Cursor {
    std::string term;  // the part's current term (TermIterator's operator* copies)
    std::size_t part;
  };
  const auto later = [](const Cursor& x, const Cursor& y) { return x.term > y.term; };
  std::vector<Xapian::TermIterator> at, end;
  std::vector<Cursor> heap;
  for (std::size_t s = 0; s < parts.size(); ++s) {
    at.push_back(parts[s].allterms_begin(prefix));
    end.push_back(parts[s].allterms_end(prefix));
    if (at[s] != end[s]) heap.push_back({*at[s], s});
  }
  std::make_heap(heap.begin(), heap.end(), later);
  std::vector<std::string> out;
  std::string term;  // never empty once read: every such term has its prefix
  Xapian::doccount freq = 0;
  while (!heap.empty()) {
    std::pop_heap(heap.begin(), heap.end(), later);
    Cursor& least = heap.back();
    if (least.term != term) {
      if (freq > 1) out.push_back(term);
      term.swap(least.term);
      freq = 0;
    }
    freq += at[least.part].get_termfreq();
    if (++at[least.part] != end[least.part]) {
      least.term = *at[least.part];
      std::push_heap(heap.begin(), heap.end(), later);
    } else {
      heap.pop_back();
    }
  }
  if (freq > 1) out.push_back(term);
  return out;
}

// The same paper read more than once (indexer/papers.h): each part holds one
// document per record, and the documents that share an id or an identifier
// with another, in any part, are taken out and written again, one per paper,
// into the last part, exactly as indexing file by file writes them. Papers are
// gathered one at a time, so memory stays with the largest. Returns, by source,
// the records that are the same paper as a record read before them (in the
// order of `files`, then of lines), as indexing file by file counts them.
std::unordered_map<std::string, std::size_t> merge_same_papers(std::vector<Xapian::WritableDatabase>& parts,
                                                               const PaperWriter& into_last,
                                                               const compression::Decompressor& stored,
                                                               const std::vector<fs::path>& files,
                                                               room::Pending& pending) {
  // A document: its part in the high 32 bits, its docid in the low.
  using Node = std::uint64_t;
  std::unordered_map<Node, Node> parent;
  const auto root = [&](Node n) {
    while (true) {
      const Node p = parent.try_emplace(n, n).first->second;
      if (p == n) return n;
      const Node grand = parent[p];
      parent[n] = grand;
      n = grand;
    }
  };
  for (const std::string_view prefix : {schema::kIdPrefix, schema::kIdentifierPrefix}) {
    for (const auto& term : shared_terms(parts, prefix)) {
      std::optional<Node> first;
      for (std::size_t s = 0; s < parts.size(); ++s) {
        for (auto p = parts[s].postlist_begin(term); p != parts[s].postlist_end(term); ++p) {
          const Node n = (static_cast<Node>(s) << 32) | *p;
          if (!first) {
            first = root(n);
          } else if (const Node r = root(n); r != *first) {
            parent[r] = *first;
          }
        }
      }
    }
  }
  std::unordered_map<Node, std::vector<Node>> papers;
  for (const auto& [n, p] : parent) papers[root(n)].push_back(n);
  parent = {};
  std::unordered_map<std::string, std::size_t> file_order, same_paper;
  for (std::size_t i = 0; i < files.size(); ++i) file_order.emplace(absolute_path(files[i]), i);
  auto& last = parts.back();
  Xapian::doccount written = 0;
  for (auto& [r, nodes] : papers) {
    std::sort(nodes.begin(), nodes.end());
    std::vector<PaperRecord> records;
    for (const Node n : nodes) {
      auto& part = parts[n >> 32];
      const auto docid = static_cast<Xapian::docid>(n & 0xffffffffu);
      for (auto& record : paper_records(part.get_document(docid), stored)) records.push_back(std::move(record));
      part.delete_document(docid);
    }
    // Of one file's records with one id, those group_papers() drops are the paper read again.
    for (const auto& record : records) ++same_paper[record.abstract.source];
    auto grouped = group_papers(std::move(records));
    for (const auto& paper : grouped) {
      for (const auto& record : paper) --same_paper[record.abstract.source];
    }
    for (auto& paper : grouped) {
      last.add_document(into_last.document(paper));
      std::sort(paper.begin(), paper.end(), [&](const PaperRecord& x, const PaperRecord& y) {
        return std::pair(file_order[x.abstract.source], x.abstract.line) <
               std::pair(file_order[y.abstract.source], y.abstract.line);
      });
      for (auto r = paper.begin() + 1; r < paper.end(); ++r) ++same_paper[r->abstract.source];
      if (++written % kShardCommitEvery == 0) {
        for (auto& part : parts) room::commit(part, pending);
      }
    }
  }
  return same_paper;
}

}  // namespace

BuiltGeneration bulk_build(const fs::path& dir, const std::vector<fs::path>& files, const IndexOptions& options,
                           const Shard& shard, const std::function<void(const InputError&)>& fail,
                           Xapian::doccount part_abstracts, const OpenReader& open) {
  const scratch::Folder scratch = layout::make_temp_dir(dir);
  const fs::path& tmp = scratch.path();

  unsigned threads = options.threads != 0 ? options.threads : std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::unique_ptr<ShardWorker>> workers;
  for (unsigned i = 0; i < threads; ++i) {
    workers.push_back(xapian_try(dir, [&] {
      return std::make_unique<ShardWorker>(dir, tmp / ("shard-" + std::to_string(i)), shard.count != 0, part_abstracts);
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
  std::vector<FileReport> reports;  // given to on_file once the papers read twice are known
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
      require_regular_file(f);
      schema::FileState state = file_state(f);
      // Hashed on a thread of its own while the file is read: the workers wait for
      // their first batch, not for a read of the whole file (60 ms of a 115k build).
      auto hash = std::async(std::launch::async, [&f] { return hash_file(f); });
      auto reader = open ? open(f) : Reader::open(f);
      reader->set_strict(options.strict);
      Batch batch{abs, reader->venue(), reader->year(), {}, dictionary};
      std::size_t count = 0, other_shards = 0;
      while (auto record = reader->next()) {
        if (!in_shard(*record, shard)) {
          ++other_shards;
          continue;
        }
        if (sampling) {
          samples.push_back(schema::encode(make_abstract(*record, abs, reader->venue(), reader->year())));
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
      state.hash = hash.get();
      state.abstracts = count;
      state.rejected = reader->rejected();
      indexed.emplace_back(abs, state);
      FileReport& report = reports.emplace_back();
      report.path = abs;
      report.abstracts = count;
      report.skipped = reader->skipped();
      report.rejected = reader->rejected();
      warn_skipped(*reader, f, options.on_warning);
      report.other_shards = other_shards;
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
  xapian_try(dir, [&] {
    for (auto& w : workers) {
      if (w->error()) std::rethrow_exception(w->error());
    }
  });
  if (options.on_progress) options.on_progress(progress);

  return xapian_try(dir, [&] {
    // A file that failed half-way leaves nothing behind.
    const compression::Decompressor stored(*dictionary);
    std::vector<fs::path> paths;
    for (auto& w : workers) paths.insert(paths.end(), w->parts().begin(), w->parts().end());
    {
      std::vector<Xapian::WritableDatabase> parts;
      for (const auto& p : paths) parts.emplace_back(p.string(), Xapian::DB_OPEN | Xapian::DB_NO_SYNC | Xapian::DB_DANGEROUS);
      room::Pending merging{dir, 0};
      // A failure discards what the parts hold uncommitted: closed, they would commit it.
      struct DiscardOnFailure {
        std::vector<Xapian::WritableDatabase>& parts;
        int exceptions = std::uncaught_exceptions();
        ~DiscardOnFailure() {
          if (std::uncaught_exceptions() > exceptions) {
            for (auto& part : parts) room::discard(part);
          }
        }
      } discard_on_failure{parts};
      const compression::Compressor compressor(*dictionary);
      analysis::Analyzer analyzer;
      const bool xapian_positions = shard.count != 0;
      auto writer = [&](Xapian::WritableDatabase& db) {
        return PaperWriter(
            db,
            [&](const Abstract& a, bool title_in_text) {
              return make_document(a, title_in_text, analyzer, compressor, xapian_positions);
            },
            compressor, stored, &merging);
      };
      for (auto& db : parts) {
        // Committed every kShardCommitEvery abstracts, as the shards were written:
        // 110,000 abstracts of a file that failed on its last line took 298 MB as
        // one batch of deletions.
        for (const auto& abs : failed_files) writer(db).remove_file(abs, kShardCommitEvery);
      }
      // The papers read more than once go into a part of their own: written after
      // deletions into a worker's part, a posting list of a term that every
      // document has came out of the compaction unreadable to a boolean query
      // (Xapian 1.4.22: "Unexpected end of posting list"), though xapian-check
      // found it sound.
      paths.push_back(tmp / "merged");
      parts.emplace_back(paths.back().string(),
                         Xapian::DB_CREATE | Xapian::DB_BACKEND_GLASS | Xapian::DB_NO_SYNC | Xapian::DB_DANGEROUS);
      const auto same_paper = merge_same_papers(parts, writer(parts.back()), stored, files, merging);
      for (auto& report : reports) {
        if (auto it = same_paper.find(report.path.string()); it != same_paper.end()) report.same_paper = it->second;
      }
      for (auto& db : parts) {
        room::commit(db, merging);
        db.close();
      }
    }

    Xapian::Database shards;
    for (const auto& p : paths) shards.add_database(Xapian::Database(p.string()));
    scratch::Folder building = layout::new_generation(dir);
    const fs::path generation = building.path();
    shards.compact(generation.string());

    Xapian::WritableDatabase fresh(generation.string(), Xapian::DB_OPEN);
    fresh.set_metadata(std::string(schema::kSchemaKey), std::string(schema::kSchemaVersion));
    if (shard.count != 0) fresh.set_metadata(std::string(cluster::kShardKey), cluster::to_string(shard));
    if (!dictionary->empty()) fresh.set_metadata(std::string(schema::kDictionaryKey), *dictionary);
    for (const auto& [abs, state] : indexed) fresh.set_metadata(schema::file_key(abs), schema::encode(state));
    fresh.commit();
    building.release();  // a signal from here on leaves it to the next remove_stale()
    layout::publish(dir, generation);
    if (options.on_file) {
      for (const auto& report : reports) options.on_file(report);
    }
    return BuiltGeneration{std::move(fresh), reading_error};
  });
}

}  // namespace abstracts::indexer
