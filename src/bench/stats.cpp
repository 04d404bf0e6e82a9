#include "bench/stats.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace gpupack::bench {

double quantile(std::vector<double> samples, double q) {
  if (samples.empty()) return 0;
  std::sort(samples.begin(), samples.end());
  const double position = std::clamp(q, 0.0, 1.0) * static_cast<double>(samples.size() - 1);
  const auto lower = static_cast<size_t>(std::floor(position));
  const size_t upper = std::min(lower + 1, samples.size() - 1);
  const double fraction = position - static_cast<double>(lower);
  return samples[lower] + fraction * (samples[upper] - samples[lower]);
}

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
