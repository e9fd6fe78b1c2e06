// Words too common in abstracts to say what one is about.
#ifndef ABSTRACTS_QUERY_STOPWORDS_H_
#define ABSTRACTS_QUERY_STOPWORDS_H_

#include <string_view>

namespace abstracts::query {

// True for the stem of an English function word ("the", "of", "we") or of the
// boilerplate of abstracts ("propose", "approach", "result", "show", "paper",
// "method", "novel", "state-of-the-art" ...). Takes index terms (stemmed).
bool is_boilerplate(std::string_view term);

// True for the stem of an English function word only ("the", "of", "which").
bool is_function_word(std::string_view term);

}  // namespace abstracts::query

#endif  // ABSTRACTS_QUERY_STOPWORDS_H_
