// Turns a results folder filled by scripts/bench-speed into figures: min /
// median / max over repeats, ratios between systems, and the targets.
#ifndef ABSTRACTS_BENCH_SPEED_REPORT_H_
#define ABSTRACTS_BENCH_SPEED_REPORT_H_

#include <filesystem>

namespace abstracts::speed {

// Reads `dir`/machine.json, subsets/*.json, index/*.json, reindex/*.json,
// search/*.json and e2e/*.json (hyperfine exports, with e2e/words.json), and
// writes `dir`/results.json (every aggregated figure), `dir`/report.md (the
// tables for docs/performance.md), and `dir`/indexing.dat and latency.dat (the
// plot data for bench/speed/plot.gp). Throws std::runtime_error on unreadable
// or missing records.
void write_report(const std::filesystem::path& dir);

}  // namespace abstracts::speed

#endif  // ABSTRACTS_BENCH_SPEED_REPORT_H_
