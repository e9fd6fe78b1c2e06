// One abstract, as stored in and returned by the index.
#ifndef ABSTRACTS_ABSTRACT_H_
#define ABSTRACTS_ABSTRACT_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace abstracts {

// One author, as the source names them.
struct Author {
  std::string family;  // surname ("Balázs"); the whole name when the source does not split it
  std::string given;   // given names or initials ("C."), "" if none
};

// The most authors an abstract keeps (Abstract::authors): a record may name
// millions (a collaboration's author list pasted whole), and every search that
// shows it would carry them. Abstract::author_count still counts them all.
inline constexpr std::size_t kMaxAuthors = 10000;

struct Abstract {
  // Stable short id. For the bundled text format it is derived from the text
  // (see content_id()); for JSON Lines input it is the record's "_id".
  std::string id;
  // Absolute path of the file the abstract was read from ("" if added directly).
  std::string source;
  // 1-based line of the abstract in `source` (0 if added directly).
  std::uint32_t line = 0;
  // Venue (conference or journal) and year: from the record, or else from the
  // file's header line ("NeurIPS", 2026); "" and 0 if unknown.
  std::string venue;
  int year = 0;
  // Display title: the source's, or else the first sentence of the text; LaTeX
  // removed.
  std::string title;
  // Display text: LaTeX commands removed, accents kept, white space collapsed.
  std::string text;

  // What a bibliographic source says besides; empty or 0 when it does not.
  std::vector<Author> authors;  // in the source's order
  // How many authors the source names; `authors` keeps the first kMaxAuthors of them.
  std::size_t author_count = 0;
  int month = 0;                        // 1-12, with `year`
  int day = 0;                          // 1-31, with `month`
  std::vector<std::string> categories;  // arXiv categories ("cs.CL"), keywords
  std::string doi;                      // "10.1103/physrevd.76.013009", lower case
  std::string arxiv_id;                 // "0704.0001", "hep-th/9901001", no version
  std::string pmid;                     // PubMed id, "17284678"
  std::string citation_key;             // BibTeX key, "balazs2007"
  std::vector<Author> editors;          // a book's or proceedings' editors (Zotero)
  std::string item_type;  // the source's type: "journalArticle" (Zotero), "JOUR" (RIS), ...
  // Zotero: the item's tags, and the collections it is in as paths from the
  // library's top ("Thesis/Chapter 2").
  std::vector<std::string> tags;
  std::vector<std::string> collections;
  // Zotero: the item's key ("ABCD2345") and its group's id (0: the user's own
  // library), which make its link (zotero_link()).
  std::string zotero_key;
  std::int64_t zotero_group = 0;
  // Where the paper was published, as the source writes it, for citing it.
  std::string volume;     // "103"
  std::string issue;      // "24"
  std::string pages;      // "10511-10520", or an article number
  std::string publisher;  // "Elsevier"
  std::string url;        // the paper's page as the source gives it
  std::string issn;       // "0048-9697"
  std::string isbn;       // "978-0-262-03384-8", as written
  std::string pmcid;      // PubMed Central id, "PMC1234567"
};

// The link that opens the abstract's Zotero item in Zotero
// ("zotero://select/library/items/ABCD2345", for a group
// "zotero://select/groups/123/items/ABCD2345"); "" if it is no Zotero item.
std::string zotero_link(const Abstract& abstract);

// "C. Balázs": given names, then the family name.
std::string display_name(const Author& author);

// The abstract's date as ISO 8601 to the precision known: "2007", "2007-04",
// "2007-04-02"; "" without a year.
std::string iso_date(const Abstract& abstract);

// The id abstracts derives from an abstract's text: the first 60 bits of
// XXH3-64 over the NFC-normalised, white-space-collapsed raw text, written as
// 12 characters of Crockford base32 (0-9, a-z without i, l, o, u). The same
// text gives the same id on every machine and every run.
std::string content_id(std::string_view raw_text);

// The display text of a raw abstract: LaTeX accent macros become accented
// letters, text and font commands keep their argument, math delimiters go,
// escaped characters unescape, white space collapses. "Pok\'emon" -> "Pokémon".
std::string display_text(std::string_view raw_text);

// The display title of a display text: its first sentence, cut on a word
// boundary to at most `max_chars` characters (with "…" when cut).
std::string derive_title(std::string_view display, std::size_t max_chars = 100);

}  // namespace abstracts

#endif  // ABSTRACTS_ABSTRACT_H_
