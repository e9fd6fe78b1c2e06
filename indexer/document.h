// Records -> abstracts -> Xapian documents, following engine/schema.h.
#ifndef ABSTRACTS_INDEXER_DOCUMENT_H_
#define ABSTRACTS_INDEXER_DOCUMENT_H_

#include <string>

#include <xapian.h>

#include "abstracts/abstract.h"
#include "abstracts/writer.h"
#include "engine/analysis/analyzer.h"
#include "engine/compression.h"
#include "indexer/reader.h"

namespace abstracts::indexer {

// The abstract a record describes: display text from the raw text (and display
// names, venue and categories from the record's); identifiers normalised
// (schema::normalise_identifier); the id from the record, or else its DOI,
// arXiv id, PMID or citation key, in that order, or else from the text
// (content_id); the title from the record or else derived from the text; venue
// and date from the record or else `venue` and `year` (the file's header).
Abstract make_abstract(const Record& record, const std::string& source, const std::string& venue,
                       int year);

// The id make_abstract() gives the record's abstract, without the rest of its
// work: what decides a shard (engine/cluster.h) before anything is analysed.
std::string abstract_id(const Record& record);

// True if the record's abstract belongs in an index of `shard`: always for a
// whole corpus ({0, 0}), else if its id hashes to that shard.
bool in_shard(const Record& record, const Shard& shard);

// The Xapian document of an abstract. `title_in_text` says whether the title is
// part of the text already (derived titles are); if not, its words are indexed
// as body words too, ahead of the text. The stored abstract is compressed with
// `compressor`. With `xapian_positions` the body terms' positions also go into
// Xapian's position table, which a shard needs: there Xapian's OP_PHRASE and
// OP_NEAR run inside xapian-tcpsrv (query/positional.h).
Xapian::Document make_document(const Abstract& abstract, bool title_in_text, const analysis::Analyzer& analyzer,
                               const compression::Compressor& compressor, bool xapian_positions = false);

// Throws InputError (no file, line 0, with a hint) for an abstract Writer::add
// refuses, as the readers refuse or skip such a record in a file: its text
// fields over kMaxRecordBytes together (a file's record cap), a date that is
// none (a year not 0 and not in 1000-2999, as the readers keep a year; a month
// not in 1-12, or without a year; a day not in 1-31, or without a month; 0 is
// unknown), or a text that shows nothing (empty, white space, LaTeX that
// cleans to nothing). A text under the cap but over 1 MiB passes: make_abstract
// keeps it cut, as it does a file's.
void check_addable(const Abstract& abstract);

}  // namespace abstracts::indexer

#endif  // ABSTRACTS_INDEXER_DOCUMENT_H_
