// The abstracts of each indexed file, through their XF terms (schema::file_term).
// An abstract can be in several files (the same text twice, or a repeated id):
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
FileRelease release_file_documents(Xapian::WritableDatabase& db, const std::string& abs,
                                   const std::vector<Xapian::docid>& keep, const compression::Decompressor& stored);

}  // namespace abstracts::indexer

#endif  // ABSTRACTS_INDEXER_FILE_DOCUMENTS_H_
