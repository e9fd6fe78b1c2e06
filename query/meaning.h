// Search by meaning (SearchMode::kSemantic and kHybrid): the query's words made
// a vector (engine/vectors.h), and the abstracts nearest it found through the
// index's nearest-neighbour graph (engine/neighbours.h), or else by reading
// every abstract's vector.
#ifndef ABSTRACTS_QUERY_MEANING_H_
#define ABSTRACTS_QUERY_MEANING_H_

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "abstracts/search.h"
#include "engine/neighbours.h"
#include "query/database_pool.h"

namespace abstracts::query {

// How many of each ranking a hybrid search mixes (SearchOptions::mode).
inline constexpr std::size_t kHybridDepth = 100;

// The nearest-neighbour graph of an index (engine/neighbours.h), mapped once
// for as long as it is the current generation's: each Index keeps one.
// Thread-safe.
class GraphCache {
 public:
  // The graph of the index in `dir` as `db` is now, if it has one fit to use.
  // Looked at again (one stat) on each call, so a graph built since is used.
  std::shared_ptr<const neighbours::Graph> of(const std::filesystem::path& dir, const Xapian::Database& db,
                                              std::uint32_t dimensions);

 private:
  std::mutex mutex_;
  std::string file_;
  std::uint64_t inode_ = 0, size_ = 0;
  std::int64_t mtime_ns_ = 0;
  std::shared_ptr<const neighbours::Graph> graph_;  // none: unfit
};

// Whether `pool`'s index has vectors a search by meaning can use: false on a
// cluster with remote shards.
bool has_vectors(DatabasePool& pool);

// Runs a search by meaning on `pool`'s index; `lexical` runs a search by words
// (for kHybrid). Throws Error with a hint when the index has no vectors, is a
// cluster with remote shards, or options.sort is by date.
SearchResults search_by_meaning(DatabasePool& pool, GraphCache& graphs, std::string_view text,
                                const SearchOptions& options,
                                const std::function<SearchResults(const SearchOptions&)>& lexical);

// Index::similar() by meaning: the given abstracts' vectors averaged are the
// query (the given ones left out); kHybrid mixes `lexical`'s likeness by words.
// Throws as search_by_meaning().
SearchResults similar_by_meaning(DatabasePool& pool, GraphCache& graphs, const std::vector<std::string>& ids,
                                 const SearchOptions& options,
                                 const std::function<SearchResults(const SearchOptions&)>& lexical);

}  // namespace abstracts::query

#endif  // ABSTRACTS_QUERY_MEANING_H_
