#pragma once
// The alone baseline of a program measured over several runs (docs/profile.md, "Baseline"): one window is
// not enough to plan from. Four single-window profiles of the same CNN on an H200 gave 133, 228, 191 and
// 221 req/s alone (issue 36), and the first, 40% low, became the baseline of every prediction for it. Each
// run is a fresh start of the program (its own start-up and window), as every replica of a plan is; the
// baseline is the median of each figure over the runs, and its spread says whether the runs agree.
#include <optional>
#include <string>
#include <vector>

#include "core/profile_facts.hpp"

namespace gpupack::measure {

// A fixed piece of CPU work timed on the host's cores over a window, one core a sample in turn
// (os/cpu_work_probe.hpp): its fastest, median and slowest time. A host whose cores change speed moves a
// launch-bound program's req/s with them.
struct HostCoreWork {
  double low_ms = 0, median_ms = 0, high_ms = 0;
  int samples = 0;
};

// One run's figures over its steady window.
struct BaselineRun {
  double req_per_s = 0;
  std::optional<double> p50_ms, p99_ms;
  std::optional<double> host_cpu_cores;  // none under MPS (the sweep's runs) or when /proc said nothing
  // The whole host over the run's window (measure/workload_profile.hpp): what tells a noisy host apart.
  std::optional<double> host_busy_cores = std::nullopt, host_steal_share = std::nullopt;
  // Its per-second median latency's lowest and highest over the window (ProfileRequests).
  std::optional<double> p50_second_low_ms = std::nullopt, p50_second_high_ms = std::nullopt;
  std::optional<HostCoreWork> host_core_work = std::nullopt;
};

// (max - min) / median of each figure over the runs; none with fewer than two runs reporting it.
struct BaselineSpread {
  std::optional<double> req_per_s, p50_ms, p99_ms;
};

struct Baseline {
  std::string setting = "alone";  // "alone" (no MPS) or "mps-100" (alone under the private MPS daemon at 100%)
  double req_per_s = 0;           // the medians over the runs (each over the runs that report it)
  std::optional<double> p50_ms, p99_ms, host_cpu_cores;
  BaselineSpread spread;
  double spread_limit = 0.10;       // the bound on the req/s and p50 spreads (--baseline-spread-limit)
  std::optional<bool> repeatable;   // none with one run: not measured
  std::optional<std::string> flag;  // set when not repeatable: "req/s spread 38% over 3 runs (limit 10%)"
  std::vector<BaselineRun> runs;

  std::size_t run_count() const { return runs.size(); }
  // "median of 3 runs", "1 run": what the planning figures are.
  std::string source() const;
};

// The median of each figure over the runs, their spreads and the verdict against `spread_limit` (req/s
// and p50; p99 is recorded, not judged: a few-ms p99 varies 20-40% between runs of the same program).
// Throws std::invalid_argument on no runs.
Baseline summarize_baseline(std::string setting, std::vector<BaselineRun> runs, double spread_limit);

// The CPU probe's samples of one window summarised; none without samples.
std::optional<HostCoreWork> summarize_core_work(const std::vector<double>& ms);

// The CPU probe over a baseline's runs: its fastest and slowest sample, and each run's median in run order
// (runs without the probe left out); none where no run has it.
struct CoreWorkOverRuns {
  double low_ms = 0, high_ms = 0;
  std::vector<double> medians;
};
std::optional<CoreWorkOverRuns> core_work_over_runs(const std::vector<BaselineRun>& runs);

// The median of values (the mean of the middle two for an even count); none when empty.
std::optional<double> median_of(std::vector<double> values);

// The run that stands for the baseline where one run's other figures are needed (its activity, its host
// CPU): the one whose req/s is nearest the median, the slower of two equally near.
std::size_t representative_run(const std::vector<BaselineRun>& runs);

// "baseline not repeatable: req/s spread 38% over 3 runs (limit 10%)" for people; "" when repeatable or
// not judged. `what` names the baseline ("baseline", "MPS 100% baseline").
std::string baseline_warning(const Baseline& b, const std::string& what);

// How much slower than its median the slowest of its runs was (ProfileBaseline::slowest_run): the larger of
// median req/s / its lowest - 1 and its highest p50 / median - 1; none with fewer than two runs.
std::optional<double> slowest_run(const Baseline& b);

// The planner's view of a baseline (core/profile_facts.hpp).
std::optional<ProfileBaseline> baseline_facts(const std::optional<Baseline>& b);

}  // namespace gpupack::measure
