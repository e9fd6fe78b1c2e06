// What one system produced on one collection: a ranking per query, and how long
// indexing and searching took.
#ifndef ABSTRACTS_BENCH_RELEVANCE_RUN_H_
#define ABSTRACTS_BENCH_RELEVANCE_RUN_H_

#include <chrono>
#include <cstddef>
#include <string>
#include <unordered_set>
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

// Seconds since `start`: a Run's index and query times.
inline double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// The distinct ids of `rankings` that are not in `corpus_ids` (Run::unknown_ids).
inline std::size_t count_unknown_ids(const Rankings& rankings, const std::unordered_set<std::string>& corpus_ids) {
  std::unordered_set<std::string> unknown;
  for (const auto& [qid, ranking] : rankings) {
    for (const auto& id : ranking) {
      if (!corpus_ids.contains(id)) unknown.insert(id);
    }
  }
  return unknown.size();
}

}  // namespace abstracts::eval

#endif  // ABSTRACTS_BENCH_RELEVANCE_RUN_H_
