// The bulk build: an empty index built from many files at once, in parallel
// shards that are merged into a new generation of the index (engine/layout.h).
#ifndef ABSTRACTS_INDEXER_BULK_BUILD_H_
#define ABSTRACTS_INDEXER_BULK_BUILD_H_

#include <exception>
#include <filesystem>
#include <functional>
#include <vector>

#include <xapian.h>

#include "abstracts/error.h"
#include "abstracts/writer.h"

namespace abstracts::indexer {

// What a bulk build leaves its caller.
struct BuiltGeneration {
  Xapian::WritableDatabase db;  // the published generation, open for writing
  // What `fail` threw to stop the reading, if it did: the caller rethrows it once
  // it has taken `db` in hand.
  std::exception_ptr stopped;
};

// Builds the index in `dir` (empty, its writer lock held by the caller) from
// `files`. This thread reads the files and hands batches of records to one worker
// per thread (options.threads, or one per core), each of which analyses them into
// its own shard; the shards are merged by Xapian compaction into the next
// generation, which is published. Only the abstracts of `shard` are kept (all
// if its count is 0), with Xapian positions. Reports each file and the progress through
// `options`. A file that fails with InputError goes to `fail`, and none of its
// abstracts is kept; if `fail` throws, reading stops there, and the files read
// before it are built and published all the same. Xapian's errors become
// abstracts::Error (engine/xapian_errors.h).
BuiltGeneration bulk_build(const std::filesystem::path& dir, const std::vector<std::filesystem::path>& files,
                           const IndexOptions& options, const Shard& shard,
                           const std::function<void(const InputError&)>& fail);

}  // namespace abstracts::indexer

#endif  // ABSTRACTS_INDEXER_BULK_BUILD_H_
