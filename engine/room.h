// Room on the disk for a commit. Xapian 1.4 cannot fail inside a commit's
// merge of document values: the write that finds the disk full throws from a
// destructor (glass_values.cc, ValueUpdater), which ends the process. So no
// commit is started without room for what it may write: a commit that would
// not fit is refused with an error, its changes discarded, the database left
// as of its last commit. A failure the estimate misses still ends the process,
// but with the error said and exit status 2, the scratch folders removed.
#ifndef ABSTRACTS_ENGINE_ROOM_H_
#define ABSTRACTS_ENGINE_ROOM_H_

#include <cstdint>
#include <filesystem>

#include <xapian.h>

namespace abstracts::room {

// What a commit may write besides its documents: B-tree blocks it copies
// (glass writes a changed block anew) and the version file.
inline constexpr std::uint64_t kReserve = 4 << 20;

// What a document adds to a commit, about: its values, data and terms, as
// the B-trees hold them uncompressed.
std::uint64_t document_bytes(const Xapian::Document& doc);

// What deleting a document adds to a commit, about: the blocks of its posting
// lists that change.
inline constexpr std::uint64_t kDeletedDocumentBytes = 16 << 10;

// Changes not committed yet, and where they go.
struct Pending {
  std::filesystem::path dir;  // a folder on the database's file system
  std::uint64_t bytes = 0;
};

// Commits `db` if its file system has room for twice `pending.bytes` and
// kReserve; else discards its changes and throws Error (naming how much is
// free and how much is wanted). Resets `pending.bytes` either way. Xapian's
// errors are Xapian's (callers translate them, engine/xapian_errors.h).
void commit(Xapian::WritableDatabase& db, Pending& pending);

// Discards what `db` holds that is not committed: its next commit, or its
// destruction (which commits), writes nothing of it.
void discard(Xapian::WritableDatabase& db) noexcept;

// Free bytes for an unprivileged user on the file system of `dir`; the most
// there can be if that cannot be told.
std::uint64_t free_bytes(const std::filesystem::path& dir);

}  // namespace abstracts::room

#endif  // ABSTRACTS_ENGINE_ROOM_H_
