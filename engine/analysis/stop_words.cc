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
constexpr std::size_t kLongest = kLongestStopWord;
static_assert(std::all_of(kStopWords.begin(), kStopWords.end(), [](std::string_view w) { return w.size() <= kLongest; }));

// A word of at most kLongest bytes as one number (its length, then its bytes),
// so the check is a lookup of one number: it runs for every word indexed.
constexpr std::uint64_t packed(std::string_view w) {
  std::uint64_t v = w.size();
  for (std::size_t i = 0; i < w.size(); ++i) v |= static_cast<std::uint64_t>(static_cast<unsigned char>(w[i])) << (8 * (i + 1));
  return v;
}

// The packed words in an open-addressed table of 128 slots (0: empty), so the
// check is a multiplication and a comparison or two, without the mispredicted
// branches of a binary search.
constexpr std::size_t kSlotBits = 7;
constexpr std::uint64_t kMultiplier = 0x9e3779b97f4a7c15ull;
constexpr std::size_t slot_of(std::uint64_t key) { return static_cast<std::size_t>((key * kMultiplier) >> (64 - kSlotBits)); }
constexpr std::array<std::uint64_t, std::size_t{1} << kSlotBits> kTable = [] {
  std::array<std::uint64_t, std::size_t{1} << kSlotBits> table{};
  for (std::string_view w : kStopWords) {
    std::size_t slot = slot_of(packed(w));
    while (table[slot] != 0) slot = (slot + 1) % table.size();
    table[slot] = packed(w);
  }
  return table;
}();

}  // namespace

bool is_short_stop_word(std::string_view term) {
  if (term.size() > kLongest) return false;
  const std::uint64_t key = packed(term);
  for (std::size_t slot = slot_of(key);; slot = (slot + 1) % kTable.size()) {
    if (kTable[slot] == 0) return false;
    if (kTable[slot] == key) return true;
  }
}

}  // namespace abstracts::analysis
