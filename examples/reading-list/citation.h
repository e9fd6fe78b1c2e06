// Citations of abstracts for reference managers: BibTeX, RIS and CSL-JSON, with
// the authors, title, date, venue and identifiers the index keeps.
//
// Every value is written so that it cannot end its field, entry or record
// early, whatever the source put in it: a BibTeX value's braces are balanced
// and no backslash in it starts a command, a RIS value is one line, and
// CSL-JSON is written by a JSON writer. `abstracts index` reads each export
// back as the abstracts exported (tests/examples/reading_list_test.cc).
#ifndef READING_LIST_CITATION_H_
#define READING_LIST_CITATION_H_

#include <string>
#include <string_view>
#include <unordered_set>

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

// Whether `key` is safe as a citation key in every format: 1 to 200 characters
// from A-Z a-z 0-9 _ : . - (so nothing in it can end a BibTeX key or a line).
bool is_safe_key(std::string_view key);

// The citation keys (BibTeX key, RIS ID, CSL-JSON id) of one export. An
// abstract's key is the source's citation key when that is safe, else its id
// with each run of other characters replaced by '_' ("10.9/real" ->
// "10.9_real"); a key already given in the export gets "-2", "-3", ... so that
// no two citations share one. Not thread-safe.
class CitationKeys {
 public:
  std::string key_for(const abstracts::Abstract& abstract);

 private:
  std::unordered_set<std::string> given_;
};

// `text` as the value of a braced BibTeX field that BibTeX reads as `text`,
// and `abstracts index` (LaTeX cleaning included) too. % & $ # _ get a
// backslash; a brace that pairs with another in `text` gets one too
// (\{ ... \}), which BibTeX still counts, so the pair keeps the value
// balanced; a brace without a partner gets a hidden partner that only BibTeX
// counts (see kLoneOpenBrace in citation.cc); a backslash becomes
// \textbackslash{}, so no command in `text` is run; "--" becomes -{}- (not an
// en dash); control characters become spaces. ~ and ^ stay as they are, as
// BibTeX and abstracts read them (LaTeX takes them for a tie and a superscript).
std::string bibtex_escape(std::string_view text);

// One BibTeX entry with the key `key` (which must be safe), ending in a blank
// line: @article (journal), @misc with eprint and archivePrefix (arXiv),
// @inproceedings (booktitle = "venue year"), or @misc, each with eprint and
// archivePrefix when it has an arXiv id; author as "Family, Given and ...",
// doi, keywords. `location` ("source:line") goes in `note`.
std::string bibtex_entry(const abstracts::Abstract& abstract, std::string_view key,
                         std::string_view location);

// One RIS record ("TY  - JOUR" ... "ER  - ") with ID `key`, its lines ending in
// "\r\n" as the RIS specification asks: AU per author, TI, T2, PY, DA, DO, AB,
// KW, UR, ID, N1. A line separator in a value (CR, LF, VT, FF, NEL, U+2028,
// U+2029) or another control character becomes a space. In names, title,
// venue, abstract and keywords, what abstracts' reader would take for LaTeX
// is escaped: \{ \} \$, and -{}- for "--".
std::string ris_record(const abstracts::Abstract& abstract, std::string_view key,
                       std::string_view location);

// One CSL-JSON item (an object on one line, without a trailing comma): id and
// citation-key (both `key`), type, title, author, issued, container-title, DOI,
// PMID, URL, abstract, keyword, note. Text is escaped for LaTeX as in RIS, and
// the title and abstract, CSL's rich text, for HTML: &lt; for a '<' that could
// start a tag, &amp; for an '&' that could start an entity.
std::string csl_json_item(const abstracts::Abstract& abstract, std::string_view key,
                          std::string_view location);

}  // namespace reading_list

#endif  // READING_LIST_CITATION_H_
