// Snippets: the part of an abstract that best shows why it matched.
#ifndef ABSTRACTS_QUERY_SNIPPET_H_
#define ABSTRACTS_QUERY_SNIPPET_H_

#include <string>
#include <string_view>
#include <unordered_set>

#include "abstracts/search.h"
#include "engine/analysis/analyzer.h"

namespace abstracts::query {

// Picks the window of about `max_chars` characters of `text` (a display text)
// that holds the most distinct query terms (then the most matches, then the
// earliest), cut on word boundaries with "…" where text was left out, and marks
// every word whose term is in `terms`.
Snippet make_snippet(std::string_view text, const std::unordered_set<std::string>& terms,
                     std::size_t max_chars, const analysis::Analyzer& analyzer);

}  // namespace abstracts::query

#endif  // ABSTRACTS_QUERY_SNIPPET_H_
