// Citations of abstracts for reference managers: BibTeX, BibLaTeX, RIS and
// CSL-JSON, with what the index keeps of each paper (docs/library.md, Export).
//
// Every value is written so that it cannot end its field, entry or record
// early, whatever the source put in it: a BibTeX value's braces are balanced
// and no backslash in it starts a command, a RIS value is one line, CSL-JSON is
// written by a JSON writer, and a citation key is made of safe characters.
#ifndef ABSTRACTS_EXPORT_H_
#define ABSTRACTS_EXPORT_H_

#include <cstddef>
#include <filesystem>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>

#include "abstracts/abstract.h"

namespace abstracts {

enum class CitationFormat { kBibtex, kBiblatex, kRis, kCslJson };

// "bibtex", "biblatex", "ris" or "csl-json" as a format; nullopt for another name.
std::optional<CitationFormat> citation_format(std::string_view name);

// What kind of work an abstract is, from the source's own type
// (Abstract::item_type: RIS TY, CSL type, BibTeX entry type, Zotero item type,
// PubMed publication type) and, without one, from its identifiers and venue.
enum class WorkKind {
  kArticle,     // in a journal: @article, JOUR, article-journal
  kConference,  // in proceedings: @inproceedings, CONF, paper-conference
  kBook,        // @book, BOOK, book
  kChapter,     // in a book: @incollection, CHAP, chapter
  kThesis,      // @phdthesis (BibLaTeX @thesis), THES, thesis
  kReport,      // @techreport (BibLaTeX @report), RPRT, report
  kPreprint,    // arXiv and other servers: @misc with eprint, UNPB, article
  kOther,       // @misc, GEN, document
};
WorkKind work_kind(const Abstract& abstract);

// Whether `key` is safe as a citation key in every format: 1 to 200 characters
// from A-Z a-z 0-9 _ : . - (so nothing in it can end a BibTeX key or a line).
bool is_safe_citation_key(std::string_view key);

// `text` as the value of a braced BibTeX field that BibTeX, LaTeX and
// `abstracts index` read as `text`: % & $ # _ get a backslash; braces that pair
// up get one each (BibTeX still counts them); a brace without a partner gets a
// partner only BibTeX sees; a backslash becomes \textbackslash{}, so no command
// in `text` is run; "--" becomes -{}-; control characters become spaces.
std::string bibtex_escape(std::string_view text);

struct ExportOptions {
  // An abstract read from a file under this directory gets the file's path
  // relative to it, and its line ("papers/refs.bib:12"), as a note; one read
  // from elsewhere gets none. Empty: no abstract gets a note. An absolute path
  // is never written.
  std::filesystem::path relative_to;
};

// Writes abstracts to `out` as citations in one format, in the order given.
// Each gets a citation key unique within the export: the source's citation key
// when it is safe (is_safe_citation_key), else the abstract's id with each run
// of other characters replaced by '_' ("10.9/real" -> "10.9_real"); a key given
// already gets "-2", "-3", ... BibTeX entries and RIS records end in a blank
// line; CSL-JSON is one array, an item a line, closed by finish(). `out` must
// outlive the writer. Not thread-safe. Writes nothing else; errors of `out` are
// the caller's to check.
class CitationWriter {
 public:
  CitationWriter(std::ostream& out, CitationFormat format, ExportOptions options = {});
  ~CitationWriter();
  CitationWriter(const CitationWriter&) = delete;
  CitationWriter& operator=(const CitationWriter&) = delete;

  // Writes one citation and returns its key.
  std::string write(const Abstract& abstract);
  // Ends the export (CSL-JSON's closing bracket; an empty array without
  // citations). Call once, after the last write().
  void finish();
  std::size_t written() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace abstracts

#endif  // ABSTRACTS_EXPORT_H_
