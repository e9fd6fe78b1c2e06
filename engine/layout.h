// The on-disk layout of an index directory, after LevelDB's CURRENT file:
//
//   INDEX/XAPIANDB       Xapian stub file naming the current generation ("glass gen-000002")
//   INDEX/gen-000002/    the current Xapian glass database
//   INDEX/writer.lock    held (an open-file-description lock) by the one Writer
//   INDEX/tmp-*/         scratch (a bulk build's shards), removed when done or on the next open
//
// Xapian opens INDEX itself through the stub, so `xapian-delve INDEX` works.
// A bulk build writes a whole new generation beside the current one and then
// switches the stub with one atomic rename: readers see the old index or the new
// one, never a half-built one.
#ifndef ABSTRACTS_ENGINE_LAYOUT_H_
#define ABSTRACTS_ENGINE_LAYOUT_H_

#include <sys/types.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

#include "engine/scratch.h"

namespace abstracts::layout {

// True if `dir` holds an index (its stub file exists).
bool has_index(const std::filesystem::path& dir);

// Throws CorruptIndex (with a hint to rebuild) if `dir` holds a glass database
// directly: the layout of abstracts before generations.
void reject_flat_layout(const std::filesystem::path& dir);

// The current generation's directory: the one the stub names, which must be a
// "gen-NNNNNN" directory inside `dir` (the stub is never followed elsewhere).
// Throws IndexNotFound if there is no stub, CorruptIndex (saying what the stub
// holds) if it names anything else or a generation that is missing.
std::filesystem::path current_generation(const std::filesystem::path& dir);

// The bytes on disk of what readers of the index in `dir` open: the stub file
// and the current generation. A bulk build's tmp-* folders and stale
// generations, which a crash leaves until the next Writer removes them, are no
// part of the index. Throws as current_generation().
std::uintmax_t size_on_disk(const std::filesystem::path& dir);

// The directory of the generation after the current one (or the first).
std::filesystem::path next_generation(const std::filesystem::path& dir);

// Makes `generation` (a subdirectory of `dir`) current, atomically and durably.
void publish(const std::filesystem::path& dir, const std::filesystem::path& generation);

// Identifies the stub file's current version (inode and modification time), so
// a reader can tell that a new generation was published.
struct StubVersion {
  ino_t inode = 0;
  long long mtime_ns = 0;
  bool operator==(const StubVersion&) const = default;
};
StubVersion stub_version(const std::filesystem::path& dir);

// `text` (a stub file's, a cluster file's line, a key in a database) as an
// error may quote it: in double quotes, control characters (NUL too) and bytes
// that are not UTF-8 escaped as \xHH, cut after 80 bytes (at a character's
// end), so that any bytes make a short, printable UTF-8 message.
std::string shown(std::string_view text);

// Removes bulk-build leftovers and generations other than the current one.
// Throws CorruptIndex, removing nothing, if the stub names no generation.
void remove_stale(const std::filesystem::path& dir);

// A fresh private directory inside `dir` for scratch (a bulk build's shards),
// removed with the object, or on a signal that ends the process; a crash's is
// removed by the next remove_stale().
scratch::Folder make_temp_dir(const std::filesystem::path& dir);

// The directory of the next generation, made (empty, private) and guarded as
// scratch until released by the caller, who then publishes it.
scratch::Folder new_generation(const std::filesystem::path& dir);

// The writer lock of an index directory: held from construction to destruction.
// Throws IndexLocked if another Writer (in any process) holds it.
class WriterLock {
 public:
  explicit WriterLock(const std::filesystem::path& dir);
  ~WriterLock();
  WriterLock(const WriterLock&) = delete;
  WriterLock& operator=(const WriterLock&) = delete;

 private:
  int fd_ = -1;
};

}  // namespace abstracts::layout

#endif  // ABSTRACTS_ENGINE_LAYOUT_H_
