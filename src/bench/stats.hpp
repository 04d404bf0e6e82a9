#pragma once
// Order statistics over samples (latencies in microseconds, times in milliseconds or seconds).
#include <vector>

namespace gpupack::bench {

// The q-quantile (0 <= q <= 1) by linear interpolation between closest ranks (the method of NumPy's
// default and of Hyndman & Fan type 7); 0 for no samples.
double quantile(std::vector<double> samples, double q);
double median(const std::vector<double>& samples);
double mean(const std::vector<double>& samples);
double max_of(const std::vector<double>& samples);

struct LatencySummary {
  int count = 0;
  double p50 = 0, p99 = 0, p999 = 0, max = 0, mean = 0;
};
LatencySummary summarize(const std::vector<double>& samples);

}  // namespace gpupack::bench
