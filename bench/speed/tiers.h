// Impact tiers on Xapian 1.4's matcher (issue 44, item 3), measured before the
// engine takes them on: each frequent word's postings split by impact (BM25's
// term-frequency part), the best ones listed again in a side database, and the
// word matched by a PostingSource that walks its whole list only while the
// matcher may still need a posting of low impact, and after that only the short
// lists of high impact. Scores are Xapian's BM25 exactly, so the top 10 must be
// the same; `speed tiers` says whether they are and how much faster the matcher
// gets, against the matcher alone on the same index (matcher_system.cc).
#ifndef ABSTRACTS_BENCH_SPEED_TIERS_H_
#define ABSTRACTS_BENCH_SPEED_TIERS_H_

#include <cstddef>
#include <filesystem>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/speed/query_set.h"

namespace abstracts::speed {

struct TierOptions {
  double min_share = 0.005;  // words in at least this share of the abstracts get tiers
  double top = 0.01;         // the first tier: this share of a word's postings, by impact
  double second = 0.10;      // the first two tiers together
};

// Writes the side database of `index` (the engine's index directory) to `side`:
// for each tiered word, the postings of its first and second tiers, and as
// metadata each tier's maximum impact and the highest impact of the rest.
// Returns counts (words, postings, tiered postings, seconds, bytes).
nlohmann::json build_tiers(const std::filesystem::path& index, const std::filesystem::path& side,
                           const TierOptions& options);

// Runs each query once untimed, then `passes` timed passes, each through the
// matcher with plain terms and with tiered words (best time of each); checks
// that the top 10 (ids and weights) are the same. Per kind: queries, identical,
// p50/p99/mean of both.
nlohmann::json compare_tiers(const std::filesystem::path& index, const std::filesystem::path& side,
                             const std::vector<BenchQuery>& queries, std::size_t passes);

}  // namespace abstracts::speed

#endif  // ABSTRACTS_BENCH_SPEED_TIERS_H_
