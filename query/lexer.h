// The query lexer: query text -> lexemes (words, phrases, field:value, operators,
// parentheses), each with its column, for the parser (query/parser.h).
#ifndef ABSTRACTS_QUERY_LEXER_H_
#define ABSTRACTS_QUERY_LEXER_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace abstracts::query {

enum class Kind { kWord, kPhrase, kField, kOpen, kClose, kAnd, kOr, kXor, kNot, kNear, kAdj, kPlus, kMinus, kEnd };

struct Lexeme {
  Lexeme(Kind k, std::string t, std::size_t col, unsigned n = 0)
      : kind(k), text(std::move(t)), column(col), distance(n) {}

  Kind kind;
  std::string text;        // the word, phrase or field value, as typed
  std::size_t column = 0;  // 1-based, in characters
  unsigned distance = 0;   // kNear, kAdj: the n of NEAR/n
  std::string field;       // kField: the field name, lower case
  bool quoted = false;     // kField: the value was a quoted phrase
};

// An operator lexeme as error messages name it ("AND", "'('"); "term" for the rest.
const char* operator_name(const Lexeme& lx);

// The lexemes of `query`, ended by one of Kind::kEnd. Operators are upper case
// ("and" is a word); a backslash keeps the next character in a word or phrase.
// Prose is read as words, each such reading noted in `rereadings` (if given):
// a name before a colon that is no field ("Some examples: Rabin"), and a field
// name with a space after its colon, are words; a quote never closed is closed
// where the query ends. Throws QueryError (with the column) for a NEAR/ADJ
// distance out of 1..1000 and a field with nothing at all after it.
std::vector<Lexeme> lex(std::string_view query, std::vector<std::string>* rereadings = nullptr);

}  // namespace abstracts::query

#endif  // ABSTRACTS_QUERY_LEXER_H_
