// The query parser: query text -> Xapian query, through the shared analyzer.
#ifndef ABSTRACTS_QUERY_PARSER_H_
#define ABSTRACTS_QUERY_PARSER_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include <xapian.h>

#include "engine/analysis/analyzer.h"
#include "query/positional.h"

namespace abstracts::query {

class AcronymSource;
class Deadline;

// What the parser may consult besides the analyzer.
struct ParserContext {
  // Trailing wildcards expand against this index's words. Without it they become
  // Xapian's lazy OP_WILDCARD (which fails at search time past the bound).
  const Xapian::Database* db = nullptr;
  // Learned acronyms to expand; none if null.
  const AcronymSource* acronyms = nullptr;
  // A wildcard matching more words than this is an error, not a silent cut.
  std::size_t max_wildcard_terms = 200;
  // The bounds of a query (docs/query-language.md, "Limits"); past one, the
  // query is an error. No question comes near them: the longest of the test
  // collections' (a CACM one) is 531 bytes and 79 words.
  // Query text longer than this many bytes.
  std::size_t max_query_bytes = 10000;
  // More terms than this once expanded: every word of a phrase or NEAR group,
  // an acronym's long forms, a wildcard's words, each field value.
  std::size_t max_terms = 1000;
  // More position checks than this: quoted phrases, hyphenated words, NEAR and
  // ADJ groups, acronyms that also match a long form. Each reads the positions
  // of every abstract that has its words (of the commonest words, ~15 ms on
  // 20,000 arXiv abstracts), so they cost the most.
  std::size_t max_position_checks = 50;
  // Parentheses inside parentheses, or operators applied to operators' results
  // ("a AND b AND c" is one level), deeper than this. It bounds the parser's
  // recursion and Xapian's over the query it builds.
  std::size_t max_depth = 32;
  // The search's time limit, which the position checks of phrases and proximity
  // groups keep to; none if null. Must outlive the query.
  const Deadline* deadline = nullptr;
};

// Grammar (docs/query-language.md has the user's version):
//   query    := clause+                       juxtaposition: the default operator (OR)
//   clause   := ['+' | '-' | 'NOT'] or_expr    '+' must match, '-'/NOT must not
//   or_expr  := and_expr (('OR' | 'XOR') and_expr)*
//   and_expr := near_expr (('AND' | 'NOT' | 'AND NOT') near_expr)*
//   near_expr:= primary (('NEAR' | 'NEAR/n' | 'ADJ' | 'ADJ/n') primary)*
//   primary  := '(' query ')' | '"' words '"' | field ':' value | word | prefix '*'
// Operators are upper case; "and", "or", "not" are plain words. A word that
// analyses to several terms ("text-only") is a phrase; one that analyses to
// none is ignored. A backslash escapes the next character ("Sch\"olkopf").
// Fields: venue:, year: (2026, 2024..2026, ..2025, 2024..), source:, id: filter
// without ranking; title: matches words of the title and ranks. Filter clauses
// always restrict the query; filters on one field are ORed, on different fields ANDed.
//
// Throws QueryError with the 1-based column for an empty query, unbalanced
// parentheses or quotes, an operator with a missing operand, an unknown field,
// a bad year, a NEAR/ADJ operand that is not one word, a wildcard that matches
// too many words, and a query past one of the ParserContext's bounds (too long,
// too many terms, nested too deep). Parsing takes time linear in the query's
// length (the wildcards' and acronyms' index lookups aside).
class Parser {
 public:
  explicit Parser(const analysis::Analyzer& analyzer, ParserContext context = {})
      : analyzer_(analyzer), context_(context) {}

  // Parses `query`. If `notes` is given, appends one line for each expansion
  // applied (stems, acronyms, wildcards), for --explain. If `deferred` is given,
  // the phrases and proximity groups the query cannot match without move there
  // (query/positional.h), and the search must pass it to Enquire::get_mset.
  Xapian::Query parse(std::string_view query, std::vector<std::string>* notes = nullptr,
                      PositionChecks* deferred = nullptr) const;

  // Natural-language text, with no syntax: every term of `text` combined with
  // the default operator. Throws QueryError if `text` has no searchable words,
  // or is past max_query_bytes or max_terms.
  Xapian::Query parse_plain(std::string_view text, std::vector<std::string>* notes = nullptr) const;

 private:
  const analysis::Analyzer& analyzer_;
  ParserContext context_;
};

}  // namespace abstracts::query

#endif  // ABSTRACTS_QUERY_PARSER_H_
