// Shards and clusters (docs/scale-out.md). A corpus too large for one machine is
// split by id into N shards, each an ordinary index built with `index --shard K/N`
// and served by Xapian's own `xapian-tcpsrv`. A cluster file lists the shards in
// Xapian's stub syntax, so Xapian's tools open it too:
//
//   # abstracts: timeout 5
//   remote 10.0.0.1:33333
//   remote 10.0.0.2:33333
//   auto shard-3
//
// Settings of abstracts' own are comments to Xapian ("# abstracts: NAME VALUE").
#ifndef ABSTRACTS_ENGINE_CLUSTER_H_
#define ABSTRACTS_ENGINE_CLUSTER_H_

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "abstracts/writer.h"

namespace abstracts::cluster {

// A shard is K of N with 1 <= K <= N <= kMaxShards (Shard::parse() takes no
// other); {0, 0} is a whole corpus.
inline constexpr unsigned kMaxShards = 4096;
inline bool is_shard(const Shard& s) { return s.index >= 1 && s.index <= s.count && s.count <= kMaxShards; }
std::string to_string(const Shard& shard);

// The shard (1-based) of `count` that the abstract with this id belongs to: a
// hash of the id (XXH3), the same on every machine and in every version.
unsigned shard_of(std::string_view id, unsigned count);

// The index metadata key that records a shard's setting ("K/N"); absent in an
// index of a whole corpus.
inline constexpr std::string_view kShardKey = "abstracts:shard";

// A shard as one line of a cluster file names it.
struct Member {
  // A shard served by xapian-tcpsrv, or a local shard index directory.
  enum class Kind { kRemote, kLocal };
  Kind kind = Kind::kRemote;
  std::string host;              // kRemote
  unsigned port = 0;             // kRemote
  std::filesystem::path path;    // kLocal, absolute (relative to the cluster file's folder)
  std::size_t line = 0;          // in the cluster file
  // How errors name it: "10.0.0.1:33333", or the path.
  std::string name() const;
};

struct ClusterFile {
  std::vector<Member> shards;
  // How long to wait for a shard to connect, and to answer each request.
  std::chrono::milliseconds timeout{kDefaultTimeout};
  static constexpr std::chrono::milliseconds kDefaultTimeout{10000};
};

// True if `path` names a cluster file rather than an index directory: a
// regular file (an index is a directory).
bool is_cluster_file(const std::filesystem::path& path);

// Reads a cluster file. Lines are `remote HOST:PORT` (HOST may be an IPv6
// address in brackets), `auto PATH` or `glass PATH`, blank, or comments; a
// comment `# abstracts: timeout SECONDS` sets the timeout. Xapian's other stub
// lines (`remote :PROGRAM` runs a program, `inmemory`) are refused: a cluster
// file names shards, never programs. Throws CorruptIndex naming the file and
// line for anything else, and for a file with no shard; IndexNotFound if it
// cannot be read.
ClusterFile read_cluster_file(const std::filesystem::path& path);

}  // namespace abstracts::cluster

#endif  // ABSTRACTS_ENGINE_CLUSTER_H_
