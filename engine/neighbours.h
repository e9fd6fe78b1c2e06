// The nearest-neighbour graph of an index's vectors (issue 46): what `abstracts
// vectors build` and the indexer write (indexer/) and a search by meaning reads
// (query/meaning.cc), so that it looks at a few thousand abstracts' vectors
// instead of every one.
//
// The graph is hnswlib's (Debian's libhnswlib-dev): a hierarchical navigable
// small world over the abstracts' int8 vectors (the bytes of value slot
// schema::kVectorSlot), labelled with their document numbers. It is a file of
// the generation, GENERATION/vectors.hnsw, published with the text and the
// vectors it was built from; built beside, then renamed into place, so a reader
// sees a whole graph or none. A reader maps it and searches it in place,
// checking each link as it follows it (hnswlib's own search would need every
// link checked first: a pass over the whole file on each start of the CLI).
//
// The indexer only adds abstracts and deletes them (never changes one in
// place), and a new generation keeps the document numbers, so a graph stays
// right for the abstracts it has: those after its last() are searched one by
// one, those deleted since are skipped. The Writer builds it again when those
// come to a tenth of it (graph_due()).
#ifndef ABSTRACTS_ENGINE_NEIGHBOURS_H_
#define ABSTRACTS_ENGINE_NEIGHBOURS_H_

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <vector>

#include <xapian.h>

namespace abstracts::neighbours {

// The graph of the generation `generation`, and where it is built.
inline std::filesystem::path graph_path(const std::filesystem::path& generation) {
  return generation / "vectors.hnsw";
}
inline std::filesystem::path building_path(const std::filesystem::path& generation) {
  return generation / "vectors.hnsw.new";
}

// What a graph file says it holds.
struct Stamp {
  std::uint32_t dimensions = 0;
  Xapian::docid last = 0;  // the highest document number when it was built
  std::uint64_t size = 0;  // abstracts in it
};
// The stamp of the graph file `file`; nullopt if there is none or it is no graph.
std::optional<Stamp> read_stamp(const std::filesystem::path& file);

// Builds the graph of every vector of `dimensions` bytes in `db` (the database
// of `generation`) with `threads` threads, and renames it into place; with no
// vector, removes the generation's graph. Returns how many abstracts it has.
// Throws std::runtime_error (a full disk) or Xapian errors; a failure leaves
// the graph that was there.
std::uint64_t build_graph(const std::filesystem::path& generation, const Xapian::Database& db,
                          std::uint32_t dimensions, unsigned threads);

// Whether the graph of `generation` should be built (again) for `db`: it has
// vectors of `dimensions` and the graph is missing, of other dimensions, or the
// abstracts added or deleted since it was built come to a tenth of it (and
// at least kStaleAbstracts).
inline constexpr std::uint64_t kStaleAbstracts = 1000;
bool graph_due(const std::filesystem::path& generation, const Xapian::Database& db, std::uint32_t dimensions);

// A graph mapped for searching. Thread-safe: one Graph may serve many threads.
class Graph {
 public:
  // The graph file `file` if it is fit for `db`: whole (its parts' sizes), of
  // `dimensions`, and holding the vectors `db` has for its abstracts (a sample
  // is compared). nullptr otherwise (none, damaged, or of other vectors): then
  // the caller reads every vector, as without a graph. A damaged link found
  // later is not followed.
  static std::shared_ptr<const Graph> open(const std::filesystem::path& file, const Xapian::Database& db,
                                           std::uint32_t dimensions);
  ~Graph();
  Graph(const Graph&) = delete;
  Graph& operator=(const Graph&) = delete;

  const Stamp& stamp() const;
  // The max(k, kSearchDepth) abstracts (document numbers; all, if the graph
  // has fewer) nearest the unit vector `q` that the search finds, nearest first
  // by the int8 vectors' cosine: the caller ranks them by its exact one. Some
  // may have been deleted since the graph was built.
  std::vector<Xapian::docid> nearest(const std::vector<float>& q, std::size_t k) const;
  // At a million abstracts, 600 finds 0.986 of the exact 10 nearest and 0.955
  // of the 100 (200: 0.955 and 0.892); a hybrid search took 11.8 ms (p50)
  // either way, most of it the search by words (docs/performance.md).
  static constexpr std::size_t kSearchDepth = 600;

 private:
  struct Impl;
  explicit Graph(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace abstracts::neighbours

#endif  // ABSTRACTS_ENGINE_NEIGHBOURS_H_
