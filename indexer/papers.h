// Papers: every record read of one paper, from one file or several, is one
// document. Records are the same paper when they share an id or an identifier
// (DOI, arXiv id, PMID), directly or through other records: a BibTeX entry with
// a DOI and an arXiv id joins an arXiv listing of that id and a RIS record of
// that DOI. Records of one file with the same id are one paper too, each found
// by its own citation key and identifiers.
//
// A document keeps its records (schema::kRecordsSlot, when it has more than
// one) and is made from them again whenever one comes or goes, so the index
// holds, for a set of files, exactly the documents those files' records make,
// whatever order the files were indexed, changed and removed in. The document
// shows one record, the last in the order of (source path, line): of the file
// whose path sorts last, its last one. Its missing DOI, arXiv id and PMID are
// taken from the others, and it is found by every record's id, identifiers and
// file.
#ifndef ABSTRACTS_INDEXER_PAPERS_H_
#define ABSTRACTS_INDEXER_PAPERS_H_

#include <functional>
#include <string>
#include <vector>

#include <xapian.h>

#include "abstracts/abstract.h"
#include "engine/compression.h"
#include "engine/room.h"

namespace abstracts::indexer {

// One record as the index keeps it: the abstract make_abstract() made of it,
// with its source and line, and whether its title is its text's first sentence.
struct PaperRecord {
  Abstract abstract;
  bool title_in_text = false;
};

// `records` grouped into papers, each group in the order of (source, line) so
// that the record shown is its last.
std::vector<std::vector<PaperRecord>> group_papers(std::vector<PaperRecord> records);

// The terms through which a record is the same paper as another: its id term and
// its identifier terms.
std::vector<std::string> link_terms(const Abstract& abstract);

// The records of `doc`, read with its database's `stored`. Throws CorruptIndex
// when they cannot be read.
std::vector<PaperRecord> paper_records(const Xapian::Document& doc, const compression::Decompressor& stored);

// Writes papers into one database.
class PaperWriter {
 public:
  // The document of one abstract (indexer::make_document with the index's
  // analyzer, compressor and positions setting).
  using MakeDocument = std::function<Xapian::Document(const Abstract&, bool title_in_text)>;

  // `compressor` and `stored` use the database's dictionary. All are borrowed
  // and must outlive the PaperWriter.
  // `pending`, if given, counts what each write adds to the next commit
  // (engine/room.h), and the commits remove_file() makes check for room.
  PaperWriter(Xapian::WritableDatabase& db, MakeDocument make, const compression::Compressor& compressor,
              const compression::Decompressor& stored, room::Pending* pending = nullptr)
      : db_(db), make_(std::move(make)), compressor_(compressor), stored_(stored), pending_(pending) {}

  // The document of one paper's records (a group of group_papers()).
  Xapian::Document document(const std::vector<PaperRecord>& paper) const;

  // Adds `record`, merged with every paper it shares an id or identifier with.
  // With `replace`, a record of the same source and id already there goes
  // (Writer::add: the abstract replaces the one added before). Returns whether
  // the record is the same paper as another record of the index.
  bool add(PaperRecord record, bool replace = false);

  // Takes every record of the file indexed as `abs` out of the index: a paper
  // with no other record leaves it, one with others is made again of them (and
  // may fall apart into several). Returns the ids of the records taken out.
  // `commit_every` > 0 commits after every that many documents, which bounds
  // the memory of a large file's removal; only for a database that is not a
  // transaction's (a copy, a bulk build's part).
  std::vector<std::string> remove_file(const std::string& abs, Xapian::doccount commit_every = 0);

  // Takes the record at `line` of the source `abs` out of the index, as
  // remove_file() does a file's, if it is there: only a Zotero item's (a record
  // with a zotero_key), which carries its schema::record_term(). Returns its id,
  // or "" if there was none.
  std::string remove_record(const std::string& abs, std::uint32_t line);

 private:
  // db_'s add_document and delete_document, counted in pending_.
  void put(const Xapian::Document& doc);
  void drop(Xapian::docid doc);

  Xapian::WritableDatabase& db_;
  MakeDocument make_;
  const compression::Compressor& compressor_;
  const compression::Decompressor& stored_;
  room::Pending* pending_;
};

}  // namespace abstracts::indexer

#endif  // ABSTRACTS_INDEXER_PAPERS_H_
