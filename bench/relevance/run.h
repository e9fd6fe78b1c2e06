// What one system produced on one collection: a ranking per query, and how long
// indexing and searching took.
#ifndef ABSTRACTS_BENCH_RELEVANCE_RUN_H_
#define ABSTRACTS_BENCH_RELEVANCE_RUN_H_

#include <cstddef>
#include <string>
#include <vector>

#include "bench/relevance/metrics.h"

namespace abstracts::eval {

struct Run {
  std::string system;        // "engine", "plain Xapian"
  Rankings rankings;         // every query of the collection; empty when it failed
  double index_seconds = 0;  // reading the corpus and building the index, committed
  double query_seconds = 0;  // all queries, one after another
  // What the run did differently from the plain recipe, for the report.
  std::vector<std::string> notes;
  // Queries the system could not run as given ("id: message"), and what it did instead.
  std::vector<std::string> query_problems;
  // Distinct returned ids that are not corpus ids (a mapping bug if not 0).
  std::size_t unknown_ids = 0;
  // The run file the rankings were read from (relevance --compare-with), with no
  // index or query times; empty when the system ran here.
  std::string read_from;
};

}  // namespace abstracts::eval

#endif  // ABSTRACTS_BENCH_RELEVANCE_RUN_H_
