#include "engine/analysis/stop_words.h"

#include <algorithm>
#include <array>
#include <cstdint>

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
constexpr std::size_t kLongest = 5;  // "their", "there", "these"
static_assert(std::all_of(kStopWords.begin(), kStopWords.end(), [](std::string_view w) { return w.size() <= kLongest; }));

// A word of at most kLongest bytes as one number (its length, then its bytes),
// so the check is a search among 33 numbers: it runs for every word indexed.
constexpr std::uint64_t packed(std::string_view w) {
  std::uint64_t v = w.size();
  for (std::size_t i = 0; i < w.size(); ++i) v |= static_cast<std::uint64_t>(static_cast<unsigned char>(w[i])) << (8 * (i + 1));
  return v;
}

constexpr std::array<std::uint64_t, kStopWords.size()> kPacked = [] {
  std::array<std::uint64_t, kStopWords.size()> keys{};
  for (std::size_t i = 0; i < kStopWords.size(); ++i) keys[i] = packed(kStopWords[i]);
  std::sort(keys.begin(), keys.end());
  return keys;
}();

}  // namespace

bool is_stop_word(std::string_view term) {
  if (term.size() > kLongest) return false;  // most words
  return std::binary_search(kPacked.begin(), kPacked.end(), packed(term));
}

}  // namespace abstracts::analysis
