#include "list_search.h"

namespace reading_list {

std::string restrict_to_ids(std::string_view query, const std::vector<std::string>& ids) {
  std::string out = "( ";
  out += query;
  out += " ) AND (";
  for (std::size_t i = 0; i < ids.size(); ++i) out += (i == 0 ? "id:" : " id:") + ids[i];
  return out + ")";
}

abstracts::SearchResults search_list(const abstracts::Index& index, std::string_view query,
                                     const std::vector<std::string>& ids,
                                     const abstracts::SearchOptions& options) {
  // Parse the query alone first: errors then name columns of what the user
  // typed, and a correction is made for their words, not for our id: clauses.
  abstracts::SearchOptions check = options;
  check.limit = 0;
  check.offset = 0;
  check.snippets = false;
  check.correct_spelling = false;
  check.explain = false;
  const std::string suggestion = index.search(query, check).suggestion;

  abstracts::SearchOptions restricted = options;
  restricted.correct_spelling = false;
  abstracts::SearchResults results = index.search(restrict_to_ids(query, ids), restricted);
  if (results.hits.empty() && options.correct_spelling && !suggestion.empty()) {
    try {
      abstracts::SearchResults corrected =
          index.search(restrict_to_ids(suggestion, ids), restricted);
      if (!corrected.hits.empty()) {
        results = std::move(corrected);
        results.corrected = true;
      }
    } catch (const abstracts::QueryError&) {
      // A correction that does not parse is no correction.
    }
  }
  results.suggestion = suggestion;
  return results;
}

}  // namespace reading_list
