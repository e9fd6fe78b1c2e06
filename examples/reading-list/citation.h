// Citations of abstracts for reference managers: BibTeX, RIS and CSL-JSON, with
// the authors, title, date, venue and identifiers the index keeps.
#ifndef READING_LIST_CITATION_H_
#define READING_LIST_CITATION_H_

#include <string>
#include <string_view>

#include "abstracts/abstracts.h"

namespace reading_list {

// What an abstract is, as far as its metadata tells: the entry type of each format.
enum class Kind {
  kArticle,     // a DOI or PMID and a venue: a journal article
  kPreprint,    // an arXiv id and the venue "arXiv"
  kConference,  // another venue (the bundled corpus: "NeurIPS")
  kOther,       // no venue
};
Kind kind_of(const abstracts::Abstract& abstract);

// The key a citation has: the source's citation key when the abstract came from
// a .bib or Better CSL JSON, else its id.
std::string citation_key(const abstracts::Abstract& abstract);

// `text` made safe inside a braced BibTeX field: the LaTeX specials
// % & $ # _ get a backslash, and { } \ ~ ^ become \textbraceleft{} and the
// like, so that every brace in the result is balanced (BibTeX counts braces
// without looking at backslashes). Other characters, UTF-8 included, stay.
std::string bibtex_escape(std::string_view text);

// One BibTeX entry, ending in a blank line: @article (journal), @misc with
// eprint and archivePrefix (arXiv), @inproceedings (booktitle = "venue year"),
// or @misc; author as "Family, Given and ...", doi, keywords. `location`
// ("source:line") goes in `note`.
std::string bibtex_entry(const abstracts::Abstract& abstract, std::string_view location);

// One RIS record ("TY  - JOUR" ... "ER  - "), its lines ending in "\r\n" as the
// RIS specification asks: AU per author, TI, T2, PY, DA, DO, AB, KW, UR, ID, N1.
std::string ris_record(const abstracts::Abstract& abstract, std::string_view location);

// One CSL-JSON item (an object on one line, without a trailing comma): id, type, title,
// author, issued, container-title, DOI, PMID, URL, abstract, keyword, note.
std::string csl_json_item(const abstracts::Abstract& abstract, std::string_view location);

}  // namespace reading_list

#endif  // READING_LIST_CITATION_H_
