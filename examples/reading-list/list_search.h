// Searching only the abstracts on a reading list, through the public query
// language: the user's query AND a filter of `id:` clauses.
#ifndef READING_LIST_LIST_SEARCH_H_
#define READING_LIST_LIST_SEARCH_H_

#include <string>
#include <string_view>
#include <vector>

#include "abstracts/abstracts.h"

namespace reading_list {

// "( QUERY ) AND (id:A id:B ...)": filter clauses on one field are ORed, so the
// group matches any listed abstract and adds nothing to the score; AND makes
// it restrict even a QUERY that is itself only filters (`id:X`, `year:2026`),
// which juxtaposition would OR with the list's ids. The space before ')' keeps
// a trailing backslash in QUERY from escaping it. QUERY must parse on its own
// (search_list() checks), so that its parentheses cannot pair with ours.
// `ids` must be valid list ids (reading_list.h) and not empty.
std::string restrict_to_ids(std::string_view query, const std::vector<std::string>& ids);

// Searches `index` with `query` (query language) among `ids` only, ranked as in
// a search of the whole index. Throws abstracts::QueryError with the column in
// `query` itself when it cannot be parsed. When nothing on the list matches and
// a spelling correction of the query (made against the whole index) does,
// returns its hits with `corrected` set; `suggestion` is the correction.
// `options.correct_spelling` is honoured; `options.syntax` must be the query language.
abstracts::SearchResults search_list(const abstracts::Index& index, std::string_view query,
                                     const std::vector<std::string>& ids,
                                     const abstracts::SearchOptions& options);

}  // namespace reading_list

#endif  // READING_LIST_LIST_SEARCH_H_
