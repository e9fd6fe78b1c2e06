// A search's time limit (SearchOptions::time_limit): the search looks at the
// clock as it goes and stops with a QueryError once the limit is past.
#ifndef ABSTRACTS_QUERY_DEADLINE_H_
#define ABSTRACTS_QUERY_DEADLINE_H_

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>

#include "abstracts/error.h"

namespace abstracts::query {

// One per search; not thread-safe (tick() counts). Cheap to ask often: tick()
// reads the clock once every 256 calls, so the matcher can tick for every
// posting it weighs (Bm25, query/ranking.h) and the position checks for every
// abstract they read (query/positional.h).
class Deadline {
 public:
  // `seconds` from now; 0 (or less) is no limit.
  explicit Deadline(double seconds)
      : seconds_(seconds),
        end_(std::chrono::steady_clock::now() +
             std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                 std::chrono::duration<double>(seconds > 0 && seconds < kYear ? seconds : kYear))) {}

  // Throws QueryError once the time is up.
  void check() const {
    if (seconds_ <= 0 || std::chrono::steady_clock::now() < end_) return;
    char limit[32];
    std::snprintf(limit, sizeof limit, "%g", seconds_);
    throw QueryError(std::string("the search ran past its time limit of ") + limit + " s", 1,
                     "search for fewer or rarer words, or lengthen the wildcard prefixes");
  }

  // check(), on the first call and every 256th after it.
  void tick() const {
    if ((ticks_++ & 0xff) == 0) check();
  }

 private:
  static constexpr double kYear = 365.0 * 24 * 3600;  // longer is as good as none, and cannot overflow

  double seconds_;
  std::chrono::steady_clock::time_point end_;
  mutable std::uint32_t ticks_ = 0;
};

}  // namespace abstracts::query

#endif  // ABSTRACTS_QUERY_DEADLINE_H_
