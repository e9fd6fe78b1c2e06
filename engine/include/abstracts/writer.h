// Writing an index: add, replace and remove abstracts and whole files.
#ifndef ABSTRACTS_WRITER_H_
#define ABSTRACTS_WRITER_H_

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

namespace abstracts {

// What indexing did with one file.
struct FileReport {
  // kRemoved: the file is gone from a folder being indexed, and the index forgot it.
  enum class Status { kIndexed, kUnchanged, kRemoved };
  std::filesystem::path path;  // absolute
  Status status = Status::kIndexed;
  std::size_t abstracts = 0;   // abstracts in the file
  std::size_t removed = 0;     // abstracts dropped from the index (gone from the file, or with it)
  std::size_t skipped = 0;     // records without an abstract (for BEIR: neither text nor title), left out
  // Records that could not be read, left out and the rest of the file read on: a
  // record over its format's size cap (docs/formats.md). Each is also reported
  // to IndexOptions::on_warning.
  std::size_t rejected = 0;
  std::size_t other_shards = 0;  // abstracts that belong to the other shards (WriterOptions::shard), left out
};

// How far an index() call has got.
struct IndexProgress {
  std::uint64_t bytes_done = 0;   // of the input files as stored (compressed, for gzip)
  std::uint64_t bytes_total = 0;
  std::uint64_t abstracts = 0;    // read so far
};

struct IndexOptions {
  // Called on the calling thread after each file is read (a bulk build makes its
  // abstracts visible at the end, all at once), and for each file forgotten
  // because it is gone from a folder being indexed (FileReport::kRemoved).
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
// An abstract can be in several files (the same text, or the same id): the index
// keeps one, located in the file indexed last, until no file has it any more.
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

  // Indexes files and directories (directories recursively, hidden files
  // skipped, in name order), as index_file() and index_directory() do. When the
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
  // left as it was.
  FileReport index_file(const std::filesystem::path& file);

  // Indexes every regular, non-hidden file below `dir` (recursively, in name
  // order), and removes from the index the files below `dir` that no longer
  // exist. `on_file` is called after each file (if set). A file that fails is
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
  // Returns the id. Throws Error if the index is a shard and the id belongs to
  // another one.
  std::string add(Abstract abstract);

  // Removes the abstract with this id. Returns false if there was none.
  bool remove(std::string_view id);

  // Removes every abstract read from `file`, and forgets the file.
  std::size_t remove_file(const std::filesystem::path& file);

  // Makes the changes since the last commit visible to readers, atomically.
  void commit();

 private:
  struct Impl;
  explicit Writer(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace abstracts

#endif  // ABSTRACTS_WRITER_H_
