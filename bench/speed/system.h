// The systems under measurement, behind one interface: build an index from a
// corpus, then answer the query set (top 10 with snippets) from it.
#ifndef ABSTRACTS_BENCH_SPEED_SYSTEM_H_
#define ABSTRACTS_BENCH_SPEED_SYSTEM_H_

#include <cstddef>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "bench/speed/query_set.h"

namespace abstracts::speed {

constexpr std::size_t kTopK = 10;

// An open index answering queries. Not thread-safe.
class Searcher {
 public:
  virtual ~Searcher() = default;
  // Runs `query` in the system's own syntax, top kTopK with snippets, and
  // consumes every hit's id, score and snippet. Returns the number of hits.
  // Throws std::runtime_error when the system rejects the query.
  virtual std::size_t search(const BenchQuery& query) = 0;
};

// One system: `index` builds an index at `index_path` (a directory, or for
// FTS5 a database file) from `corpus` (BEIR JSON Lines, plain or gzip; the
// Xapian indexer also takes a folder of bundled-format .txt files); `open`
// opens it for searching. Both throw on failure.
struct System {
  std::string name;  // "engine", "xapian", "fts5", "matcher"
  void (*index)(const std::filesystem::path& corpus, const std::filesystem::path& index_path);
  std::unique_ptr<Searcher> (*open)(const std::filesystem::path& index_path);
};

// The systems by name, in reporting order.
const std::vector<System>& systems();
// Throws std::invalid_argument for an unknown name.
const System& find_system(const std::string& name);

// Defined in engine_system.cc, xapian_system.cc and fts5_system.cc (in the
// `speed` tool).
void index_engine(const std::filesystem::path& corpus, const std::filesystem::path& dir);
std::unique_ptr<Searcher> open_engine(const std::filesystem::path& dir);
// The engine with SearchOptions::mode = kHybrid (the index needs vectors: `abstracts vectors build`).
std::unique_ptr<Searcher> open_engine_hybrid(const std::filesystem::path& dir);
void index_xapian(const std::filesystem::path& corpus, const std::filesystem::path& dir);
std::unique_ptr<Searcher> open_xapian(const std::filesystem::path& dir);
void index_fts5(const std::filesystem::path& corpus, const std::filesystem::path& file);
std::unique_ptr<Searcher> open_fts5(const std::filesystem::path& file);
// Xapian's matcher alone over an index of the engine's (matcher_system.cc): the
// floor under the engine's query time. It has no index of its own.
std::unique_ptr<Searcher> open_matcher(const std::filesystem::path& dir);

}  // namespace abstracts::speed

#endif  // ABSTRACTS_BENCH_SPEED_SYSTEM_H_
