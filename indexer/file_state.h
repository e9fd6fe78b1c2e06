// Per-file state: what the index keeps of each file it was built from, so that
// indexing the same files again is idempotent. The file's state (size,
// modification time, content hash, abstract count) is metadata under
// schema::file_key(); its abstracts carry its XF term (schema::file_term()).
#ifndef ABSTRACTS_INDEXER_FILE_STATE_H_
#define ABSTRACTS_INDEXER_FILE_STATE_H_

#include <cstddef>
#include <filesystem>
#include <optional>
#include <set>
#include <string>

#include <xapian.h>

#include "engine/schema.h"

namespace abstracts::indexer {

// Size and modification time of `file`; the hash and the count are left 0.
schema::FileState file_state(const std::filesystem::path& file);

// XXH3-64 of the bytes of `file`; 0 if it cannot be read.
unsigned long long hash_file(const std::filesystem::path& file);

// The state `db` keeps of the file `file`, indexed as `abs`, if the file is
// unchanged (the same size and modification time, or the same content); nullopt
// if it needs indexing, with `now` its current state, hash included. Records a
// touched file's new time (and commits) so that the next run skips it on the
// cheap check.
std::optional<schema::FileState> unchanged(Xapian::WritableDatabase& db, const std::filesystem::path& file,
                                           const std::string& abs, schema::FileState& now);

// Deletes the documents of the file indexed as `abs` whose docids are not in
// `keep`; returns how many it deleted.
std::size_t delete_file_documents(Xapian::WritableDatabase& db, const std::string& abs,
                                  const std::set<Xapian::docid>& keep);

}  // namespace abstracts::indexer

#endif  // ABSTRACTS_INDEXER_FILE_STATE_H_
