#include "abstracts/writer.h"

#include <algorithm>
#include <chrono>
#include <functional>
#include <optional>
#include <set>
#include <thread>
#include <unordered_set>
#include <utility>
#include <xapian.h>

#include "abstracts/error.h"
#include "engine/analysis/analyzer.h"
#include "engine/cluster.h"
#include "engine/compression.h"
#include "engine/layout.h"
#include "engine/neighbours.h"
#include "engine/schema.h"
#include "engine/sources.h"
#include "engine/tiers.h"
#include "engine/vectors.h"
#include "engine/xapian_errors.h"
#include "indexer/bulk_build.h"
#include "indexer/document.h"
#include "indexer/file_state.h"
#include "indexer/input_files.h"
#include "indexer/papers.h"
#include "indexer/reader.h"
#include "indexer/tiers.h"
#include "indexer/vectors.h"
#include "indexer/watch.h"
#include "indexer/zotero.h"
#include "indexer/zotero_sync.h"

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
  // db's vectors of meaning, if it has them: each abstract written gets its own.
  mutable std::optional<vectors::Embedder> embedder;  // mutable: its cache of words
  // The part of the corpus this index holds ({0, 0}: all of it).
  Shard shard;
  std::chrono::steady_clock::time_point last_commit = std::chrono::steady_clock::now();
  // What the writes since the last commit may take on the disk (engine/room.h):
  // of db, and of a copy being written (NextGeneration), one at a time.
  mutable room::Pending pending;
  // Readers of the files that are no plain files (a Zotero database's
  // snapshot), by absolute path, for the run that took them.
  std::unordered_map<std::string, indexer::OpenReader> openers;

  std::unique_ptr<indexer::Reader> open_reader(const fs::path& file) const {
    if (auto it = openers.find(indexer::absolute_path(file)); it != openers.end()) return it->second(file);
    return indexer::Reader::open(file);
  }

  void set_db(Xapian::WritableDatabase opened) {
    db = std::move(opened);
    const std::string dictionary = schema::dictionary_of(db);
    compressor = std::make_unique<compression::Compressor>(dictionary);
    stored = std::make_unique<compression::Decompressor>(dictionary);
    embedder = vectors::Embedder::load(db);
  }

  // What the files of a run came to, told to `on_committed` once the commit
  // that makes them durable is done: no file is said to be indexed (or
  // removed) that a crash could still lose. Set for a run by Reporting.
  std::function<void(const FileReport&)> on_committed;
  std::vector<FileReport> unreported;

  void tell(FileReport report) {
    if (on_committed) unreported.push_back(std::move(report));
  }

  // For one run: its reports go to `on_file` as commits make them durable; those
  // of a run that fails before its commit are never told.
  struct Reporting {
    Reporting(Impl& impl, const std::function<void(const FileReport&)>& on_file) : impl(impl) {
      impl.on_committed = on_file;
      impl.unreported.clear();
    }
    ~Reporting() {
      impl.on_committed = nullptr;
      impl.unreported.clear();
    }
    Reporting(const Reporting&) = delete;
    Reporting& operator=(const Reporting&) = delete;
    Impl& impl;
  };

  void commit() {
    try {
      room::commit(db, pending);
    } catch (...) {
      unreported.clear();  // discarded with their changes
      throw;
    }
    last_commit = std::chrono::steady_clock::now();
    for (const FileReport& r : std::exchange(unreported, {})) on_committed(r);
  }

  // Cancels db's transaction, which discards every change since the last
  // commit (Xapian's cancel()), the files before it told nothing of theirs.
  void cancel_transaction() {
    db.cancel_transaction();
    unreported.clear();
    pending.bytes = 0;
  }

  void commit_if_due() {
    if (std::chrono::steady_clock::now() - last_commit >= kCommitInterval) commit();
  }

  indexer::PaperWriter papers(Xapian::WritableDatabase& to) const {
    return indexer::PaperWriter(
        to,
        [this](const Abstract& a, bool title_in_text) {
          Xapian::Document doc = indexer::make_document(a, title_in_text, analyzer, *compressor, shard.count != 0);
          if (embedder) {
            if (std::string v = embedder->value_of(doc); !v.empty()) doc.add_value(schema::kVectorSlot, v);
          }
          return doc;
        },
        *compressor, *stored, &pending);
  }

  // How many of `ids` (a file's records before it changed) no record in `to` has now.
  static std::size_t gone(const Xapian::WritableDatabase& to, std::vector<std::string> ids) {
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    return static_cast<std::size_t>(
        std::count_if(ids.begin(), ids.end(), [&](const std::string& id) { return !to.term_exists(schema::id_term(id)); }));
  }

  // One file into the current database: read and validated whole, then written
  // in one transaction, which the next commit makes visible.
  // A file with an opener (a Zotero database) is read whole, its state that of
  // its size and time.
  FileReport index_file(const fs::path& file, const IndexOptions& options) {
    FileReport report;
    indexer::require_regular_file(file);
    const std::string abs = indexer::absolute_path(file);
    report.path = abs;
    schema::FileState now;
    if (openers.count(abs) != 0) {
      now = indexer::file_state(file);
      schema::FileState before;
      if (schema::decode(db.get_metadata(schema::file_key(abs)), before)) now.sources = before.sources;
    } else if (auto before = indexer::unchanged(db, file, abs, now); before && !(options.strict && before->rejected != 0)) {
      // A file that lost records to a lenient run is read again by a strict
      // one, which fails it as a first strict run would.
      report.status = FileReport::Status::kUnchanged;
      report.abstracts = before->abstracts;
      return report;
    }

    auto reader = open_reader(file);
    reader->set_strict(options.strict);
    std::vector<indexer::PaperRecord> records;
    while (auto record = reader->next()) {
      if (records.size() == kTransactionAbstracts) {
        records = {};
        reader.reset();
        return index_large_file(file, abs, now, options);
      }
      if (!indexer::in_shard(*record, shard)) {
        ++report.other_shards;
        continue;
      }
      records.push_back({indexer::make_abstract(*record, abs, reader->venue(), reader->year()),
                         record->fields.title.empty()});
    }
    report.skipped = reader->skipped();
    report.rejected = reader->rejected();
    indexer::warn_skipped(*reader, file, options.on_warning);
    report.abstracts = now.abstracts = records.size();
    now.rejected = report.rejected;

    db.begin_transaction(false);
    try {
      auto writer = papers(db);
      std::vector<std::string> before = writer.remove_file(abs);
      for (auto& r : records) report.same_paper += writer.add(std::move(r));
      db.set_metadata(schema::file_key(abs), schema::encode(now));
      report.removed = gone(db, std::move(before));
      db.commit_transaction();
    } catch (...) {
      cancel_transaction();
      throw;
    }
    return report;
  }

  // A file too large for a transaction: written into a copy of the current
  // generation, in batches, and published as the next generation when it is
  // whole. Readers and a crash see the index with the file or without it; a bad
  // line leaves the index as it was.
  FileReport index_large_file(const fs::path& file, const std::string& abs, schema::FileState now,
                              const IndexOptions& options) {
    commit();  // the files before this one go into the copy
    NextGeneration next(dir);
    Xapian::WritableDatabase& copy = next.db;

    FileReport report;
    report.path = abs;
    auto writer = papers(copy);
    std::vector<std::string> before = writer.remove_file(abs, kCopyCommitEvery);
    auto reader = open_reader(file);
    reader->set_strict(options.strict);
    while (auto record = reader->next()) {
      if (!indexer::in_shard(*record, shard)) {
        ++report.other_shards;
        continue;
      }
      report.same_paper += writer.add(
          {indexer::make_abstract(*record, abs, reader->venue(), reader->year()), record->fields.title.empty()});
      if (++report.abstracts % kCopyCommitEvery == 0) room::commit(copy, pending);
    }
    report.skipped = reader->skipped();
    report.rejected = reader->rejected();
    indexer::warn_skipped(*reader, file, options.on_warning);
    now.abstracts = report.abstracts;
    now.rejected = report.rejected;
    copy.set_metadata(schema::file_key(abs), schema::encode(now));
    report.removed = gone(copy, std::move(before));
    publish(next);
    return report;
  }

  // A copy of the current generation (Xapian compaction, so the document
  // numbers stay) to write into, published by publish() or else removed.
  struct NextGeneration {
    explicit NextGeneration(const fs::path& dir) : building(layout::new_generation(dir)), path(building.path()) {
      Xapian::Database(layout::current_generation(dir).string(), Xapian::DB_BACKEND_GLASS)
          .compact(path.string(), Xapian::DBCOMPACT_NO_RENUMBER);
      db = Xapian::WritableDatabase(path.string(), Xapian::DB_OPEN | Xapian::DB_BACKEND_GLASS);
      // The graph holds document numbers, which the copy keeps; its file is
      // never changed, only replaced, so the two generations can share it.
      // (Without it, the run's end builds it again.)
      const fs::path graph = neighbours::graph_path(layout::current_generation(dir));
      std::error_code ec;
      if (fs::exists(graph, ec)) fs::create_hard_link(graph, neighbours::graph_path(path), ec);
    }
    ~NextGeneration() {
      if (published) return;
      // Its changes discarded (closing would commit them), and closed before
      // its folder goes: a file still open keeps its room on the disk.
      room::discard(db);
      try {
        db.close();
      } catch (const Xapian::Error&) {
      }
    }
    // Rewrites the copy compactly: documents rewritten in place leave its
    // B-trees half full (storing SciFact's vectors took its postlist table from
    // 11 to 23 MB; compacted, 13).
    void compact(const fs::path& dir, room::Pending& pending) {
      room::commit(db, pending);
      db.close();
      const scratch::Folder scratch = layout::make_temp_dir(dir);
      const fs::path compacted = scratch.path() / "generation";
      Xapian::Database(path.string(), Xapian::DB_BACKEND_GLASS)
          .compact(compacted.string(), Xapian::DBCOMPACT_NO_RENUMBER);
      fs::remove_all(path);
      fs::rename(compacted, path);
      db = Xapian::WritableDatabase(path.string(), Xapian::DB_OPEN | Xapian::DB_BACKEND_GLASS);
    }
    NextGeneration(const NextGeneration&) = delete;
    NextGeneration& operator=(const NextGeneration&) = delete;
    scratch::Folder building;  // removed unless published (declared first: destroyed last)
    fs::path path;
    Xapian::WritableDatabase db;
    bool published = false;
  };

  // Commits `next` and makes it the index, which this writer then writes to.
  void publish(NextGeneration& next) {
    room::commit(next.db, pending);
    next.building.release();
    layout::publish(dir, next.path);
    next.published = true;
    db.close();
    set_db(std::move(next.db));
    layout::remove_stale(dir);
  }

  VectorsReport build_vectors(const VectorsOptions& options) {
    commit();
    if (db.get_doccount() == 0) {
      throw Error("the index has no abstracts to learn vectors from", "index abstracts first: abstracts index FILE...");
    }
    if (options.dimensions == 0 || options.dimensions > 1000 || options.epochs == 0) {
      throw Error("vectors need 1 to 1000 dimensions and at least one epoch");
    }
    auto say = [&](const std::string& what) {
      if (options.on_progress) options.on_progress(what);
    };
    VectorsReport report;
    const auto start = std::chrono::steady_clock::now();
    const scratch::Folder scratch = layout::make_temp_dir(dir);  // or removed by the next Writer after a crash
    indexer::TrainingText text(scratch.path() / "training.txt");
    if (options.train_on.empty()) {
      text.add_index(db, *stored, options.max_training_abstracts, analyzer);
    } else {
      text.add_files(options.train_on, options.max_training_abstracts, analyzer);
    }
    text.close();
    report.training_abstracts = text.abstracts();
    report.training_tokens = text.tokens();
    say("learning word vectors from " + std::to_string(text.abstracts()) + " abstracts");
    vectors::Model model;
    model.dimensions = options.dimensions;
    model.training_abstracts = text.abstracts();
    model.training_tokens = text.tokens();
    const indexer::WordVectors words = indexer::learn_word_vectors(text, options, model.a);
    report.words = words.size();
    const auto learned = std::chrono::steady_clock::now();
    report.learn_seconds = std::chrono::duration<double>(learned - start).count();

    say("storing the abstracts' vectors");
    NextGeneration next(dir);
    report.abstracts = indexer::store_vectors(next.db, words, model, kCopyCommitEvery, pending, [&](std::size_t done) {
      say("stored " + std::to_string(done) + " vectors");
    });
    next.compact(dir, pending);
    say("linking each abstract to its nearest neighbours");
    const auto stored_at = std::chrono::steady_clock::now();
    report.store_seconds = std::chrono::duration<double>(stored_at - learned).count();
    try {
      neighbours::build_graph(next.path, next.db, model.dimensions, std::max(1u, std::thread::hardware_concurrency()));
    } catch (const std::exception& e) {  // a full disk; Xapian's errors go to xapian_try
      throw Error(std::string("cannot build the nearest-neighbour graph: ") + e.what(),
                  "the index is as it was: build again once the cause is fixed");
    }
    report.graph_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - stored_at).count();
    // The tiers stay right: the abstracts and their terms are the ones they were built from.
    const fs::path tiers = tiers::side_path(layout::current_generation(dir));
    if (fs::exists(tiers)) fs::copy(tiers, tiers::side_path(next.path), fs::copy_options::recursive);
    publish(next);
    return report;
  }

  // Forgets the file indexed as `abs`: its records leave the index (a paper
  // another file also has stays, shown from that file). Returns how many
  // abstracts left.
  std::size_t remove_file(const std::string& abs) {
    db.begin_transaction(false);
    try {
      std::size_t removed = gone(db, papers(db).remove_file(abs));
      db.set_metadata(schema::file_key(abs), "");
      db.set_metadata(indexer::zotero::state_key(abs), "");
      db.commit_transaction();
      return removed;
    } catch (...) {
      cancel_transaction();
      throw;
    }
  }

  // A Zotero database's snapshot, with its live items, and the reader of all
  // of them given to open_reader() (openers) for this run.
  struct DatabaseSnapshot {
    std::string path;
    std::unique_ptr<indexer::zotero::Snapshot> snapshot;
    std::vector<indexer::zotero::ItemState> live;
  };

  DatabaseSnapshot take_snapshot(const std::string& path,
                                 indexer::zotero::Snapshot::Read read = indexer::zotero::Snapshot::Read::kCopy) {
    DatabaseSnapshot out{path, std::make_unique<indexer::zotero::Snapshot>(indexer::zotero::Snapshot::take(path, read)),
                         {}};
    out.live = indexer::zotero::live_items(*out.snapshot);
    std::vector<std::int64_t> ids;
    for (const auto& item : out.live) ids.push_back(item.item_id);
    const indexer::zotero::Snapshot* snapshot = out.snapshot.get();
    openers[path] = [snapshot, ids](const fs::path&) { return indexer::zotero::item_reader(*snapshot, ids); };
    return out;
  }

  // After the database of `taken` was indexed whole: what the next sync compares with.
  void save_sync_state(const DatabaseSnapshot& taken) {
    schema::FileState file;
    if (!schema::decode(db.get_metadata(schema::file_key(taken.path)), file)) return;  // it failed
    indexer::zotero::SyncState state = indexer::zotero::state_of(taken.live, taken.snapshot->state());
    state.records = file.abstracts;
    db.set_metadata(indexer::zotero::state_key(taken.path), indexer::zotero::encode(state));
  }

  // A Zotero database synced: nothing read if its files are as they were at the
  // last sync; else only the items new, changed or gone since (a first sync, or
  // one of more than kTransactionAbstracts changes, reads it whole, as a file).
  FileReport sync_zotero(const std::string& path, const IndexOptions& options) {
    namespace zotero = indexer::zotero;
    FileReport report;
    report.path = path;
    zotero::SyncState before;
    schema::FileState file;
    // A strict run reads whole a database whose items a lenient one left out.
    const bool known = zotero::decode(db.get_metadata(zotero::state_key(path)), before) &&
                       schema::decode(db.get_metadata(schema::file_key(path)), file) &&
                       !(options.strict && file.rejected != 0);
    if (known && zotero::current_state(path) == before.files_state) {
      report.status = FileReport::Status::kUnchanged;
      report.abstracts = before.records;
      return report;
    }
    // A re-sync reads the few changed items from the live file in place (no
    // copy of a database that may hold gigabytes); if Zotero committed
    // meanwhile, the transaction is dropped and they are read from a copy.
    using Read = zotero::Snapshot::Read;
    for (Read read = known ? Read::kInPlaceIfQuiet : Read::kCopy;; read = Read::kCopy) {
      DatabaseSnapshot taken = take_snapshot(path, read);
      const zotero::Changes changes = zotero::changes(before, taken.live);
      if (!known || changes.read.size() > kTransactionAbstracts) {
        if (taken.snapshot->in_place()) taken = take_snapshot(path);
        report = index_file(path, options);
        openers.erase(path);
        save_sync_state(taken);
        return report;
      }
      openers.erase(path);
      if (apply_changes(path, before, taken, changes, options, report)) return report;
    }
  }

  // Applies the `changes` of a Zotero database since `before` (taking out,
  // reading) in one transaction, committed if the snapshot `taken` read is
  // consistent; false, with nothing changed, if it read in place and Zotero
  // committed meanwhile.
  bool apply_changes(const std::string& path, const indexer::zotero::SyncState& before,
                     const DatabaseSnapshot& taken, const indexer::zotero::Changes& changes,
                     const IndexOptions& options, FileReport& report) {
    namespace zotero = indexer::zotero;
    std::vector<std::int64_t> read = changes.read;
    auto reader = zotero::item_reader(*taken.snapshot, std::move(read));
    std::uint64_t records = before.records;
    FileReport out;
    out.path = path;
    commit();  // what came before is not lost with a transaction Zotero's commit tears
    db.begin_transaction(false);
    try {
      auto writer = papers(db);
      std::vector<std::string> taken_out;
      for (const std::int64_t item : changes.take_out) {
        std::string id = writer.remove_record(path, static_cast<std::uint32_t>(item));
        if (id.empty()) continue;  // an item without an abstract
        --records;
        taken_out.push_back(std::move(id));
      }
      while (auto record = reader->next()) {
        if (!indexer::in_shard(*record, shard)) {
          ++out.other_shards;
          continue;
        }
        out.same_paper += writer.add({indexer::make_abstract(*record, path, "", 0), record->fields.title.empty()});
        ++records;
      }
      if (!taken.snapshot->unchanged()) {
        cancel_transaction();
        return false;
      }
      out.skipped = reader->skipped();
      out.rejected = reader->rejected();
      indexer::warn_skipped(*reader, path, options.on_warning);
      schema::FileState state = indexer::file_state(path);
      schema::FileState previous;
      if (schema::decode(db.get_metadata(schema::file_key(path)), previous)) state.sources = previous.sources;
      state.abstracts = records;
      state.rejected = previous.rejected + out.rejected;
      db.set_metadata(schema::file_key(path), schema::encode(state));
      zotero::SyncState next = zotero::state_of(taken.live, taken.snapshot->state());
      next.records = records;
      db.set_metadata(zotero::state_key(path), zotero::encode(next));
      out.removed = gone(db, std::move(taken_out));
      db.commit_transaction();
    } catch (const InputError&) {
      cancel_transaction();
      if (!taken.snapshot->unchanged()) return false;  // a read torn by Zotero's commit
      throw;
    } catch (...) {
      cancel_transaction();
      throw;
    }
    out.abstracts = records;
    out.status = changes.read.empty() && changes.take_out.empty() ? FileReport::Status::kUnchanged
                                                                  : FileReport::Status::kIndexed;
    report = std::move(out);
    return true;
  }

  // The state of every indexed file, by path.
  std::vector<std::pair<std::string, schema::FileState>> file_states() const {
    std::vector<std::pair<std::string, schema::FileState>> out;
    const std::string prefix(schema::kFileKeyPrefix);
    for (auto k = db.metadata_keys_begin(prefix); k != db.metadata_keys_end(prefix); ++k) {
      schema::FileState state;
      if (schema::decode(db.get_metadata(*k), state)) out.emplace_back((*k).substr(prefix.size()), std::move(state));
    }
    return out;
  }

  // Forgets the file `path` (its records leave the index), told at the next commit.
  void drop_file(const std::string& path) {
    FileReport report;
    report.path = path;
    report.status = FileReport::Status::kRemoved;
    report.removed = remove_file(path);
    tell(std::move(report));
  }

  // After `source` was walked: the files it yields now (and that are indexed)
  // list it; those that listed it and that it no longer yields (but for those
  // below a folder it could not read) lose it, and leave the index when no
  // source yields them any more.
  void settle_source(const std::string& source, const std::unordered_set<std::string>& yielded,
                     const std::vector<std::string>& unreadable) {
    std::vector<std::pair<std::string, schema::FileState>> changed;
    std::vector<std::string> orphans;
    for (auto& [path, state] : file_states()) {
      auto& list = state.sources;
      const bool listed = std::find(list.begin(), list.end(), source) != list.end();
      if (yielded.count(path) != 0) {
        if (listed) continue;
        list.push_back(source);
        std::sort(list.begin(), list.end());
      } else {
        // Not [&]: clang 14 (the fuzz preset) cannot capture a structured binding.
        const auto below = [&file = path](const std::string& folder) { return sources::is_below(file, folder); };
        if (!listed || std::any_of(unreadable.begin(), unreadable.end(), below)) continue;
        std::erase(list, source);
        if (list.empty()) {
          orphans.push_back(path);
          continue;
        }
      }
      changed.emplace_back(path, std::move(state));
    }
    for (const auto& [path, state] : changed) db.set_metadata(schema::file_key(path), schema::encode(state));
    for (const auto& path : orphans) drop_file(path);
  }

  // Forgets the indexed files that are not there any more: no hit may point at one.
  void drop_gone_files() {
    std::vector<std::string> gone;
    for (const auto& [path, state] : file_states()) {
      std::error_code ec;
      if (fs::status(path, ec).type() == fs::file_type::not_found) gone.push_back(path);
    }
    for (const auto& path : gone) drop_file(path);
  }

  // One run over `requested` sources (absolute paths): each file or folder is
  // indexed (a folder walked with its globs) and remembered as a source. With
  // `sync`, a source whose path is gone is told to options.on_source_gone rather
  // than failing. Returns the number of files that failed.
  // `as_given` names each source as the user gave it (relative, say), which
  // is how its files are read and named in messages; empty: by their paths.
  std::size_t run(std::vector<Source> requested, const std::vector<fs::path>& as_given, const IndexOptions& options,
                  bool sync) {
    Reporting reporting(*this, options.on_file);
    std::size_t failed = 0;
    // Files found by walking a folder, where a file of no known format is left
    // out (counted by kind) rather than failing.
    std::unordered_set<std::string> walked_files;
    auto fail = [&](const InputError& e) {
      if (const auto* unknown = dynamic_cast<const indexer::UnknownFormat*>(&e);
          unknown != nullptr && walked_files.count(indexer::absolute_path(e.file())) != 0) {
        FileReport report;
        report.path = indexer::absolute_path(e.file());
        report.status = FileReport::Status::kSkipped;
        report.kind = unknown->kind();
        tell(std::move(report));
        return;
      }
      ++failed;
      if (!options.on_error) throw e;
      options.on_error(e);
    };
    auto warn = [&](const InputError& e) {
      if (options.on_warning) options.on_warning(e);
    };
    struct Walk {
      Source source;
      std::unordered_set<std::string> yielded;
      std::vector<std::string> unreadable;
      bool present = true;
    };
    std::vector<Walk> walks;
    std::vector<fs::path> files;
    std::vector<std::string> databases;  // Zotero's (indexer/zotero.h)
    for (std::size_t i = 0; i < requested.size(); ++i) {
      Walk& walk = walks.emplace_back(Walk{std::move(requested[i]), {}, {}, true});
      Source& s = walk.source;
      const fs::path& path = as_given.empty() ? s.path : as_given[i];
      std::error_code ec;
      const fs::file_status st = fs::status(s.path, ec);
      if (st.type() == fs::file_type::not_found) {
        walk.present = false;  // no source of a path that is not there
        if (sync) {
          if (options.on_source_gone) options.on_source_gone(s.path);
          continue;
        }
      }
      if (!fs::is_directory(st)) {
        walk.yielded.insert(s.path.string());
        if (fs::is_regular_file(st) && (s.kind == Source::Kind::kZotero || indexer::zotero::is_sqlite_file(path))) {
          s.kind = Source::Kind::kZotero;  // synced item by item, after the files
          databases.push_back(s.path.string());
          continue;
        }
        s.kind = Source::Kind::kFile;
        files.push_back(path);
        continue;
      }
      if (s.kind == Source::Kind::kFile) s.kind = Source::Kind::kFolder;
      try {
        indexer::FolderContents below = indexer::files_below(path, fail, warn);
        for (const auto& u : below.unreadable) walk.unreadable.push_back(indexer::absolute_path(u));
        for (auto& f : below.files) {
          if (indexer::is_backup(f)) {
            FileReport report;
            report.path = indexer::absolute_path(f);
            report.status = FileReport::Status::kSkipped;
            report.kind = "backup";
            tell(std::move(report));
            continue;
          }
          if (!sources::passes_globs(s.globs, f.lexically_relative(path).generic_string())) continue;
          std::string abs = indexer::absolute_path(f);
          walked_files.insert(abs);
          walk.yielded.insert(std::move(abs));
          files.push_back(std::move(f));
        }
      } catch (const InputError& e) {
        walk.present = false;  // unreadable: what the index has from it stays
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

    // Into an empty index, a Zotero database's first sync is part of the bulk
    // build, read from a snapshot like a file.
    std::vector<DatabaseSnapshot> snapshots;
    if (db.get_doccount() == 0 && (!files.empty() || !databases.empty())) {
      for (const auto& database : databases) {
        try {
          snapshots.push_back(take_snapshot(database));
          files.push_back(database);
        } catch (const InputError& e) {
          fail(e);
        }
      }
      databases.clear();
    }
    struct ForgetOpeners {
      std::unordered_map<std::string, indexer::OpenReader>& openers;
      ~ForgetOpeners() { openers.clear(); }
    } forget_openers{openers};
    if (db.get_doccount() == 0 && !files.empty()) {
      indexer::BuiltGeneration built = indexer::bulk_build(dir, files, options, shard, fail, indexer::kPartAbstracts,
                                                           [this](const fs::path& f) { return open_reader(f); });
      db.close();
      set_db(std::move(built.db));
      layout::remove_stale(dir);
      for (const auto& snapshot : snapshots) save_sync_state(snapshot);
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
          tell(std::move(report));
          if (options.on_progress) options.on_progress(progress);
        } catch (const InputError& e) {
          fail(e);
        }
        commit_if_due();
      }
    }
    for (const auto& database : databases) {
      try {
        FileReport report = xapian_try(dir, [&] { return sync_zotero(database, options); });
        tell(std::move(report));
      } catch (const InputError& e) {
        fail(e);
      }
      commit_if_due();
    }
    const auto now = std::chrono::duration_cast<std::chrono::seconds>(
                         std::chrono::system_clock::now().time_since_epoch()).count();
    for (auto& walk : walks) {
      // A file that could not be indexed (no known format, a bad record) is no source.
      if (!walk.present || (walk.source.kind == Source::Kind::kFile &&
                            db.get_metadata(schema::file_key(walk.source.path.string())).empty())) {
        continue;
      }
      settle_source(walk.source.path.string(), walk.yielded, walk.unreadable);
      walk.source.last_sync = now;
      db.set_metadata(sources::key(walk.source.path.string()), sources::encode(walk.source));
    }
    drop_gone_files();
    commit();
    settle_tiers(options);
    settle_graph(options);
    return failed;
  }

  // Builds the impact tiers (engine/tiers.h) of an index that is large enough
  // and changed since they were built. Not after every commit: a run of `index`
  // or `sync` is the unit, and a search between weighs plain terms. The index is
  // committed already: a failure here (a full disk) is a warning, and searches
  // weigh plain terms until a run builds them.
  void settle_tiers(const IndexOptions& options) {
    if (shard.count != 0) return;  // a cluster's shard: remote shards weigh plain terms
    const fs::path generation = layout::current_generation(dir);
    settle(options, [&] {
      if (indexer::tiers_due(generation, db)) indexer::build_tiers(generation, db);
    }, [&] {
      std::error_code ec;
      fs::remove_all(tiers::building_path(generation), ec);
      return "impact tiers not built: %; searches read every posting until the next run";
    });
  }

  // Builds the nearest-neighbour graph (engine/neighbours.h) again once the
  // abstracts added and deleted since come to a tenth of it; until then a
  // search by meaning reads the vectors of those added one by one. A failure is
  // a warning, as for the tiers.
  void settle_graph(const IndexOptions& options) {
    if (!embedder || shard.count != 0) return;
    const fs::path generation = layout::current_generation(dir);
    const std::uint32_t dimensions = embedder->model().dimensions;
    settle(options, [&] {
      if (neighbours::graph_due(generation, db, dimensions)) {
        neighbours::build_graph(generation, db, dimensions, std::max(1u, std::thread::hardware_concurrency()));
      }
    }, [&] {
      std::error_code ec;
      fs::remove(neighbours::building_path(generation), ec);
      return "nearest-neighbour graph not built: %; searches by meaning read more vectors until the next run";
    });
  }

  // Runs `build`; if it fails, `cleanup()` and a warning: its message, % the failure.
  static void settle(const IndexOptions& options, const std::function<void()>& build,
                     const std::function<std::string()>& cleanup) {
    std::string what;
    try {
      build();
      return;
    } catch (const std::exception& e) {
      what = e.what();
    } catch (const Xapian::Error& e) {
      what = e.get_description();
    }
    std::string message = cleanup();
    message.replace(message.find('%'), 1, what);
    if (options.on_warning) options.on_warning(Error(message));
  }

  // Writer::update: each changed path's files indexed again (or forgotten) by
  // what the sources say of them now.
  std::size_t update(const std::vector<fs::path>& changed, const IndexOptions& options) {
    Reporting reporting(*this, options.on_file);
    std::size_t failed = 0;
    const std::vector<Source> all = sources::of(db);
    const std::string own = indexer::absolute_path(dir);
    auto consider = [&](const fs::path& file) {
      const std::string abs = indexer::absolute_path(file);
      if (sources::is_below(abs, own)) return;  // the index's own files (`index .`)
      std::vector<std::string> yielding;
      for (const auto& s : all) {
        if (sources::yields(s, abs) && (s.kind == Source::Kind::kFile || !indexer::is_backup(file))) {
          yielding.push_back(s.path.string());
        }
      }
      const bool indexed = !db.get_metadata(schema::file_key(abs)).empty();
      std::error_code ec;
      if (yielding.empty() || !fs::is_regular_file(file, ec)) {
        if (indexed) drop_file(abs);
        return;
      }
      const bool database = std::any_of(all.begin(), all.end(), [&](const Source& s) {
        return s.kind == Source::Kind::kZotero && s.path == abs;
      });
      try {
        if (database) {
          FileReport report = xapian_try(dir, [&] { return sync_zotero(abs, options); });
          tell(std::move(report));
          return;
        }
        FileReport report = xapian_try(dir, [&] { return index_file(file, options); });
        schema::FileState state;
        if (schema::decode(db.get_metadata(schema::file_key(abs)), state) && state.sources != yielding) {
          state.sources = yielding;
          db.set_metadata(schema::file_key(abs), schema::encode(state));
        }
        tell(std::move(report));
      } catch (const indexer::UnknownFormat& e) {
        if (indexed) drop_file(abs);
        FileReport report;
        report.path = abs;
        report.status = FileReport::Status::kSkipped;
        report.kind = e.kind();
        tell(std::move(report));
      } catch (const InputError& e) {
        ++failed;
        if (!options.on_error) throw;
        options.on_error(e);
      }
    };
    for (const auto& path : changed) {
      std::error_code ec;
      // A link to a folder is not followed, as a sync does not follow one (it
      // could lead anywhere: /proc, the whole file system).
      if (fs::is_directory(fs::symlink_status(path, ec))) {
        const auto ignore = [](const InputError&) {};
        for (const auto& f : indexer::files_below(path, ignore, ignore).files) consider(f);
      } else {
        consider(path);
      }
    }
    drop_gone_files();  // a folder gone takes its files with it
    commit();
    settle_graph(options);
    return failed;
  }

  // `paths` as sources: absolute, a folder's with `options.globs`.
  static std::vector<Source> as_sources(const std::vector<fs::path>& paths, const IndexOptions& options) {
    std::vector<Source> out;
    for (const auto& p : paths) {
      Source s;
      s.path = indexer::absolute_path(p);
      std::error_code ec;
      if (fs::is_directory(p, ec)) {
        s.kind = options.demo ? Source::Kind::kDemo : Source::Kind::kFolder;
        s.globs = options.globs;
      }
      out.push_back(std::move(s));
    }
    return out;
  }

  // Forgets the sources `paths` (absolute): the files that no other source
  // yields leave the index, with their abstracts. Returns how many abstracts left.
  std::size_t forget(const std::vector<std::string>& paths) {
    const auto before = db.get_doccount();
    for (const auto& path : paths) db.set_metadata(sources::key(path), "");
    std::vector<std::pair<std::string, schema::FileState>> changed;
    std::vector<std::string> orphans;
    for (auto& [path, state] : file_states()) {
      const auto forgotten = [&](const std::string& s) {
        return std::find(paths.begin(), paths.end(), s) != paths.end();
      };
      if (std::erase_if(state.sources, forgotten) == 0) continue;
      if (state.sources.empty()) {
        orphans.push_back(path);
      } else {
        changed.emplace_back(path, std::move(state));
      }
    }
    for (const auto& [path, state] : changed) db.set_metadata(schema::file_key(path), schema::encode(state));
    for (const auto& path : orphans) remove_file(path);
    commit();
    return before - db.get_doccount();
  }
};

