// Counts of abstracts by year, venue, category or author (Index::facet_counts).
#ifndef ABSTRACTS_QUERY_FACETS_H_
#define ABSTRACTS_QUERY_FACETS_H_

#include <cstddef>
#include <vector>

#include <xapian.h>

#include "abstracts/index.h"

namespace abstracts::query {

// The counts of `by` in `db`, ordered and cut to `limit` as Index::facet_counts
// documents. Each count is the term frequency of a facet term (engine/schema.h),
// so a database of several shards sums their counts.
std::vector<FacetCount> count_facet(const Xapian::Database& db, Facet by, std::size_t limit);

}  // namespace abstracts::query

#endif  // ABSTRACTS_QUERY_FACETS_H_
