// The stop words: words so common in English that the index leaves them out.
#ifndef ABSTRACTS_ENGINE_ANALYSIS_STOP_WORDS_H_
#define ABSTRACTS_ENGINE_ANALYSIS_STOP_WORDS_H_

#include <cstddef>
#include <string_view>

namespace abstracts::analysis {

// A stop word's term has at most this many bytes ("their", "there", "these").
inline constexpr std::size_t kLongestStopWord = 5;

// is_stop_word(), for a term of any length (false past kLongestStopWord).
bool is_short_stop_word(std::string_view term);

// True for the index term (as Analyzer makes it) of a stop word: Lucene's English
// list of 33 ("a", "and", "of", "the", "to", ...). The indexer leaves these terms
// out but keeps the positions of the other words, so a phrase with stop words in
// it ("state of the art") matches its other words at the same distances. Dropping
// them made every collection in docs/relevance.md rank better and the index
// smaller. Thread-safe. Inline, so that a longer term, as most are, costs no call
// (the indexer asks for every word).
inline bool is_stop_word(std::string_view term) {
  return term.size() <= kLongestStopWord && is_short_stop_word(term);
}

}  // namespace abstracts::analysis

#endif  // ABSTRACTS_ENGINE_ANALYSIS_STOP_WORDS_H_
