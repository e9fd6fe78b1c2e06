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
// before it, and ends where its braces (or parentheses) close; memory holds one
// entry (at most 16 MiB). Field names are case-insensitive.
//
// A record is an entry with a non-empty "abstract": title, author (split as
// BibTeX does), "date" (BibLaTeX) else "year" and "month", "journaltitle" else
// "journal" else "booktitle", "keywords" (split on ',' and ';'), "doi", "eprint"
// when "eprinttype" or "archiveprefix" says arXiv, "pmid", and the key as
// citation key, all as written (LaTeX and all). Other entries are skipped
// (counted).
//
// Macros are expanded where they stand, before the entry is parsed; a macro is
// the file's own. A reader holds no state but its own: readers in several
// threads are safe. Throws InputError naming the file and line for an entry
// that breaks BibTeX's grammar ("syntax error: found ..., expected ..."), or one
// that never ends.
class BibtexReader : public Reader {
 public:
  explicit BibtexReader(std::unique_ptr<LineSource> src);
  ~BibtexReader() override;

  // True if one of `head` (a file's first lines) starts, after spaces, with
  // "@word{" or "@word(".
  static bool starts(const std::vector<Line>& head);

  std::optional<Record> next() override;
  std::uint64_t bytes_read() const override { return src_->offset(); }

 private:
  struct Entry;

  // Cuts the next entry out of the file; false at its end.
  bool next_entry(Entry& entry);

  std::unique_ptr<LineSource> src_;
  std::string rest_;  // what follows, on its line, the entry read last
  std::uint32_t rest_line_ = 0;
  std::map<std::string, std::string>
      macros_;  // this file's @string macros (and jan..dec), by lower-case name
};

}  // namespace abstracts::indexer

#endif  // ABSTRACTS_INDEXER_BIBTEX_READER_H_
