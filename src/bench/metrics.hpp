#pragma once
// Numbers derived from the raw samples: speedups, slowdowns, percentiles, limit ratios. The table, the
// JSON's "derived" and "calibration" objects, the verdicts and the report all read them from here.
#include <map>
#include <optional>
#include <string>

#include "bench/results.hpp"
#include "bench/stats.hpp"

namespace gpupack::bench {

// Median serial time over median concurrent time for K kernels (K streams vs one).
std::optional<double> stream_speedup(const BenchResults& r, int k);
std::optional<double> copy_overlap_speedup(const BenchResults& r);

// Mean per-client time with K clients over the mean with 1, under one mode (and MIG target).
std::optional<double> slowdown(const BenchResults& r, const std::string& mode, int k, const std::string& target = "");
// Work done per second by all K clients together, relative to one client alone under the same mode.
std::optional<double> aggregate_throughput(const BenchResults& r, const std::string& mode, int k,
                                           const std::string& target = "");

const IsolationRun* find_isolation(const BenchResults& r, const std::string& setting);
// The setting's p99 over the p99 alone.
std::optional<double> p99_inflation(const BenchResults& r, const std::string& setting);
// The neighbour's throughput in a setting as a fraction of its throughput alone.
std::optional<double> neighbour_fraction(const BenchResults& r, const std::string& setting);
std::string capped_setting(int percent);  // "mps_cap50"

// The throughput a capped client should get, as a fraction of 100%: the SM share it sees when the
// device reports the capped count, else the percentage itself.
double expected_fraction(const ThreadLimitCheck& c);
double measured_fraction(const ThreadLimitCheck& c);

// The planner's calibration numbers (docs/bench-schema.md, "calibration"); absent values are left out.
struct Calibration {
  std::optional<double> timeslicing_p99_inflation, mps_p99_inflation;
  std::map<int, double> mps_capped_p99_inflation, mps_capped_neighbour_throughput;
  std::map<int, double> timeslicing_slowdown, mps_slowdown;
};
Calibration calibration(const BenchResults& r);

}  // namespace gpupack::bench
