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

// A query of this many distinct words or more is a question or a claim, not
// keywords: its hyphenated words are words, as plain text reads them (a
// keyword query keeps "text-only" a phrase). The ranking's own threshold for
// questions (RankingOptions::feedback_min_words, proximity_min_words) is 4 too.
inline constexpr std::size_t kQuestionWords = 4;

// A boolean term (a field's, an id's) as a query that filters by it. Xapian
// 1.4.22 opens an unweighted term that every document of `db` has as "all the
// documents", which fails on an index whose posting lists have several chunks
// once a document was deleted ("Unexpected end of posting list":
// tests/query/issue40_query_test.cc, AFilterEveryAbstractPassesAfterADeletion):
// such a term is asked as MatchAll, which matches the same documents.
Xapian::Query boolean_term(const Xapian::Database* db, const std::string& term);

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
  // Phrases and NEAR as Xapian's OP_PHRASE and OP_NEAR, for the shards of a
  // cluster (query/positional.h).
  bool xapian_positions = false;
  // XOR is an error: Xapian 1.4 crashes matching OP_XOR over two or more local
  // databases when one lacks a word (SIGSEGV in Enquire::get_mset); a cluster of
  // local shards is that.
  bool refuse_xor = false;
  // The search's time limit, which the position checks of phrases and proximity
  // groups keep to; none if null. Must outlive the query.
  const Deadline* deadline = nullptr;
  // The search's bound on those checks (query/positional.h), past which the
  // search is a QueryError; none if null. Must outlive the query.
  PositionBudget* position_budget = nullptr;
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
// Prose is read as words (see parse()). Throws QueryError with the 1-based
// column for what only syntax can mean and is wrong: an empty query, a query of
// stop words only, a field with nothing after it, a bad year, NEAR/x, a NEAR/n
// or ADJ/n operand that is neither a word nor a phrase, a wildcard that matches
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
  // (query/positional.h), and the search must pass it to Enquire::get_mset. If
  // `rereadings` is given, appends one line for each part of the query read
  // otherwise than its syntax says, to make sense of prose: a name before a
  // colon that is no field is a word, a quote or '(' left open is closed where
  // the query ends, a ')' that closes nothing is left out, an operator word
  // that cannot be an operator where it stands is a word ("NEAR THE", a
  // trailing AND), and so is every operator word of a query in capitals whose
  // operators make no sense.
  Xapian::Query parse(std::string_view query, std::vector<std::string>* notes = nullptr,
                      PositionChecks* deferred = nullptr, std::vector<std::string>* rereadings = nullptr) const;

  // Whether `query`, read as parse() reads it, is only words: no operator,
  // phrase, field, group, wildcard or '+'/'-'. A word the index sees as several
  // ("text-only") is a phrase, unless the query is a question (kQuestionWords).
  // Such a query means the same as
  // plain text and is ranked as such (Index::search). Appends its rereadings (as
  // parse() would) to `rereadings`. False for a query parse() would refuse.
  bool only_words(std::string_view query, std::vector<std::string>* rereadings = nullptr) const;

  // Natural-language text, with no syntax: every term of `text` combined with
  // the default operator; a word in capitals that is a learned acronym also
  // matches its long forms. Throws QueryError if `text` has no searchable words,
  // or is past max_query_bytes or max_terms. When the text is one acronym and
  // its long forms ("LLM"), every hit needs that group's position check, which
  // moves to `deferred` (if given), as parse() does with a phrase.
  Xapian::Query parse_plain(std::string_view text, std::vector<std::string>* notes = nullptr,
                            PositionChecks* deferred = nullptr) const;

 private:
  const analysis::Analyzer& analyzer_;
  ParserContext context_;
};

}  // namespace abstracts::query

#endif  // ABSTRACTS_QUERY_PARSER_H_
