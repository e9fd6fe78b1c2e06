// Per-file state: what the index keeps of each file it was built from (size,
// modification time, content hash, abstract count; metadata under
// schema::file_key()), so that indexing the same files again skips those that
// have not changed.
#ifndef ABSTRACTS_INDEXER_FILE_STATE_H_
#define ABSTRACTS_INDEXER_FILE_STATE_H_

#include <filesystem>
#include <optional>
#include <string>

#include <xapian.h>

#include "engine/schema.h"

namespace abstracts::indexer {

// Size and modification time of `file`; the hash and the count are left 0.
schema::FileState file_state(const std::filesystem::path& file);

// XXH3-64 of the bytes of `file`; 0 if it cannot be read.
unsigned long long hash_file(const std::filesystem::path& file);

// The state `db` keeps of the file `file`, indexed as `abs`, if the file is
// unchanged (the same size and content, whatever its modification time); nullopt
// if it needs indexing, with `now` its current state, hash and sources included.
// Records a touched file's new time, for the run's next commit.
std::optional<schema::FileState> unchanged(Xapian::WritableDatabase& db, const std::filesystem::path& file,
                                           const std::string& abs, schema::FileState& now);

}  // namespace abstracts::indexer

#endif  // ABSTRACTS_INDEXER_FILE_STATE_H_
