#pragma once
// The SM-share sweep: the program alone under an MPS daemon at several active thread percentages
// (CUDA_MPS_ACTIVE_THREAD_PERCENTAGE), its req/s and p99 at each from its client report, and its compute
// demand: the smallest share at which it still performs like at the largest one (iGniter, TPDS 2023,
// profiles solo latency over MPS shares the same way). The caller owns the MPS daemon (a private one).
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "measure/steady_profile.hpp"

namespace gpupack::measure {

inline const std::vector<int> kDefaultSweepPercentages = {100, 50, 25, 12};

struct SweepOptions {
  std::vector<int> percentages = kDefaultSweepPercentages;  // each 1..100
  double tolerance = 0.10;
  std::map<std::string, std::string> mps_env;  // the daemon's client environment (pipe and log directories)
  std::string report_dir;                      // report-<pct>.jsonl files go here
};

struct SweepDeps {
  ProcessRunner& runner;
  GpuBackend& gpu;
  ProcReader& proc;
  Clock& clock;
  std::function<std::unique_ptr<ReportSource>(const std::string& path)> open_report;
  std::function<void(int pct)> on_start;  // progress, may be empty
};

// One steady run per percentage, largest first. Throws ProfileError when a run cannot be measured or
// reports no requests (the sweep compares the program's own req/s and p99).
std::vector<SmSharePoint> run_sweep(const SteadyOptions& base, const SweepOptions& options, const SweepDeps& deps);

// The smallest share whose p99 is within `tolerance` above the largest share's p99 and whose req/s is
// within `tolerance` below its req/s (the definition; a noisy point in between does not hide a
// smaller share that keeps up).
ComputeDemand demand_from_sweep(const std::vector<SmSharePoint>& curve, double tolerance);

// Parses "100,50,25,12": integers 1..100, no repeats. Throws InputError naming the list.
std::vector<int> parse_sweep_percentages(const std::string& text);

}  // namespace gpupack::measure
