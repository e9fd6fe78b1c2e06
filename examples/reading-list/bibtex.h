// BibTeX entries for abstracts.
#ifndef READING_LIST_BIBTEX_H_
#define READING_LIST_BIBTEX_H_

#include <string>
#include <string_view>

#include "abstracts/abstracts.h"

namespace reading_list {

// `text` made safe inside a braced BibTeX field: the LaTeX specials
// % & $ # _ get a backslash, and { } \ ~ ^ become \textbraceleft{} and the
// like, so that every brace in the result is balanced (BibTeX counts braces
// without looking at backslashes). Other characters, UTF-8 included, stay.
std::string bibtex_escape(std::string_view text);

// One entry, ending in a blank line: @inproceedings when the venue is known
// (booktitle = "venue year"), else @misc. The key is the id, which must be a
// valid list id (reading_list.h); `location` ("source:line") goes in `note`.
std::string bibtex_entry(const abstracts::Abstract& abstract, std::string_view location);

}  // namespace reading_list

#endif  // READING_LIST_BIBTEX_H_
