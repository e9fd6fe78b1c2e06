// Search by meaning (SearchMode::kSemantic and kHybrid): the query's words made
// a vector (engine/vectors.h) and compared with every abstract's.
#ifndef ABSTRACTS_QUERY_MEANING_H_
#define ABSTRACTS_QUERY_MEANING_H_

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "abstracts/search.h"
#include "query/database_pool.h"

namespace abstracts::query {

// How many of each ranking a hybrid search mixes (SearchOptions::mode).
inline constexpr std::size_t kHybridDepth = 100;

// Whether `pool`'s index has vectors a search by meaning can use: false on a
// cluster with remote shards.
bool has_vectors(DatabasePool& pool);

// Runs a search by meaning on `pool`'s index; `lexical` runs a search by words
// (for kHybrid). Throws Error with a hint when the index has no vectors, is a
// cluster with remote shards, or options.sort is by date.
SearchResults search_by_meaning(DatabasePool& pool, std::string_view text, const SearchOptions& options,
                                const std::function<SearchResults(const SearchOptions&)>& lexical);

// Index::similar() by meaning: the given abstracts' vectors averaged are the
// query (the given ones left out); kHybrid mixes `lexical`'s likeness by words.
// Throws as search_by_meaning().
SearchResults similar_by_meaning(DatabasePool& pool, const std::vector<std::string>& ids,
                                 const SearchOptions& options,
                                 const std::function<SearchResults(const SearchOptions&)>& lexical);

}  // namespace abstracts::query

#endif  // ABSTRACTS_QUERY_MEANING_H_
