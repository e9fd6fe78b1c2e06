// Writing an index: add, replace and remove abstracts and whole files.
#ifndef ABSTRACTS_WRITER_H_
#define ABSTRACTS_WRITER_H_

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "abstracts/abstract.h"
#include "abstracts/source.h"

namespace abstracts {

// What indexing did with one file.
struct FileReport {
  // kRemoved: the file is gone, or no source yields it any more, and the index
  // forgot it. kSkipped: a file found in a folder that holds no format abstracts
  // reads (a PDF, a README), or an editor's backup, left out.
  enum class Status { kIndexed, kUnchanged, kRemoved, kSkipped };
  std::filesystem::path path;  // absolute
  Status status = Status::kIndexed;
  std::size_t abstracts = 0;   // records of abstracts in the file
  // Of those, records of a paper that another record (of this file or another)
  // already is: the index holds each paper once (docs/formats.md). Counted for
  // the files read, 0 for those unchanged.
  std::size_t same_paper = 0;
  std::size_t removed = 0;     // abstracts dropped from the index (gone from the file, or with it)
  std::size_t skipped = 0;     // records without an abstract (for BEIR: neither text nor title), left out
  // Records that could not be read, left out and the rest of the file read on: a
  // malformed record, or one over its format's size cap (docs/formats.md). Each
  // is also reported to IndexOptions::on_warning.
  std::size_t rejected = 0;
  std::size_t other_shards = 0;  // abstracts that belong to the other shards (WriterOptions::shard), left out
  std::string kind;  // kSkipped: what the file seems to be ("PDF", "Markdown", "backup", "other")
};

// How far an index() call has got.
struct IndexProgress {
  std::uint64_t bytes_done = 0;   // of the input files as stored (compressed, for gzip)
  std::uint64_t bytes_total = 0;
  std::uint64_t abstracts = 0;    // read so far
};

struct IndexOptions {
  // Called on the calling thread for each file read, and each file forgotten
  // because it is gone from a folder being indexed (FileReport::kRemoved), once
  // the commit that makes the change durable is done (files indexed one by one
  // are committed together every half second; a bulk build makes its abstracts
  // visible at the end, all at once); never for a change a failed run lost.
  std::function<void(const FileReport&)> on_file;
  // Called for each file that cannot be indexed (it is skipped and the index keeps
  // what it had of it), and each folder that cannot be read (what the index has
  // from it stays). Unset: the first such error is thrown, after the files before
  // it were indexed.
  std::function<void(const std::exception&)> on_error;
  // Called for what is left out without failing the run: a symbolic link in a
  // folder that loops or leads nowhere, and each record that could not be read
  // (FileReport::rejected): an InputError naming its file and line, "FILE:LINE:
  // WHAT; record skipped".
  std::function<void(const std::exception&)> on_warning;
  // Called on the calling thread every few thousand abstracts.
  std::function<void(const IndexProgress&)> on_progress;
  // Called by sync() for each source whose path is gone: its files' abstracts
  // leave the index, and the source stays until forget() (or until it is back).
  std::function<void(const std::filesystem::path&)> on_source_gone;
  // Globs (ripgrep's syntax, `!` to exclude; engine/sources.h) that choose the
  // files of the folders given to index(); remembered with each folder for its
  // syncs. Files named directly are always read.
  std::vector<std::string> globs;
  // A record that could not be read (FileReport::rejected) fails its file, as
  // on_error says, rather than being left out: the file's InputError names it,
  // and the index keeps what it had of the file. Unset, a file fails only when
  // not one of its records could be read.
  bool strict = false;
  // The folders given to index() are the bundled demo corpus (Source::Kind::kDemo).
  bool demo = false;
  // Threads for a bulk build; 0 means one per core.
  unsigned threads = 0;
};

// Which part of a corpus an index holds (docs/scale-out.md).
struct Shard {
  unsigned index = 0;  // 1-based; 0: the whole corpus
  unsigned count = 0;  // shards in all, at most 4096
  bool operator==(const Shard&) const = default;
  // "K/N" (as `index --shard` takes it), or nullopt unless 1 <= K <= N <= 4096.
  static std::optional<Shard> parse(std::string_view text);
};

struct WriterOptions {
  // Keep only the abstracts whose id hashes to this shard, so that each of
  // `count` machines can build its part of a cluster from the same files. The
  // setting is stored in the index, whose positions then also go into Xapian's
  // position table (for phrases run inside xapian-tcpsrv). Every Writer of the
  // index must give the same setting.
  Shard shard;
};

// How Writer::build_vectors() learns vectors of meaning (docs/library.md,
// "Vectors"). The defaults are the settings measured in docs/relevance.md.
struct VectorsOptions {
  // Learn the word vectors from these files' abstracts (any format index()
  // reads) instead of the index's own: a larger corpus of the same field.
  std::vector<std::filesystem::path> train_on;
  // Learn from at most this many abstracts (0: all), evenly spread over the
  // index (or the first of train_on's). fastText's skipgram with subwords learns
  // about 100,000 words a second on two cores: 20 epochs of 20,000 abstracts
  // take minutes, of a million hours.
  std::size_t max_training_abstracts = 20000;
  unsigned dimensions = 100;
  unsigned epochs = 20;
  // fastText's hashed subword (character 3- to 6-gram) buckets: memory while
  // learning is about (words + buckets) x dimensions x 4 bytes. 0: no subwords,
  // whole words only.
  unsigned buckets = 1000000;
  unsigned threads = 0;  // 0: one per core
  // Called on the calling thread as the work goes on: "learning", "storing N".
  std::function<void(const std::string&)> on_progress;
};

// What Writer::build_vectors() did.
struct VectorsReport {
  std::size_t abstracts = 0;  // given a vector (an abstract of no known word has none)
  std::size_t words = 0;      // with a vector
  std::size_t training_abstracts = 0;
  std::size_t training_tokens = 0;
  double learn_seconds = 0;   // fastText's training
  double store_seconds = 0;   // the abstracts' vectors, and the copy of the index they go into
  double graph_seconds = 0;   // linking each abstract to its nearest, the graph searches by meaning go through
};

// The one writer of an index. Holds the index's write lock from open() until
// destruction; a second Writer on the same index, in this or another process,
// fails with IndexLocked.
//
// Not thread-safe: use one Writer from one thread at a time (index() uses
// threads of its own). Changes become visible to readers at commit(). index()
// commits as it goes (at most every half second) and when it returns; each file
// is written whole or not at all, so readers never see a file half-indexed, and
// a crash loses at most the files since the last commit. The destructor commits
// what is pending.
//
// A paper can be in several files, or twice in one (records with the same id,
// DOI, arXiv id or PMID): the index holds it once, shown from the file whose path
// sorts last, until no file has it any more; the same files always make the
// same index, whatever order they were indexed, changed and removed in.
class Writer {
 public:
  // Opens (creating if needed) the index in `dir`. Throws IndexLocked if another
  // writer holds it, CorruptIndex if it cannot be read, Error if options.shard is
  // out of range or not the setting the index was built with (a shard given for
  // an index of a whole corpus, or none for a shard).
  static Writer open(const std::filesystem::path& dir, const WriterOptions& options = {});

