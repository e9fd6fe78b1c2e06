// Abstracts like the given ones (Index::similar): Xapian's relevance set and
// expand set over them, boilerplate words kept out, as one weighted query.
#ifndef ABSTRACTS_QUERY_SIMILAR_H_
#define ABSTRACTS_QUERY_SIMILAR_H_

#include <string>
#include <vector>

#include <xapian.h>

#include "abstracts/search.h"
#include "engine/compression.h"

namespace abstracts::query {

// The abstracts most like those with the given `ids` (unknown ids are ignored;
// no hits if none is known), the given ones left out, ranked and paged as
// `options` say; their stored abstracts are read with `stored`. `cluster`:
// `db` is a cluster's shards, `remote` some of them remote (as DatabasePool
// says). Linear in the ids.
SearchResults similar(Xapian::Database& db, const compression::Decompressor& stored,
                      const std::vector<std::string>& ids, const SearchOptions& options, bool cluster,
                      bool remote);

}  // namespace abstracts::query

#endif  // ABSTRACTS_QUERY_SIMILAR_H_
