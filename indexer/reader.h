// Readers for the input formats: the abstracts text format, JSON Lines (BEIR,
// arXiv's metadata snapshot, Semantic Scholar), JSON arrays (CSL-JSON, OpenAlex),
// RIS, BibTeX (indexer/bibtex_reader.h), and XML (PubMed, arXiv's Atom API:
// indexer/xml_reader.h).
#ifndef ABSTRACTS_INDEXER_READER_H_
#define ABSTRACTS_INDEXER_READER_H_

#include <cstdint>
#include <exception>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "abstracts/abstract.h"
#include "abstracts/error.h"

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

enum class Format { kAbstractsText, kJsonLines, kJsonArray, kRis, kBibtex, kPubmedXml, kArxivAtom, kZotero };

// A record left out for a problem of its own, the rest of the file read on: a
// record over its format's size cap, or one that is malformed. `what` says
// which ("a RIS record over 16 MiB", "syntax error: found ..."); `line` is the
// record's first, or the line of what is wrong in it; `hint` says what to do
// about it, for the error it makes where a file may not lose a record
// (Reader::set_strict).
struct RecordProblem {
  std::uint32_t line = 0;
  std::string what;
  std::string hint;
};

// The most categories (keywords, MeSH terms, arXiv categories) a record keeps:
// the first. A record may hold millions within its cap; each is a term of its
// document, and 1.3 million RIS keywords took 100 MB.
inline constexpr std::size_t kMaxCategories = 1000;

// The cap on one record of RIS, BibTeX or XML, or one element of a JSON array;
// a record of the text format or JSON Lines is a line, at most kMaxLineBytes
// (line_source.h). Memory holds about one record, never more.
inline constexpr std::size_t kMaxRecordBytes = 16 << 20;

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
// A record over its cap (kMaxRecordBytes; for the text format and JSON Lines, a
// line over 1 MiB) is left out and the file read on: counted in rejected(),
// said in take_problems(). Reading past it holds no more than the cap. A BibTeX
// file's macros are bounded too (BibtexReader). So is a malformed record: a
// line of JSON Lines or an element of a JSON array that is not valid JSON or
// not an object of a known kind, a RIS record without its TY line, a BibTeX
// entry that breaks the grammar (BibtexReader), an XML record that is not
// well-formed (open_xml()); each reader reads on at the next record it can
// tell. Every record keeps at most kMaxAuthors authors, and counts all it names
// in Abstract::author_count.
//
// Throws UnknownFormat for a file of no format it reads (a PDF or other binary
// file, told by its first bytes before it is read as text), InputError (naming
// the file and line) for an unreadable file, bytes that are not UTF-8, a
// missing header, a first line over 1 MiB that is neither JSON nor XML, and a
// file of which records were left out and not one read (next()).
class Reader {
 public:
  static std::unique_ptr<Reader> open(const std::filesystem::path& file);
  virtual ~Reader() = default;

  // The next record, or nullopt at the end of the file. Throws InputError,
  // naming the file and the line of the first record left out (as its
  // RecordProblem says it, with its hint): at the end of a file of which
  // records were left out and none read (handed out, or skipped()), and, once
  // set_strict(), as soon as a record is left out.
  std::optional<Record> next();

  // With `strict` true, a record left out fails the file (next()), as a
  // malformed record did before readers read on: for a caller that would
  // rather index a file whole or not at all.
  void set_strict(bool strict) { strict_ = strict; }

  // Bytes of the file consumed so far, as stored (compressed, for gzip).
  virtual std::uint64_t bytes_read() const = 0;

  // Records left out so far for having nothing to index: no abstract (for
  // BEIR, neither text nor title).
  std::size_t skipped() const { return skipped_; }

  // Records left out so far for a problem of their own (over a cap, malformed).
  std::size_t rejected() const { return rejected_; }
  // The problems since the last call, in file order, for the caller to report
  // (the Writer warns of each). One may stand for several records: a BibTeX
  // file's remaining entries.
  std::vector<RecordProblem> take_problems() { return std::exchange(problems_, {}); }

  Format format() const { return format_; }
  const std::string& venue() const { return venue_; }
  int year() const { return year_; }

 protected:
  // The next record of the file, or nullopt at its end (next() checks what
  // was left out on the way).
  virtual std::optional<Record> read_next() = 0;

  Format format_ = Format::kAbstractsText;
  std::string venue_;
  int year_ = 0;
  std::size_t skipped_ = 0;

  // Leaves out a record, for the reason `what`, said at `line` (the record's
  // first, or the line of what is wrong in it); `hint` as in RecordProblem.
  void reject(std::uint32_t line, std::string what, std::string hint = {});
  // Leaves out records for a problem said already (the rest of a file).
  void reject_more(std::size_t records) { rejected_ += records; }

 private:
  // The error of a file that may not lose the records it lost: its first
  // problem, "FILE:LINE: WHAT".
  InputError refusal() const;

  std::string file_;  // as open() was given it
  std::size_t rejected_ = 0, read_ = 0;
  std::vector<RecordProblem> problems_;
  std::optional<RecordProblem> first_problem_;
  bool strict_ = false;
};

// A file that holds no format abstracts reads: a PDF, another binary file, text
// of no known format. kind() says what it seems to be, from its first bytes or
// its name ("PDF", "Markdown", "image", "other"): a folder's walk leaves such
// files out and counts them by kind.
class UnknownFormat : public InputError {
 public:
  UnknownFormat(const std::string& message, std::string file, std::size_t line, std::string hint, std::string kind)
      : InputError(message, std::move(file), line, std::move(hint)), kind_(std::move(kind)) {}
  const std::string& kind() const noexcept { return kind_; }

 private:
  std::string kind_;
};

// The warning for `problem`, a record of `file` left out: an InputError naming
// the file and the record's line, "FILE:LINE: WHAT; record skipped".
InputError skipped_record(const std::filesystem::path& file, const RecordProblem& problem);

// Passes what `reader` (of `file`) has left out since the last call to `warn`,
// if set, as skipped_record() warnings.
void warn_skipped(Reader& reader, const std::filesystem::path& file,
                  const std::function<void(const std::exception&)>& warn);

// The value of the first "Key: value" line of `text` whose key is `key` (any
// case), up to white space: what Zotero's Extra, and the note an exporter
// writes it into, say besides ("PMCID: PMC5584645"); "" if none.
std::string extra_line(std::string_view text, std::string_view key);

// Reads all records of `file` (for tests and small files).
std::vector<Record> read_all(const std::filesystem::path& file);

}  // namespace abstracts::indexer

#endif  // ABSTRACTS_INDEXER_READER_H_
