#include "bench/metrics.hpp"

#include <algorithm>

namespace gpupack::bench {

namespace {
const ClientRun* find_run(const BenchResults& r, const std::string& mode, int k, const std::string& target) {
  for (const auto& run : r.clients) {
    if (run.mode == mode && run.k == k && run.target == target && !run.seconds.empty()) return &run;
  }
  return nullptr;
}

std::optional<double> ratio(double numerator, double denominator) {
  if (denominator <= 0 || numerator <= 0) return std::nullopt;
  return numerator / denominator;
}
}  // namespace

std::optional<double> stream_speedup(const BenchResults& r, int k) {
  if (!r.streams) return std::nullopt;
  for (const auto& s : r.streams->kernels) {
    if (s.k == k) return ratio(median(s.serial_ms), median(s.concurrent_ms));
  }
  return std::nullopt;
}

std::optional<double> copy_overlap_speedup(const BenchResults& r) {
  if (!r.streams) return std::nullopt;
  return ratio(median(r.streams->copy.serial_ms), median(r.streams->copy.overlapped_ms));
}

std::optional<double> slowdown(const BenchResults& r, const std::string& mode, int k, const std::string& target) {
  const ClientRun* one = find_run(r, mode, 1, target);
  const ClientRun* many = find_run(r, mode, k, target);
  if (!one || !many) return std::nullopt;
  return ratio(mean(many->seconds), mean(one->seconds));
}

std::optional<double> aggregate_throughput(const BenchResults& r, const std::string& mode, int k,
                                           const std::string& target) {
  const ClientRun* one = find_run(r, mode, 1, target);
  const ClientRun* many = find_run(r, mode, k, target);
  if (!one || !many) return std::nullopt;
  // K clients' work finished when the slowest did.
  return ratio(static_cast<double>(k) * mean(one->seconds), max_of(many->seconds));
}

const IsolationRun* find_isolation(const BenchResults& r, const std::string& setting) {
  for (const auto& run : r.isolation) {
    if (run.setting == setting && !run.latency_us.empty()) return &run;
  }
  return nullptr;
}

std::optional<double> p99_inflation(const BenchResults& r, const std::string& setting) {
  const IsolationRun* alone = find_isolation(r, "alone");
  const IsolationRun* other = find_isolation(r, setting);
  if (!alone || !other) return std::nullopt;
  return ratio(quantile(other->latency_us, 0.99), quantile(alone->latency_us, 0.99));
}

std::optional<double> neighbour_fraction(const BenchResults& r, const std::string& setting) {
  const IsolationRun* run = find_isolation(r, setting);
  if (!run || !run->neighbour_kernels_per_s || !r.neighbour_alone_kernels_per_s) return std::nullopt;
  return ratio(*run->neighbour_kernels_per_s, *r.neighbour_alone_kernels_per_s);
}

std::string capped_setting(int percent) { return "mps_cap" + std::to_string(percent); }

double expected_fraction(const ThreadLimitCheck& c) {
  if (c.sm_total > 0 && c.sms_seen > 0 && c.sms_seen < c.sm_total) {
    return static_cast<double>(c.sms_seen) / c.sm_total;
  }
  return c.percent / 100.0;
}

double measured_fraction(const ThreadLimitCheck& c) {
  return c.baseline_gflops > 0 ? c.gflops / c.baseline_gflops : 0;
}

Calibration calibration(const BenchResults& r) {
  Calibration c;
  c.timeslicing_p99_inflation = p99_inflation(r, measured_mode(Sharing::time_slicing));
  c.mps_p99_inflation = p99_inflation(r, measured_mode(Sharing::mps));
  for (int cap : r.plan.caps) {
    if (auto v = p99_inflation(r, capped_setting(cap))) c.mps_capped_p99_inflation[cap] = *v;
    if (auto v = neighbour_fraction(r, capped_setting(cap))) c.mps_capped_neighbour_throughput[cap] = *v;
  }
  for (int k : r.plan.ks) {
    if (k == 1) continue;
    if (auto v = slowdown(r, measured_mode(Sharing::time_slicing), k)) c.timeslicing_slowdown[k] = *v;
    if (auto v = slowdown(r, measured_mode(Sharing::mps), k)) c.mps_slowdown[k] = *v;
  }
  return c;
}

}  // namespace gpupack::bench
