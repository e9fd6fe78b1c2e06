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

// One query's measures.
struct QueryScores {
  std::string query_id;
  double ndcg_at_10 = 0;
  double recall_at_100 = 0;
  double average_precision = 0;
};

// The measures of each query of `qrels` with at least one relevant document that
// is also in `queries` (the queries that were run), in `qrels` order; others are
// skipped.
std::vector<QueryScores> score_queries(const Rankings& run, const Qrels& qrels,
                                       const std::vector<Query>& queries);

// A mean over queries and its standard error: the sample standard deviation over
// sqrt(n), 0 for fewer than two values. The mean over all queries like these lies
// within about two standard errors of it, 95 times in 100.
struct Mean {
  double value = 0;
  double standard_error = 0;
};
Mean mean_of(const std::vector<double>& values);

struct Scores {
  Mean ndcg_at_10;
  Mean recall_at_100;
  Mean map;                 // mean average precision
  std::size_t queries = 0;  // queries averaged over
};

// The means of score_queries().
Scores evaluate(const Rankings& run, const Qrels& qrels, const std::vector<Query>& queries);
Scores summarise(const std::vector<QueryScores>& per_query);

// How a ranking `b` differs from a ranking `a` on one measure, query by query
// (a paired comparison): the mean of b - a with its standard error, and the
// queries b scores higher and lower. A difference within about two standard
// errors of 0 is what chance alone gives often.
struct Difference {
  Mean mean;
  std::size_t better = 0;  // queries where b > a
  std::size_t worse = 0;   // queries where b < a
};

struct Comparison {
  Difference ndcg_at_10;
  Difference recall_at_100;
  Difference map;
};

// `b` minus `a`, paired by query id. Throws std::invalid_argument unless both
// scored the same queries.
Comparison compare(const std::vector<QueryScores>& a, const std::vector<QueryScores>& b);

// Writes `run` in trec_eval's run format, one line per hit: "qid Q0 docid rank
// score tag", ranks from 1. A ranking holds no scores, so the score is kDepth + 1 -
// rank, which orders the hits as ranked (trec_eval sorts by score).
void write_trec_run(std::ostream& out, const Rankings& run, const std::string& tag);

// Reads a run in trec_eval's format (as write_trec_run() writes it, or any other
// system): each query's hits ordered by score, highest first, ties by rank. Throws
// std::runtime_error naming the line of a line without six fields or whose rank or
// score is not a number.
Rankings read_trec_run(std::istream& in);

}  // namespace abstracts::eval

#endif  // ABSTRACTS_BENCH_RELEVANCE_METRICS_H_
