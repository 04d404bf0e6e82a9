#include "model/perf_model.hpp"

#include <algorithm>
#include <cmath>

namespace gpupack {

namespace {

// Piecewise linear through `xs`/`ys` (xs increasing), extrapolating the last segment to the right.
template <size_t N>
double interpolate(const std::array<double, N>& xs, const std::array<double, N>& ys, double x) {
  if (x <= xs[0]) return ys[0];
  for (size_t i = 1; i < N; ++i) {
    if (x <= xs[i]) return ys[i - 1] + (ys[i] - ys[i - 1]) * (x - xs[i - 1]) / (xs[i] - xs[i - 1]);
  }
  const double slope = (ys[N - 1] - ys[N - 2]) / (xs[N - 1] - xs[N - 2]);
  return ys[N - 1] + slope * (x - xs[N - 1]);
}

// Makes a calibrated curve non-decreasing so that more load never predicts a better p99.
template <size_t N>
std::array<double, N> monotone(std::array<double, N> ys) {
  for (size_t i = 1; i < N; ++i) ys[i] = std::max(ys[i], ys[i - 1]);
  return ys;
}

double slowdown(const std::array<double, 3>& at_2_4_8, double k) {
  const std::array<double, 4> xs{1, 2, 4, 8};
  const std::array<double, 4> ys = monotone(std::array<double, 4>{1.0, at_2_4_8[0], at_2_4_8[1], at_2_4_8[2]});
  return std::max(1.0, interpolate(xs, ys, std::max(1.0, k)));
}

}  // namespace

double mps_p99_inflation(const ModelParameters& m, double neighbour_pct) {
  const Calibration& c = m.calibration;
  const std::array<double, 5> xs{0, 25, 50, 75, 100};
  const std::array<double, 5> ys = monotone(std::array<double, 5>{
      1.0, c.mps_capped_p99_inflation[0], c.mps_capped_p99_inflation[1], c.mps_capped_p99_inflation[2],
      c.mps_p99_inflation});
  return interpolate(xs, ys, std::clamp(neighbour_pct, 0.0, 100.0));
}

double mps_capped_throughput(const ModelParameters& m, int cap_pct, double demand) {
  const Calibration& c = m.calibration;
  const std::array<double, 5> xs{0, 25, 50, 75, 100};
  const std::array<double, 5> ys = monotone(std::array<double, 5>{
      0.0, c.mps_capped_neighbour_throughput[0], c.mps_capped_neighbour_throughput[1],
      c.mps_capped_neighbour_throughput[2], 1.0});
  const double achievable = std::min(1.0, interpolate(xs, ys, std::clamp(static_cast<double>(cap_pct), 0.0, 100.0)));
  return demand <= 0 ? 1.0 : std::min(1.0, achievable / std::min(1.0, demand));
}

double timeslicing_p99_inflation(const ModelParameters& m, std::span<const double> neighbour_load) {
  double mean = 0;
  double variance = 0;
  for (double u : neighbour_load) {
    const double p = std::clamp(u, 0.0, 1.0);
    mean += p;
    variance += p * (1 - p);
  }
  const double busy = std::min(static_cast<double>(neighbour_load.size()), mean + m.timeslicing_busy_z * std::sqrt(variance));
  return 1.0 + std::max(0.0, m.calibration.timeslicing_p99_inflation - 1.0) * busy;
}

double timeslicing_slowdown(const ModelParameters& m, double k_effective) {
  return slowdown(m.calibration.timeslicing_slowdown, k_effective);
}

double mps_slowdown(const ModelParameters& m, double k_effective) { return slowdown(m.calibration.mps_slowdown, k_effective); }

}  // namespace gpupack
