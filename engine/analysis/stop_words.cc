#include "engine/analysis/stop_words.h"

#include <algorithm>
#include <array>

namespace abstracts::analysis {
namespace {

// Lucene's EnglishAnalyzer.ENGLISH_STOP_WORDS_SET, sorted. Each of them is its
// own English Snowball stem, so the words are the index terms.
constexpr std::array<std::string_view, 33> kStopWords = {
    "a",    "an",   "and",   "are",   "as",    "at",   "be",   "but",  "by",
    "for",  "if",   "in",    "into",  "is",    "it",   "no",   "not",  "of",
    "on",   "or",   "such",  "that",  "the",   "their", "then", "there", "these",
    "they", "this", "to",    "was",   "will",  "with",
};

static_assert(std::is_sorted(kStopWords.begin(), kStopWords.end()));
static_assert(std::all_of(kStopWords.begin(), kStopWords.end(), [](std::string_view w) { return w.size() <= 5; }));

}  // namespace

bool is_stop_word(std::string_view term) {
  if (term.size() > 5) return false;  // most words: none is longer than "there"
  return std::binary_search(kStopWords.begin(), kStopWords.end(), term);
}

}  // namespace abstracts::analysis
