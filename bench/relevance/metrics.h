// Ranking-quality measures, as trec_eval defines them (ndcg_cut.10, recall.100,
// map), over at most the top kDepth hits of each query.
#ifndef ABSTRACTS_BENCH_RELEVANCE_METRICS_H_
#define ABSTRACTS_BENCH_RELEVANCE_METRICS_H_

#include <cstddef>
#include <iosfwd>
#include <map>
#include <string>
#include <vector>

#include "bench/relevance/collection.h"

namespace abstracts::eval {

// trec_eval's default cut: hits below this rank are not looked at.
inline constexpr std::size_t kDepth = 1000;

// The corpus ids a system returned for one query, best first.
using Ranking = std::vector<std::string>;

// Query id -> ranking. A query missing from a run counts as an empty ranking.
using Rankings = std::map<std::string, Ranking>;

// Number of judged documents with grade > 0.
std::size_t relevant_count(const Judgments& judgments);

// nDCG@k with graded gains: DCG = sum over ranks r <= k of grade / log2(r + 1);
// the ideal DCG ranks all judged relevant documents by grade. 0 if none is
// relevant.
double ndcg_at(const Ranking& ranking, const Judgments& judgments, std::size_t k);

// Relevant documents in the top k / relevant documents judged. 0 if none is relevant.
double recall_at(const Ranking& ranking, const Judgments& judgments, std::size_t k);

// Average precision: the sum of precision@r over the ranks r (<= kDepth) that hold
// a relevant document, divided by the number of relevant documents judged (so
// relevant documents never retrieved count as precision 0). 0 if none is relevant.
double average_precision(const Ranking& ranking, const Judgments& judgments);

struct Scores {
  double ndcg_at_10 = 0;
  double recall_at_100 = 0;
  double map = 0;           // mean average precision
  std::size_t queries = 0;  // queries averaged over
};

// Means over the queries of `qrels` with at least one relevant document that are
// also in `queries` (the queries that were run); others are skipped.
Scores evaluate(const Rankings& run, const Qrels& qrels, const std::vector<Query>& queries);

// Writes `run` in trec_eval's run format, one line per hit: "qid Q0 docid rank
// score tag", ranks from 1. A ranking holds no scores, so the score is kDepth + 1 -
// rank, which orders the hits as ranked (trec_eval sorts by score).
void write_trec_run(std::ostream& out, const Rankings& run, const std::string& tag);

}  // namespace abstracts::eval

#endif  // ABSTRACTS_BENCH_RELEVANCE_METRICS_H_
