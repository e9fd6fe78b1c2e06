// Readers for the input formats: the abstracts text format, JSON Lines (BEIR,
// arXiv's metadata snapshot, Semantic Scholar), JSON arrays (CSL-JSON, OpenAlex),
// RIS, BibTeX (indexer/bibtex_reader.h), and XML (PubMed, arXiv's Atom API:
// indexer/xml_reader.h).
#ifndef ABSTRACTS_INDEXER_READER_H_
#define ABSTRACTS_INDEXER_READER_H_

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "abstracts/abstract.h"

namespace abstracts::indexer {

// One abstract as read from a file, before analysis.
struct Record {
  // What the file says of the abstract besides its text, as written there (LaTeX
  // and all): id ("" for the text format: derived later from the text), title
  // ("" unless the input gives one), and the bibliographic fields of Abstract
  // (venue, year, authors, ...), empty or 0 where the file says nothing. Its
  // source, line and text are not used.
  Abstract fields;
  std::string raw_text;  // as in the file: LaTeX and all, CR and BOM stripped
  std::uint32_t line = 0;  // 1-based line in the (decompressed) file
};

enum class Format { kAbstractsText, kJsonLines, kJsonArray, kRis, kBibtex, kPubmedXml, kArxivAtom };

// Streams the records of one file. The format is chosen by content, not by
// extension: gzip data is decompressed first; a file whose first non-blank
// character is '{' is JSON Lines, '[' a JSON array of records (CSL-JSON, arXiv
// records), one with a "TY  - " line among its first 20 lines RIS, one with a
// line "@word{" or "@word(" among them BibTeX, '<' XML (PubMed or Atom, told
// by the root element: open_xml() in xml_reader.h), anything else the text
// format (whose header line never starts with '%' or '@').
//
// Text format: the first line names venue and year ("NeurIPS 2026 Papers" ->
// "NeurIPS", 2026); each non-empty line after it is one abstract.
// JSON Lines: one object a line, blank lines skipped; of each line, its keys
// tell the kind (docs/formats.md):
// - BEIR: "_id" (string or number), "text" and optional "title"; a record with
//   neither text nor title is skipped (counted in skipped());
// - arXiv's metadata snapshot: "id" and "abstract" (which suffice), "title",
//   "authors_parsed" (or "authors"), "categories", "doi", "versions" (the first
//   one's date);
// - Semantic Scholar's corpus: "paperAbstract", "title", "authors", "year",
//   "journalName" or "venue", "doi", "pmid", "entities" (as categories).
// A record of the last two without an abstract is skipped (counted).
// RIS: recognised by a "TY  - " line within the first 20; see RisReader in
// reader.cc and docs/formats.md for the tags read. A record without an abstract
// (AB, N2) is skipped (counted).
// BibTeX and BibLaTeX: see BibtexReader; an entry without an abstract is
// skipped (counted).
//
// Throws InputError (naming the file and line) for an unreadable file, bytes
// that are not UTF-8, a missing header, bad JSON, malformed XML or a line over
// 1 MiB (except in a JSON document or array, read in pieces: a minified OpenAlex
// response).
class Reader {
 public:
  static std::unique_ptr<Reader> open(const std::filesystem::path& file);
  virtual ~Reader() = default;

  // The next record, or nullopt at the end of the file.
  virtual std::optional<Record> next() = 0;

  // Bytes of the file consumed so far, as stored (compressed, for gzip).
  virtual std::uint64_t bytes_read() const = 0;

  // Records left out so far: JSON Lines records with neither text nor title.
  std::size_t skipped() const { return skipped_; }

  Format format() const { return format_; }
  const std::string& venue() const { return venue_; }
  int year() const { return year_; }

 protected:
  Format format_ = Format::kAbstractsText;
  std::string venue_;
  int year_ = 0;
  std::size_t skipped_ = 0;
};

// Reads all records of `file` (for tests and small files).
std::vector<Record> read_all(const std::filesystem::path& file);

}  // namespace abstracts::indexer

#endif  // ABSTRACTS_INDEXER_READER_H_
