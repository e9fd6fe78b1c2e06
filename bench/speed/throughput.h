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
  // Timed part: `passes` > 0 whole passes over the query set, shared by the
  // threads; with 0, as many passes as the warm-up pass says fill `seconds`
  // (at least one).
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
  std::size_t passes = 0;               // passes over the query set in the timed part
  double open_ms = 0;
  std::size_t errors = 0;
  std::string first_error;
};

// Opens the engine's index at `index_dir` once (Index::open, public API), runs
// the query set once on this thread to warm up, then starts options.threads
// threads on the same Index that take the queries of the timed passes in order,
// each from where the last taken one was, so any number of threads does the
// same work; each query as the `search` subcommand asks it (SearchOptions:
// limit 10, snippets on, other options at their defaults).
// Throws abstracts::Error when the index cannot be opened, std::invalid_argument
// for no queries or no threads.
ThroughputResult measure_throughput(const std::filesystem::path& index_dir,
                                    const std::vector<BenchQuery>& queries,
                                    const ThroughputOptions& options);

}  // namespace abstracts::speed

#endif  // ABSTRACTS_BENCH_SPEED_THROUGHPUT_H_
