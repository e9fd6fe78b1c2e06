// Pseudo-relevance feedback (RM3): a question's best hits suggest more words,
// which rank its matches (and, for plain text, widen them).
#ifndef ABSTRACTS_QUERY_FEEDBACK_H_
#define ABSTRACTS_QUERY_FEEDBACK_H_

#include <cstddef>
#include <string>
#include <vector>

#include <xapian.h>

#include "abstracts/search.h"
#include "query/ranking.h"

namespace abstracts::query {

// `query` with the words of the relevance model of its best hits, `top` (ranked
// by a first pass), mixed in as RankingOptions' feedback settings ask: `words`
// is the number of the query's word terms, whose total weight the added words
// share a part of. Plain text ORs them in (more matches); the query language
// ANDs them in as AND_MAYBE (the same matches, ranked by them too). The added
// words' weights go to `feedback`, and one "feedback: ..." line to `notes`, if
// given. Returns `query` itself when `top` suggests nothing. Keeps to `deadline`
// if given. `remote`: `db` has remote shards, which are asked for the words'
// statistics all at once (one round trip each), not a word at a time. The
// hits' term lists are read through `reads` if given (query/hit_reads.h).
Xapian::Query with_feedback(Xapian::Database& db, const Xapian::Query& query, const std::vector<Ranked>& top,
                            std::size_t words, bool plain, const RankingOptions& r,
                            std::vector<std::string>* notes, FeedbackWeights* feedback,
                            const Deadline* deadline = nullptr, bool remote = false, HitReads* reads = nullptr);

}  // namespace abstracts::query

#endif  // ABSTRACTS_QUERY_FEEDBACK_H_
