// Searching only the abstracts on a reading list.
#ifndef READING_LIST_LIST_SEARCH_H_
#define READING_LIST_LIST_SEARCH_H_

#include <string>
#include <string_view>
#include <vector>

#include "abstracts/abstracts.h"

namespace reading_list {

// Searches `index` with `query` among `ids` only (SearchOptions::within_ids),
// ranked as in a search of the whole index. Throws abstracts::QueryError with
// the column in `query` when it cannot be parsed. When nothing on the list
// matches and a spelling correction of the query (made against the whole index)
// does, returns its hits with `corrected` set. `ids` must not be empty.
abstracts::SearchResults search_list(const abstracts::Index& index, std::string_view query,
                                     const std::vector<std::string>& ids,
                                     const abstracts::SearchOptions& options);

}  // namespace reading_list

#endif  // READING_LIST_LIST_SEARCH_H_
