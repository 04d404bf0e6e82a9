#include "bench/stats.hpp"

#include <algorithm>
#include <numeric>
#include <utility>

#include "measure/client_report.hpp"

namespace gpupack::bench {

// One implementation of the percentile for bench and the client reports (measure).
double quantile(std::vector<double> samples, double q) { return measure::quantile_of(std::move(samples), q); }

double median(const std::vector<double>& samples) { return quantile(samples, 0.5); }

double mean(const std::vector<double>& samples) {
  if (samples.empty()) return 0;
  return std::accumulate(samples.begin(), samples.end(), 0.0) / static_cast<double>(samples.size());
}

double max_of(const std::vector<double>& samples) {
  return samples.empty() ? 0 : *std::max_element(samples.begin(), samples.end());
}

LatencySummary summarize(const std::vector<double>& samples) {
  LatencySummary s;
  s.count = static_cast<int>(samples.size());
  s.p50 = quantile(samples, 0.5);
  s.p99 = quantile(samples, 0.99);
  s.p999 = quantile(samples, 0.999);
  s.max = max_of(samples);
  s.mean = mean(samples);
  return s;
}

}  // namespace gpupack::bench