  Writer(Writer&&) noexcept;
  Writer& operator=(Writer&&) noexcept;
  ~Writer();

  // Indexes files and directories (directories recursively, in name order,
  // leaving out hidden files and folders, editors' backups and files of no known
  // format), as index_file() and index_directory() do, and remembers each path
  // as a source of the index (Source, sync()). A file that no source yields any
  // more, and a file that is gone, leaves the index. When the
  // index is empty, it is built in bulk: the files are analysed on several
  // threads into shards that are merged (Xapian compaction) into a new
  // generation of the index, published atomically at the end; memory stays
  // bounded whatever the corpus size. The same files and thread count give the
  // same index, down to the order of hits with equal scores. Returns the number
  // of files that failed.
  std::size_t index(const std::vector<std::filesystem::path>& paths, const IndexOptions& options = {});

  // Indexes one file (abstracts text format or BEIR JSON Lines, optionally
  // gzip-compressed; chosen by content). Abstracts already in the index are
  // replaced, abstracts no longer in the file are removed, and an unchanged file
  // (same size, modification time and content) is skipped. The whole file is
  // read and validated before anything is written: on InputError the index is
  // left as it was. A record that cannot be read is left out
  // (FileReport::rejected).
  FileReport index_file(const std::filesystem::path& file);

  // Indexes every regular, non-hidden file below `dir` (recursively, in name
  // order), and removes from the index the files below `dir` that no longer
  // exist. `on_file` is called for each file once it is committed (if set). A file that fails is
  // reported through `on_error` and skipped; the others are still indexed.
  // Returns the number of files that failed.
  std::size_t index_directory(
      const std::filesystem::path& dir,
      const std::function<void(const FileReport&)>& on_file = {},
      const std::function<void(const std::exception&)>& on_error = {});

