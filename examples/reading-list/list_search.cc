#include "list_search.h"

namespace reading_list {

abstracts::SearchResults search_list(const abstracts::Index& index, std::string_view query,
                                     const std::vector<std::string>& ids,
                                     const abstracts::SearchOptions& options) {
  abstracts::SearchOptions within = options;
  within.within_ids = ids;
  return index.search(query, within);
}

}  // namespace reading_list
