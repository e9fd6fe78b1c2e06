// Explanations (--explain): what each term of a query added to a hit's score.
#ifndef ABSTRACTS_QUERY_EXPLAIN_H_
#define ABSTRACTS_QUERY_EXPLAIN_H_

#include <string>
#include <unordered_set>
#include <vector>

#include <xapian.h>

#include "abstracts/search.h"
#include "query/ranking.h"

namespace abstracts::query {

// Each query term's BM25 weight in the document with this id, on its own. A
// title term counts once if the user asked for it (title:) and title_weight
// times if rank() boosted the title words (`asked_terms` are the terms of the
// query before rank()); a feedback word counts its feedback weight, plus once if
// the user asked for it.
std::vector<TermWeight> explain_hit(Xapian::Database& db, const Xapian::Query& query,
                                    const std::unordered_set<std::string>& asked_terms, const std::string& id,
                                    const RankingOptions& ranking, const FeedbackWeights& feedback);

}  // namespace abstracts::query

#endif  // ABSTRACTS_QUERY_EXPLAIN_H_