  // Adds `abstract`, replacing any abstract with the same id. `text`, `title`,
  // `venue`, the authors' names and the categories may hold LaTeX: they are
  // cleaned with display_text(). Identifiers are normalised (a DOI in lower case,
  // an arXiv id without version). If id is empty it is the DOI, else the arXiv
  // id, PMID or citation key, else derived from the text with content_id(); an
  // empty title is derived from the text. Visible to readers after commit().
  // Returns the id. As a file's record: a text over 1 MiB is kept cut to 1 MiB
  // ("…" at the cut). Throws InputError, and adds nothing, for an abstract whose
  // text shows nothing (empty, white space), whose text fields come to over
  // 16 MiB together (the cap on a record in a file), or whose date is none (a
  // year other than 0 outside 1000-2999, a month outside 1-12 or without a
  // year, a day outside 1-31 or without a month; 0 is unknown); Error if the
  // index is a shard and the id belongs to another one.
  std::string add(Abstract abstract);

  // Removes the abstract with this id (with every record of its paper). Returns
  // false if there was none.
  bool remove(std::string_view id);

  // The abstracts (papers) in the index, with the changes not yet committed.
  std::size_t abstracts() const;

  // Removes every abstract read from `file`, and forgets the file (and the
  // source, if it is one). Returns how many abstracts left the index.
  std::size_t remove_file(const std::filesystem::path& file);

  // Indexes every source again, as index() did them: folders walked again (files
  // added, changed and gone), files read again if they changed. A source whose
  // path is gone goes to options.on_source_gone, and its abstracts leave the
  // index. Returns the number of files that failed.
  std::size_t sync(const IndexOptions& options = {});

  // Indexes again the files among `changed` (a folder: the files below it) that
  // the index's sources yield, and forgets those gone or no longer yielded: what
  // a watcher of the sources' files calls with the paths it saw change (see
  // watch()). Returns the number of files that failed.
  std::size_t update(const std::vector<std::filesystem::path>& changed, const IndexOptions& options = {});

  // The index's sources, in path order.
  std::vector<Source> sources() const;

  // Forgets the sources `paths` (as given to index()): the abstracts of their
  // files leave the index, but those another source also has. Throws
  // InputError, and changes nothing, if a path is no source. Returns how many
  // abstracts left the index.
  std::size_t forget(const std::vector<std::filesystem::path>& paths);

  // Makes the changes since the last commit visible to readers, atomically.
  void commit();

  // Learns word vectors (fastText) and gives every abstract a vector of meaning,
  // for SearchOptions::mode's semantic and hybrid searches; replaces the vectors
  // the index had. Abstracts indexed later get theirs from the stored word
  // vectors; building again learns afresh. Commits first, then writes into a copy
  // of the index that is published whole (one rename): readers, and a crash or
  // kill, see the index with its old vectors or with the new ones, never a mix.
  // Throws Error (with a hint) if the index has no abstracts or there is too
  // little text to learn from, InputError for a train_on file that cannot be read.
  VectorsReport build_vectors(const VectorsOptions& options = {});

 private:
  struct Impl;
  explicit Writer(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// How watch() keeps an index in step with its sources.
struct WatchOptions {
  // Reports of each update and sync, as for Writer::index.
  IndexOptions index;
  // Changes are gathered until none has come for `settle`, but no longer than
  // `most` after the first, and then indexed in one commit: an editor's save
  // (a temporary file renamed over the old one) or a burst of changes is one.
  std::chrono::milliseconds settle{200};
  std::chrono::milliseconds most{1000};
  // Every this often, and whenever a change may have been missed, every source
  // is synced whole (Writer::sync): the only way to follow a source on a network
  // file system or past the inotify watch limit.
  std::chrono::seconds rescan{300};
  // Asked at least every 200 ms (and between batches); true ends the watch,
  // after the batch being indexed is committed.
  std::function<bool()> stop;
};

// Keeps the index in `dir` in step with its sources (Writer::sources) until
// options.stop says so: syncs them once, then watches their files (Linux
// inotify) and indexes what changes, usually within a second. Each batch opens
// the index's Writer and closes it when committed, so other writers can run in
// between (while one does, the batch waits for it); a source another writer
// adds meanwhile is watched once its commit is seen. options.index.on_file hears
// of a file once its batch is committed. A batch that fails (a full disk) is
// said to options.index.on_warning and tried again, as a sync, after a pause
// that doubles from a second to a minute. Throws what Writer::open throws,
// IndexNotFound and CorruptIndex if the index goes or is damaged meanwhile, and
// Error if the system cannot watch files at all.
void watch(const std::filesystem::path& dir, const WatchOptions& options);

}  // namespace abstracts

#endif  // ABSTRACTS_WRITER_H_
