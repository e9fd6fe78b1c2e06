// Counts of abstracts by year, venue, category or author (Index::facet_counts).
#ifndef ABSTRACTS_QUERY_FACETS_H_
#define ABSTRACTS_QUERY_FACETS_H_

#include <cstddef>
#include <vector>

#include <xapian.h>

#include "abstracts/index.h"
#include "query/deadline.h"
#include "query/positional.h"

namespace abstracts::query {

// The counts of `by` in `db`, ordered and cut to `limit` as Index::facet_counts
// documents. Each count is the term frequency of a facet term (engine/schema.h),
// so a database of several shards sums their counts.
std::vector<FacetCount> count_facet(const Xapian::Database& db, Facet by, std::size_t limit);

// The counts of `by` over the matches of `enquire`'s query (every match: the
// position checks of `checks`, if any, made on each), ordered and cut alike.
// Reads each match's facet terms: its cost grows with the matches.
// Throws QueryError past `deadline`.
std::vector<FacetCount> count_facet_of_matches(const Xapian::Database& db, Xapian::Enquire& enquire,
                                               PositionChecks* checks, Facet by, std::size_t limit,
                                               const Deadline& deadline);

}  // namespace abstracts::query

#endif  // ABSTRACTS_QUERY_FACETS_H_
