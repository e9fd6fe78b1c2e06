#include "bench/speed/throughput.h"

#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "abstracts/abstracts.h"
#include "bench/speed/stats.h"

namespace abstracts::speed {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

double cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

}  // namespace

ThroughputResult measure_throughput(const std::filesystem::path& index_dir,
                                    const std::vector<BenchQuery>& queries,
                                    const ThroughputOptions& options) {
  if (queries.empty()) throw std::invalid_argument("no queries");
  if (options.threads == 0) throw std::invalid_argument("no threads");
  ThroughputResult result;
  result.threads = options.threads;

  auto start = Clock::now();
  const Index index = Index::open(index_dir);
  result.open_ms = 1000 * seconds_since(start);
  SearchOptions search_options;  // what `abstracts search` asks by default
  search_options.limit = 10;
  search_options.snippets = true;
  std::vector<std::string> texts;
  for (const auto& q : queries) texts.push_back(xapian_syntax(q));

  std::mutex error_mutex;
  // One query: the hits consumed as a printer would (ids and snippets read).
  auto run = [&](const std::string& text, std::size_t& sink) {
    try {
      const SearchResults r = index.search(text, search_options);
      for (const auto& hit : r.hits) sink += hit.abstract.id.size() + hit.snippet.text.size();
      return true;
    } catch (const std::exception& e) {
      std::lock_guard lock(error_mutex);
      if (result.errors++ == 0) result.first_error = text + ": " + e.what();
      return false;
    }
  };

  start = Clock::now();
  std::size_t sink = 0;
  for (const auto& text : texts) run(text, sink);
  result.warmup_seconds = seconds_since(start);
  result.errors = 0;
  result.first_error.clear();

  // The timed part is whole passes over the set, the queries handed out in order
  // from one counter, so 1 and 2 threads do the same work: started at their own
  // offsets for a fixed time, they did not where one pass outlasts the time (at
  // 1M, about 20 s a pass), and 2 threads ran more of the costly queries than 1.
  const std::size_t passes =
      options.passes > 0
          ? options.passes
          : std::max<std::size_t>(1, static_cast<std::size_t>(std::ceil(
                                         options.seconds / std::max(result.warmup_seconds, 1e-9))));
  result.passes = passes;
  const std::size_t total = passes * texts.size();
  std::atomic<std::size_t> next{0};
  std::vector<std::vector<double>> latencies(options.threads);
  result.per_thread.assign(options.threads, 0);
  std::vector<std::size_t> sinks(options.threads, 0);
  std::atomic<std::size_t> ready{0};
  std::atomic<bool> go{false};
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < options.threads; ++t) {
    threads.emplace_back([&, t] {
      ++ready;
      while (!go.load(std::memory_order_acquire)) std::this_thread::yield();
      std::size_t done = 0;
      auto& ms = latencies[t];
      for (std::size_t i; (i = next.fetch_add(1, std::memory_order_relaxed)) < total;) {
        const auto q_start = Clock::now();
        run(texts[i % texts.size()], sinks[t]);
        ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - q_start).count());
        ++done;
      }
      result.per_thread[t] = done;
    });
  }
  while (ready.load() < options.threads) std::this_thread::yield();
  const double cpu_at_start = cpu_seconds();
  const auto begin = Clock::now();
  go.store(true, std::memory_order_release);
  for (auto& th : threads) th.join();
  result.seconds = seconds_since(begin);
  result.cpu_seconds = cpu_seconds() - cpu_at_start;

  std::vector<double> all;
  for (std::size_t t = 0; t < options.threads; ++t) {
    result.queries += result.per_thread[t];
    all.insert(all.end(), latencies[t].begin(), latencies[t].end());
  }
  result.qps = result.seconds > 0 ? static_cast<double>(result.queries) / result.seconds : 0;
  result.p50_ms = percentile(all, 50);
  result.p99_ms = percentile(all, 99);
  return result;
}

}  // namespace abstracts::speed
