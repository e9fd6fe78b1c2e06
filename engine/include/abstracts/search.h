// Search options and results.
#ifndef ABSTRACTS_SEARCH_H_
#define ABSTRACTS_SEARCH_H_

#include <cstddef>
#include <string>
#include <vector>

#include "abstracts/abstract.h"

namespace abstracts {

struct SearchOptions {
  std::size_t limit = 10;   // at most this many hits
  std::size_t offset = 0;   // skip this many of the best hits first
  bool snippets = true;     // fill Hit::snippet
  std::size_t snippet_chars = 240;  // rough snippet length, in characters
};

// A byte range [begin, end) of Snippet::text that matched the query.
struct Highlight {
  std::size_t begin = 0;
  std::size_t end = 0;
};

struct Snippet {
  std::string text;                   // display text, "…" where cut
  std::vector<Highlight> highlights;  // ascending, non-overlapping
};

struct Hit {
  std::size_t rank = 0;  // 1-based, counting from the best hit (offset included)
  double score = 0;      // BM25 score; only comparable within one search
  Abstract abstract;
  Snippet snippet;       // empty unless SearchOptions::snippets
};

struct SearchResults {
  std::vector<Hit> hits;
  // Estimated number of matching abstracts in the whole index.
  std::size_t estimated_matches = 0;
};

}  // namespace abstracts

#endif  // ABSTRACTS_SEARCH_H_
