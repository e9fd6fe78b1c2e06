// The abstracts of each indexed file, through their XF terms (schema::file_term).
// An abstract can be in several files (the same text twice, a repeated id, or
// the same paper's identifier):
// its one document then has the XF term of each, and keeps the location (source
// and line) of the one indexed last. It leaves the index only when no file has it
// any more.
#ifndef ABSTRACTS_INDEXER_FILE_DOCUMENTS_H_
#define ABSTRACTS_INDEXER_FILE_DOCUMENTS_H_

#include <cstddef>
#include <set>
#include <string>
#include <vector>

#include <xapian.h>

#include "engine/compression.h"

namespace abstracts::indexer {

// Adds to `doc`, which is about to replace the document with the id term
// `id_term` as the file indexed as `abs` has it, the XF terms of the other files
// that have that abstract too.
void keep_other_files(const Xapian::Database& db, const std::string& id_term, const std::string& abs,
                      Xapian::Document& doc);

// The same paper under another id: for each document with one of `doc`'s
// identifiers (XI terms: DOI, arXiv id, PMID) and an id other than `id_term`,
// adds its XF terms (but `abs`'s) to `doc` and deletes it, so that `doc`, about
// to replace the document of `id_term` as the file `abs` has it, stands for the
// paper alone. (One record with a DOI and an arXiv id, another with that arXiv
// id alone: the one indexed last is kept, as for a shared id.)
void replace_same_paper(Xapian::WritableDatabase& db, const std::string& id_term, const std::string& abs,
                        Xapian::Document& doc);

// The XF terms of `doc`: the files that have it.
std::vector<std::string> file_terms(const Xapian::Document& doc);

// What a file letting go of abstracts did.
struct FileRelease {
  std::size_t removed = 0;  // abstracts deleted: no other file had them
  // Other files that have abstracts whose location was in the released file:
  // indexing them again puts the right location back.
  std::set<std::string> relocate;
};

// The file indexed as `abs` lets go of its abstracts whose docids are not in
// `keep` (sorted): each one no other file has is deleted, and each one another file has
// loses `abs`'s XF term. `stored` reads the stored abstracts' locations.
// `commit_every` > 0 commits `db` after every that many abstracts, which bounds
// the memory of a large release; only for a scratch database (a bulk build's
// shard), since the release is then no longer one transaction.
FileRelease release_file_documents(Xapian::WritableDatabase& db, const std::string& abs,
                                   const std::vector<Xapian::docid>& keep, const compression::Decompressor& stored,
                                   Xapian::doccount commit_every = 0);

}  // namespace abstracts::indexer

#endif  // ABSTRACTS_INDEXER_FILE_DOCUMENTS_H_