Writer::Writer(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Writer::Writer(Writer&&) noexcept = default;
Writer& Writer::operator=(Writer&&) noexcept = default;

Writer::~Writer() {
  if (!impl_) return;
  try {
    room::commit(impl_->db, impl_->pending);  // without room: discarded, not committed
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
  impl->pending.dir = dir;
  indexer::zotero::sweep_copies();  // a killed run's copies of the user's library
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
  return xapian_try(impl_->dir, [&] { return impl_->run(Impl::as_sources(paths, options), paths, options, false); });
}

std::size_t Writer::sync(const IndexOptions& options) {
  return xapian_try(impl_->dir, [&] { return impl_->run(sources::of(impl_->db), {}, options, true); });
}

std::size_t Writer::update(const std::vector<fs::path>& changed, const IndexOptions& options) {
  return xapian_try(impl_->dir, [&] { return impl_->update(changed, options); });
}

std::vector<Source> Writer::sources() const {
  return xapian_try(impl_->dir, [&] { return sources::of(impl_->db); });
}

std::size_t Writer::forget(const std::vector<fs::path>& paths) {
  return xapian_try(impl_->dir, [&] {
    std::vector<std::string> absolute;
    for (const auto& p : paths) {
      absolute.push_back(indexer::absolute_path(p));
      if (impl_->db.get_metadata(sources::key(absolute.back())).empty()) {
        throw InputError(p.string() + " is no source of the index", p.string(), 0,
                         "the sources are the paths given to Writer::index(); Writer::sources() lists them");
      }
    }
    return impl_->forget(absolute);
  });
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
  indexer::check_addable(a);
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
    Abstract made = indexer::make_abstract(record, a.source, a.venue, a.year);
    std::string id = made.id;
    impl_->papers(impl_->db).add({std::move(made), title_in_text}, /*replace=*/true);
    return id;
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
    const std::string path = indexer::absolute_path(file);
    if (!impl_->db.get_metadata(sources::key(path)).empty()) return impl_->forget({path});
    const std::size_t removed = impl_->remove_file(path);
    impl_->commit();
    return removed;
  });
}

