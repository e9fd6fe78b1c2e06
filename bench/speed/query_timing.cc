#include "bench/speed/query_timing.h"

#include <chrono>
#include <numeric>

#include "bench/speed/stats.h"

namespace abstracts::speed {
namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

LatencySummary summarise(const std::vector<double>& ms) {
  LatencySummary s;
  s.queries = ms.size();
  if (ms.empty()) return s;
  s.p50 = percentile(ms, 50);
  s.p95 = percentile(ms, 95);
  s.p99 = percentile(ms, 99);
  s.mean = std::accumulate(ms.begin(), ms.end(), 0.0) / static_cast<double>(ms.size());
  return s;
}

}  // namespace

QueryTiming time_queries(const System& system, const std::filesystem::path& index_path,
                         const std::vector<BenchQuery>& queries, std::size_t passes) {
  QueryTiming timing;
  auto start = Clock::now();
  auto searcher = system.open(index_path);
  timing.open_ms = ms_since(start);

  for (std::size_t pass = 0; pass <= passes; ++pass) {
    const bool timed = pass > 0;
    std::map<std::string, std::vector<double>> ms;
    if (timed) {
      timing.hits = 0;
      timing.queries_with_hits = 0;
      timing.errors.clear();
    }
    for (const auto& q : queries) {
      start = Clock::now();
      std::size_t hits = 0;
      try {
        hits = searcher->search(q);
      } catch (const std::exception& e) {
        if (timed) timing.errors.push_back(xapian_syntax(q) + ": " + e.what());
      }
      const double elapsed = ms_since(start);
      if (!timed) continue;
      if (q.kind != BenchQuery::Kind::kQuestion) ms["all"].push_back(elapsed);  // issue 6's set
      ms[kind_name(q.kind)].push_back(elapsed);
      timing.hits += hits;
      timing.queries_with_hits += hits > 0;
    }
    if (!timed) continue;
    auto& summary = timing.passes.emplace_back();
    for (const auto& [kind, values] : ms) summary[kind] = summarise(values);
  }
  return timing;
}

}  // namespace abstracts::speed
