// The BibTeX and BibLaTeX reader: entries cut out of the file one at a time,
// and parsed as BibTeX reads them.
#ifndef ABSTRACTS_INDEXER_BIBTEX_READER_H_
#define ABSTRACTS_INDEXER_BIBTEX_READER_H_

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "indexer/line_source.h"
#include "indexer/reader.h"

namespace abstracts::indexer {

// Reads the entries of a .bib file (Zotero, Better BibTeX, JabRef, Web of
// Science, ...): @string macros (and jan..dec), "#" concatenation, braced and
// quoted values, @comment and @preamble (skipped), text and '%' lines between
// entries (skipped), an empty key ("@article{ ,", Web of Science). An entry
// starts at an '@' that begins a line (after spaces) or follows the entry
// before it, and ends where its braces (or parentheses) close; lines may be of
// any length. Field names are case-insensitive.
//
// A record is an entry with a non-empty "abstract": title, author (split as
// BibTeX does), "date" (BibLaTeX) else "year" and "month", "journaltitle" else
// "journal" else "booktitle", "keywords" (split on ',' and ';'), "doi", "eprint"
// when "eprinttype" or "archiveprefix" says arXiv, "pmid", and the key as
// citation key, all as written (LaTeX and all). Other entries are skipped
// (counted).
//
// Macros are expanded as the entry is read, before it is parsed; a macro is the
// file's own. Memory holds one entry: one over kMaxRecordBytes, its macros
// expanded, is left out (rejected(), with a problem) and read past. A file's
// macros take at most 64 MiB, defined and expanded: the entry that would pass
// that, and every entry after it, are left out (one problem said). So is the
// rest of the file after a @string entry over kMaxRecordBytes, whose macros
// would be missing. A reader holds no state but its own: readers in several
// threads are safe.
//
// A malformed entry is left out (rejected(), with a problem naming the line of
// what is wrong, "syntax error: found ..., expected ...") and the file read on,
// as BibTeX and biber do: after an entry that breaks the grammar between its
// balanced braces, at the next entry; after a character no entry may hold there
// (a '}' in a quoted value that closes no '{', a "'" outside a value), at the
// next line that opens an entry, "@word{" or "@word(" after spaces. An entry
// still open at such a line (a '{' or '"' left open) ends before it, left out,
// unless it is a @comment, which may hold entries; one still open at the end of
// the file is left out too. A @string entry left out defines no macro.
class BibtexReader : public Reader {
 public:
  explicit BibtexReader(std::unique_ptr<LineSource> src);
  ~BibtexReader() override;

  // True if one of `head` (a file's first lines) starts, after spaces, with
  // "@word{" or "@word(".
  static bool starts(const std::vector<Line>& head);

  std::uint64_t bytes_read() const override { return src_->offset(); }

 protected:
  std::optional<Record> read_next() override;

 private:
  struct Entry;

  // Cuts the next entry out of the file, its macros expanded; false at its end.
  bool next_entry(Entry& entry);
  // Reads the next line, or piece of a long one, into line_; false at the end.
  bool read_line();
  // The next character of an entry, lines joined by '\n'; false at the end.
  bool get(char& c);

  std::unique_ptr<LineSource> src_;
  std::string line_;           // the line (or piece of a long one) being read
  std::size_t pos_ = 0;        // of line_'s next character
  bool may_start_ = false;     // an '@' at pos_ (after blanks) starts an entry
  bool fresh_line_ = false;    // line_ is a line's start, not a piece that continues one
  bool resync_ = false;        // skip to the next line that opens an entry
  bool newline_given_ = true;  // get() gave the '\n' after line_
  std::map<std::string, std::string>
      macros_;  // this file's @string macros (and jan..dec), by lower-case name
  std::size_t macro_bytes_ = 0;  // the macros' text, defined and expanded (kMaxMacroBytes)
  bool rest_skipped_ = false;    // the rest of the file is left out
};

}  // namespace abstracts::indexer

#endif  // ABSTRACTS_INDEXER_BIBTEX_READER_H_
