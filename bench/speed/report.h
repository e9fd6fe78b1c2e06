// Turns a results folder filled by scripts/bench-speed into figures: min /
// median / max over repeats, ratios between systems, and the targets.
#ifndef ABSTRACTS_BENCH_SPEED_REPORT_H_
#define ABSTRACTS_BENCH_SPEED_REPORT_H_

#include <filesystem>

namespace abstracts::speed {

// Reads `dir`/machine.json, run.json, subsets/*.json (`speed subset` and
// `speed synth` summaries), index/*.json, reindex/*.json, search/*.json,
// throughput/*.json, skipped/*.json (a system not run at a size, and why) and
// e2e/*.json (hyperfine exports, with e2e/words.json), and writes
// `dir`/results.json (every aggregated figure, issue 20's targets included),
// `dir`/report.md (the tables for docs/performance.md), and `dir`/indexing.dat
// (abstracts/s), size.dat (index MB) and latency.dat (p50, p99 ms): the plot
// data for bench/speed/plot.gp. Issue 6's targets are taken at the largest size
// within the real corpus (machine.json's real_abstracts), issue 20's at the
// largest size. Throws std::runtime_error on unreadable or missing records.
void write_report(const std::filesystem::path& dir);

}  // namespace abstracts::speed

#endif  // ABSTRACTS_BENCH_SPEED_REPORT_H_
