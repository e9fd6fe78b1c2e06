// A ranking's hits as the API returns them: each with its stored abstract, its
// snippet and, for --explain, what each term added to its score.
#ifndef ABSTRACTS_QUERY_HITS_H_
#define ABSTRACTS_QUERY_HITS_H_

#include <xapian.h>

#include "abstracts/search.h"
#include "engine/compression.h"
#include "query/ranking.h"

namespace abstracts::query {

class HitReads;

// Adds the hits of `ranking` to `results`, with the number of matches its MSet
// estimates: each with its stored abstract (read with `stored`), a snippet
// highlighting the words of `query` (which was `asked` before rank(); not the
// words feedback added) and, if options.explain, its explanation. A hit whose
// document the search read already is taken from `reads` if given.
void fill_hits(Xapian::Database& db, const compression::Decompressor& stored, const Xapian::Query& query,
               const Xapian::Query& asked, const FeedbackWeights& feedback, const Ranking& ranking,
               const SearchOptions& options, SearchResults& results, HitReads* reads = nullptr);

}  // namespace abstracts::query

#endif  // ABSTRACTS_QUERY_HITS_H_
