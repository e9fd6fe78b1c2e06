// Queries per second of one long-running process: one Index opened once and
// shared by several threads, as a search server would use it.
#ifndef ABSTRACTS_BENCH_SPEED_THROUGHPUT_H_
#define ABSTRACTS_BENCH_SPEED_THROUGHPUT_H_

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "bench/speed/query_set.h"

namespace abstracts::speed {

struct ThroughputOptions {
  std::size_t threads = 1;
  // Timed part: every thread runs until `seconds` have passed, or, with
  // `passes` > 0, runs the whole query set `passes` times.
  double seconds = 10;
  std::size_t passes = 0;
};

struct ThroughputResult {
  std::size_t threads = 0;
  double seconds = 0;                   // the timed part: all threads started to the last one done
  std::size_t queries = 0;              // completed in the timed part, all threads
  double qps = 0;                       // queries / seconds
  std::vector<std::size_t> per_thread;  // queries each thread completed
  double p50_ms = 0, p99_ms = 0;        // latency of every timed query, all threads
  // CPU time (user + system) of the whole process over the timed part: about
  // `threads` times `seconds` when the threads never wait for one another.
  double cpu_seconds = 0;
  double warmup_seconds = 0;
  double open_ms = 0;
  std::size_t errors = 0;
  std::string first_error;
};

// Opens the engine's index at `index_dir` once (Index::open, public API), runs
// the query set once on this thread to warm up, then starts options.threads
// threads on the same Index, thread t beginning at query t * size / threads
// and going round the set, each query as the `search` subcommand asks it
// (SearchOptions: limit 10, snippets on, other options at their defaults).
// Throws abstracts::Error when the index cannot be opened, std::invalid_argument
// for no queries or no threads.
ThroughputResult measure_throughput(const std::filesystem::path& index_dir,
                                    const std::vector<BenchQuery>& queries,
                                    const ThroughputOptions& options);

}  // namespace abstracts::speed

#endif  // ABSTRACTS_BENCH_SPEED_THROUGHPUT_H_