std::size_t Writer::abstracts() const {
  return xapian_try(impl_->dir, [&] { return static_cast<std::size_t>(impl_->db.get_doccount()); });
}

VectorsReport Writer::build_vectors(const VectorsOptions& options) {
  return xapian_try(impl_->dir, [&] { return impl_->build_vectors(options); });
}

void Writer::commit() {
  xapian_try(impl_->dir, [&] { impl_->commit(); });
}

namespace {

// The sources the index in `dir` has now, read without its writer's lock; none
// if it cannot be read this moment (a generation replaced as it was opened).
std::vector<Source> sources_now(const fs::path& dir) {
  try {
    return sources::of(Xapian::Database(layout::current_generation(dir).string(), Xapian::DB_BACKEND_GLASS));
  } catch (const Xapian::Error&) {
    return {};
  } catch (const Error&) {
    return {};
  }
}

}  // namespace

void watch(const fs::path& dir, const WatchOptions& options) {
  const auto stopped = [&] { return options.stop && options.stop(); };
  // The Writer of one batch; while another writer holds the index, the batch waits.
  auto open = [&]() -> std::optional<Writer> {
    while (true) {
      try {
        return Writer::open(dir);
      } catch (const IndexLocked&) {
        if (stopped()) return std::nullopt;
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
      }
    }
  };
  indexer::SourceWatch watcher;
  watcher.watch_index(dir);  // first: a folder source that holds the index does not watch it
  std::set<fs::path> watched;
  // Watches the sources not watched yet; returns them. A source another
  // writer added is indexed already, but may have changed since.
  auto watch_new = [&](const std::vector<Source>& sources) {
    std::vector<fs::path> added;
    for (const auto& s : sources) {
      if (watched.insert(s.path).second) {
        watcher.add(s.path);
        added.push_back(s.path);
      }
    }
    return added;
  };
  using Clock = std::chrono::steady_clock;
  auto last_sync = Clock::now();
  // The changes not indexed yet. The first batch syncs every source whole; so
  // does the one after a batch that failed (a full disk), which left the index
  // as of its last commit, after a pause that doubles up to a minute.
  std::set<fs::path> pending;
  bool sync_due = true;
  auto pause = std::chrono::seconds(1);
  auto retry_at = Clock::now();
  for (bool first = true; !stopped(); first = false) {
    if (!first) {
      const auto changed = watcher.wait(std::chrono::milliseconds(200), options.settle, options.most);
      pending.insert(changed.begin(), changed.end());
    }
    if (watcher.index_changed()) {
      watcher.watch_index(dir);  // a new generation, perhaps
      for (auto& added : watch_new(sources_now(dir))) pending.insert(std::move(added));
    }
    const bool sync = sync_due || watcher.needs_rescan() || Clock::now() - last_sync >= options.rescan;
    if ((pending.empty() && !sync) || Clock::now() < retry_at) continue;
    try {
      auto writer = open();
      if (!writer) return;
      // Before the sync or update, so that no change during it is missed.
      for (auto& added : watch_new(writer->sources())) pending.insert(std::move(added));
      if (sync) {
        for (const auto& path : watched) watcher.add(path);  // folders made while events were missed
        writer->sync(options.index);
        last_sync = Clock::now();
      } else {
        writer->update(std::vector<fs::path>(pending.begin(), pending.end()), options.index);
      }
      writer->commit();
      pending.clear();
      sync_due = false;
      pause = std::chrono::seconds(1);
    } catch (const IndexNotFound&) {
      throw;
    } catch (const CorruptIndex&) {
      throw;
    } catch (const Error& e) {  // a full disk, an I/O error: nothing of the batch was committed
      if (options.index.on_warning) {
        options.index.on_warning(Error(std::string(e.what()) + "; the changes are indexed again in " +
                                           std::to_string(pause.count()) + " s",
                                       e.hint()));
      }
      sync_due = true;
      retry_at = Clock::now() + pause;
      pause = std::min<std::chrono::seconds>(pause * 2, std::chrono::seconds(60));
    }
  }
}

std::optional<fs::path> zotero_database(const fs::path& home) {
  auto dir = indexer::zotero::find_data_dir(home);
  if (!dir) return std::nullopt;
  return *dir / "zotero.sqlite";
}

}  // namespace abstracts
