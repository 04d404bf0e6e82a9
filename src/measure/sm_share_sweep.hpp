#pragma once
// The SM-share sweep: the program alone under an MPS daemon at several active thread percentages
// (CUDA_MPS_ACTIVE_THREAD_PERCENTAGE), its req/s and p99 at each from its client report, and its compute
// demand: the smallest share at which it still performs like at the largest one (iGniter, TPDS 2023,
// profiles solo latency over MPS shares the same way). Run-to-run noise is large on a real GPU (p99 of a
// few ms varies 20-40%), so the largest share is measured more than once and the p99 limit widens to the
// spread seen there. The caller owns the MPS daemon (a private one).
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "measure/steady_profile.hpp"

namespace gpupack::measure {

inline const std::vector<int> kDefaultSweepPercentages = {100, 50, 25, 12};

struct SweepOptions {
  std::vector<int> percentages = kDefaultSweepPercentages;  // each 1..100
  int repeat = 2;           // runs of the largest share (the reference), >= 1
  bool repeat_all = false;  // every share `repeat` times
  std::map<std::string, std::string> mps_env;  // the daemon's client environment (pipe and log directories)
  std::string report_dir;                      // report-<pct>.jsonl files go here
};

struct SweepDeps : RunsDeps {
  std::function<void(int pct, int run)> on_start;  // progress (run counts from 1), may be empty
};

// The compute-demand rule. A share passes when, against the largest share (the mean of its runs), its
// req/s is at most `tolerance` lower, its p50 at most `tolerance` higher and its p99 at most
// max(p99_tolerance, 2 x the largest share's p99 spread) higher. Being better never fails.
struct DemandRule {
  double tolerance = 0.10;
  double p99_tolerance = 0.10;
};

// (max - min) / mean of each figure over a share's runs (gpupack verify's spread); null with < 2 runs.
struct RunSpread {
  std::optional<double> req_per_s, p50_ms, p99_ms;
};
RunSpread spread_of(const SmSharePoint& point);

// A point from its runs: req/s, p50 and p99 are the means (each over the runs that report it).
SmSharePoint point_from_runs(int pct, std::vector<SweepRun> runs);

// Steady runs alone under the daemon, one pass over the percentages largest first, then the repeats:
// with repeat 2, 100 50 25 12 100 (a reference before and after the others, so drift shows as spread);
// with repeat_all, whole passes. Returns one point per percentage, largest first, with its runs.
// Throws ProfileError when a run cannot be measured or reports no requests (the sweep compares the
// program's own figures).
std::vector<SmSharePoint> run_sweep(const SteadyOptions& base, const SweepOptions& options, const SweepDeps& deps);

// Sorts the curve largest share first, sets each point's verdict and returns the demand: the smallest
// share that passes. A failing share above a passing one is reported in the passing one's verdict as
// likely noise (one process varies 10-15% between starts on an H100, more than the tolerance).
ComputeDemand judge_sweep(std::vector<SmSharePoint>& curve, const DemandRule& rule);
// The same rule on a copy, with the default p99 tolerance (gpupack bench --sweep).
ComputeDemand demand_from_sweep(const std::vector<SmSharePoint>& curve, double tolerance);

// Parses "100,50,25,12": integers 1..100, no repeats. Throws InputError naming `option` and the list.
std::vector<int> parse_sweep_percentages(const std::string& text, const std::string& option = "--sweep");

}  // namespace gpupack::measure
