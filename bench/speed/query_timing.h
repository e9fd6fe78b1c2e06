// Per-query latency of one system over the query set: a warm-up pass, then
// timed passes, each summarised by kind.
#ifndef ABSTRACTS_BENCH_SPEED_QUERY_TIMING_H_
#define ABSTRACTS_BENCH_SPEED_QUERY_TIMING_H_

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "bench/speed/query_set.h"
#include "bench/speed/system.h"

namespace abstracts::speed {

struct LatencySummary {  // milliseconds
  double p50 = 0, p95 = 0, p99 = 0, mean = 0;
  std::size_t queries = 0;
};

struct QueryTiming {
  double open_ms = 0;  // opening the index
  // One map per timed pass: "all" (keyword, phrase and boolean), "keyword",
  // "phrase", "boolean", "question" -> summary.
  std::vector<std::map<std::string, LatencySummary>> passes;
  std::size_t hits = 0;  // in the last pass, summed over queries
  std::size_t queries_with_hits = 0;
  std::vector<std::string> errors;  // queries the system rejected (last pass)
};

// Opens the index with `system` and runs every query once untimed (to warm
// caches, as a long-running server would be), then `passes` timed passes.
QueryTiming time_queries(const System& system, const std::filesystem::path& index_path,
                         const std::vector<BenchQuery>& queries, std::size_t passes);

}  // namespace abstracts::speed

#endif  // ABSTRACTS_BENCH_SPEED_QUERY_TIMING_H_
