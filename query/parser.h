// The query parser: query text -> Xapian query, through the shared analyzer.
#ifndef ABSTRACTS_QUERY_PARSER_H_
#define ABSTRACTS_QUERY_PARSER_H_

#include <string_view>

#include <xapian.h>

#include "engine/analysis/analyzer.h"

namespace abstracts::query {

// Grammar (docs/query-language.md has the user's version):
//   query   := clause+                      juxtaposition: the default operator (OR)
//   clause  := ['+' | '-' | 'NOT'] or_expr   '+' must match, '-'/NOT must not
//   or_expr := and_expr ('OR' and_expr)*
//   and_expr:= primary (('AND' | 'NOT' | 'AND NOT') primary)*
//   primary := '(' query ')' | '"' words '"' | word
// Operators are upper case; "and", "or", "not" are plain words. A word that
// analyses to several terms ("text-only") is a phrase; one that analyses to
// none is ignored. A backslash escapes the next character ("Sch\"olkopf").
//
// Throws QueryError with the 1-based column for an empty query, unbalanced
// parentheses or quotes, and an operator with a missing operand.
class Parser {
 public:
  explicit Parser(const analysis::Analyzer& analyzer) : analyzer_(analyzer) {}

  Xapian::Query parse(std::string_view query) const;

 private:
  const analysis::Analyzer& analyzer_;
};

}  // namespace abstracts::query

#endif  // ABSTRACTS_QUERY_PARSER_H_
