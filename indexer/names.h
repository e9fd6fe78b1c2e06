// People's names and dates as bibliographic sources write them.
#ifndef ABSTRACTS_INDEXER_NAMES_H_
#define ABSTRACTS_INDEXER_NAMES_H_

#include <string>
#include <string_view>
#include <vector>

#include "abstracts/abstract.h"

namespace abstracts::indexer {

// One name as written: "Last, First" ("Berger, E. L.", "van der Berg, Jan"; a
// comma in braces splits nothing: "{University of California, Berkeley},"), or
// "First von Last" ("E. L. Berger", "Jan van der Berg": the lower-case words
// before the last belong to the family name, as BibTeX reads them); a trailing
// "Jr.", "Sr.", "II", "III" or "IV" stays with the given names. A single word
// is a family name, and so is an organisation's whole name ("ATLAS
// Collaboration", "World Health Organization": a word such as collaboration,
// group, organization, consortium; "on behalf of the" before it is dropped;
// "Collaboration, ALICE" is "ALICE Collaboration").
Author parse_name(std::string_view name);

// Counts one more author of a record in `fields.author_count`, and keeps the
// one `make()` returns in `fields.authors` while they are fewer than
// kMaxAuthors: past the cap a name is counted, not made.
template <class Make>
void add_author(Abstract& fields, const Make& make) {
  ++fields.author_count;
  if (fields.authors.size() < kMaxAuthors) fields.authors.push_back(make());
}

// A list of names: "Knuth, Donald E. and Plass, Michael F." (BibTeX: " and "
// between names), "C. Balázs, E. L. Berger, P. Nadolsky" (commas), or both mixed
// ("A. Smith, B. Jones and C. Wu"). Added to `fields` by add_author(); the
// second form returns them (at most kMaxAuthors).
void parse_name_list(std::string_view names, Abstract& fields);
std::vector<Author> parse_name_list(std::string_view names);

// A BibTeX name list split as BibTeX splits it ("Tame the BeaST", section 11):
// the word "and" (any case) at brace depth 0 between names; then each name is
// "First von Last" (the family name runs from the first word that starts in
// lower case, short of the last word, to the end), "von Last, First" or "von
// Last, Jr, First" (the jr part follows the given names: "John, Jr."). Braces
// keep words whole ("{ATLAS Collaboration}" is one family name), as does an
// organisation's word in a name without commas (see parse_name()), a tie ("~") is
// a space, commas past the second are spaces, empty parts are no parts, and
// "others" (et al.) names nobody. biblatex's extended form ("family=Jong,
// given=P., prefix=de, useprefix=true") is read too. The words are kept as
// written, braces and LaTeX included. Added to `fields` by add_author(), a name
// at a time: a list of millions holds one name at a time in memory. The second
// form returns them (at most kMaxAuthors).
void split_bibtex_names(std::string_view names, Abstract& fields);
std::vector<Author> split_bibtex_names(std::string_view names);

// The month a name starts with, in any case ("Apr", "april", "DEC"): 1-12, or 0.
int month_number(std::string_view name);

// A date: year, month and day (0 where unknown) from "2007-04-02", "2007-04",
// "2007", "2007/04/02/" (RIS), "Mon, 2 Apr 2007 19:18:42 GMT" (RFC 2822, arXiv)
// or "2 Apr 2007". False if no year in 1000-2999 is found.
bool parse_date(std::string_view text, int& year, int& month, int& day);

// Keeps of a date only what is one: a year in 1000-2999, a month in 1-12 with
// that year, a day in 1-31 with that month; the rest becomes 0.
void settle_date(int& year, int& month, int& day);

}  // namespace abstracts::indexer

#endif  // ABSTRACTS_INDEXER_NAMES_H_
