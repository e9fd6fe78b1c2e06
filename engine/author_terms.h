// Authors' names as terms: what the indexer writes for an author and what an
// `author:` query looks for, made here so that the two cannot drift apart; and
// when two written forms of a name may be one person (stats --by author).
#ifndef ABSTRACTS_ENGINE_AUTHOR_TERMS_H_
#define ABSTRACTS_ENGINE_AUTHOR_TERMS_H_

#include <string>
#include <string_view>
#include <vector>

#include "abstracts/abstract.h"

namespace abstracts::author_terms {

// The words of a name, folded (case, accents, LaTeX already removed by the
// caller): cut at anything that is not a letter, digit or combining mark, so
// "El-Sayed", "el sayed" and "EL SAYED" are {"el", "sayed"}, "d'Enterria"
// {"d", "enterria"}.
std::vector<std::string> words(std::string_view name);

// A given name's parts, in order: an initial is its one letter and `initial`
// ("J.-P." is j, p; "KR", as Web of Science and PubMed write initials, is k, r);
// a full name is folded ("Jean-Pierre" is jean, pierre).
struct GivenPart {
  std::string text;
  bool initial = false;
};
std::vector<GivenPart> given_parts(std::string_view given);

// The boolean terms an author adds to a document:
//  XA<family>: the whole family name's words ("van gils", "el sayed"), each
//    word of a family name of several but its particles ("gils", "sayed"), and
//    the words run together ("vangils", "elsayed");
//  XN<family>,<first initial> for each of those family forms, and
//    XN<family>,<first given name> when it is written out, or
//    XN<family>,<initial>. when only the initial is known.
// An organisation (a family name and no given name) adds only XA terms.
std::vector<std::string> index_terms(const Author& author);

// The terms of which an abstract must have one to match `author:VALUE`, for
// `typed` as written (LaTeX removed): the value as a family name (or a word of
// one), and, when it has several words, as "Family, Given", as "Given Family"
// split at each word, and as "Family G" (initials last, as PubMed writes them).
// "Paul Romatschke" matches Paul and P. Romatschke; "P. Romatschke" matches
// Paul, Peter and P. Romatschke, never Q. Romatschke.
std::vector<std::string> query_terms(std::string_view typed);

// The key of an author's family name in index terms ("van gils"): also the
// form an `author:` wildcard's prefix is compared in.
std::string family_key(std::string_view family);

// XKA<key>\x1f<family>\x1f<given>: the facet term of an author. The key, the
// family name's last word (not a suffix such as "Jr."), keeps the forms that
// may name one person together in the term list, where a prefix scan finds
// them, whether a source writes "Granier de Cassagnac, R." or "de Cassagnac,
// R. Granier"; the rest is the name as the source writes it.
std::string facet_term(const Author& author);

// The parts of a facet term's value (after its prefix). A value cut short by
// the term length limit keeps what is left.
struct FacetName {
  std::string key;
  Author author;
};
FacetName parse_facet_value(std::string_view value);

// Whether two written forms of one family name's given names may name one
// person: part by part, initials agree with each other and with the names they
// start, and written-out names are equal; a form with more parts is compatible
// with its shorter prefix ("Paul", "P. M." and "Paul Michael" are; "Paul" and
// "Peter", or "P. M." and "P. Q." are not). A form without given names is
// compatible with none.
bool compatible(const std::vector<GivenPart>& a, const std::vector<GivenPart>& b);

}  // namespace abstracts::author_terms

#endif  // ABSTRACTS_ENGINE_AUTHOR_TERMS_H_
