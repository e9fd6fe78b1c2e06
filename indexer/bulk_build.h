// The bulk build: an empty index built from many files at once, in parallel
// shards that are merged into a new generation of the index (engine/layout.h).
#ifndef ABSTRACTS_INDEXER_BULK_BUILD_H_
#define ABSTRACTS_INDEXER_BULK_BUILD_H_

#include <exception>
#include <filesystem>
#include <functional>
#include <memory>
#include <vector>

#include <xapian.h>

#include "abstracts/error.h"
#include "abstracts/writer.h"
#include "indexer/reader.h"

namespace abstracts::indexer {

// What a bulk build leaves its caller.
struct BuiltGeneration {
  Xapian::WritableDatabase db;  // the published generation, open for writing
  // What `fail` threw to stop the reading, if it did: the caller rethrows it once
  // it has taken `db` in hand.
  std::exception_ptr stopped;
};

// A worker of a bulk build starts a new shard database every this many
// abstracts, and the compaction at the end merges them all, so committing to a
// small B-tree costs the same at a million abstracts as at the first (Lucene's
// segments, on Xapian). Measured on `speed synth --count 1000000` (2 cores,
// `abstracts index`): one database per worker 294 and 315 s (66-73 s of it in
// the kernel, reading and writing B-tree blocks), 2,363 MB; 20,000 -> 274 s,
// 2,448 MB; 50,000 -> 269 s (31 s in the kernel), 2,420 MB: the compaction
// keeps each part's posting chunks as they are.
inline constexpr Xapian::doccount kPartAbstracts = 50000;

// Builds the index in `dir` (empty, its writer lock held by the caller) from
// `files`. This thread reads the files and hands batches of records to one worker
// per thread (options.threads, or one per core), each of which analyses them into
// shard databases of its own, a new one every `part_abstracts` abstracts; the
// shards are merged by Xapian compaction into the next generation, which is
// published. Whatever `part_abstracts` is, the index holds the same documents
// in the same order. Only the abstracts of `shard` are kept (all if its
// count is 0), with Xapian positions. Reports each file and the progress through
// `options`. A file that fails with InputError goes to `fail`, and none of its
// abstracts is kept; if `fail` throws, reading stops there, and the files read
// before it are built and published all the same. Xapian's errors become
// abstracts::Error (engine/xapian_errors.h).
// Opens a file's reader: Reader::open, or what the Writer has for a file that
// is no plain file (a Zotero database's snapshot, indexer/zotero.h).
using OpenReader = std::function<std::unique_ptr<Reader>(const std::filesystem::path&)>;

BuiltGeneration bulk_build(const std::filesystem::path& dir, const std::vector<std::filesystem::path>& files,
                           const IndexOptions& options, const Shard& shard,
                           const std::function<void(const InputError&)>& fail,
                           Xapian::doccount part_abstracts = kPartAbstracts, const OpenReader& open = {});

}  // namespace abstracts::indexer

#endif  // ABSTRACTS_INDEXER_BULK_BUILD_H_
