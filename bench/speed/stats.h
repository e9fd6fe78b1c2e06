// Order statistics for timings.
#ifndef ABSTRACTS_BENCH_SPEED_STATS_H_
#define ABSTRACTS_BENCH_SPEED_STATS_H_

#include <vector>

namespace abstracts::speed {

// The p-th percentile (0 < p <= 100) by the nearest-rank method; 0 for no values.
double percentile(std::vector<double> values, double p);

// min, median (mean of the middle two for an even count) and max; zeros for no values.
struct Spread {
  double min = 0;
  double median = 0;
  double max = 0;
};
Spread spread(std::vector<double> values);

}  // namespace abstracts::speed

#endif  // ABSTRACTS_BENCH_SPEED_STATS_H_
