#pragma once
// The alone baseline over several runs (measure/baseline.hpp): the program started afresh `runs` times
// without MPS, each run with its own start-up and steady window (measure_steady).
#include <functional>
#include <memory>
#include <string>

#include "measure/baseline.hpp"
#include "measure/steady_profile.hpp"

namespace gpupack::measure {

struct BaselineDeps : RunsDeps {
  std::function<void(int run, int of)> on_start;  // progress (run counts from 1), may be empty
  CpuWorkProbe* cpu_probe = nullptr;              // each run times it (SteadyDeps::cpu_probe), where given
};

// `runs` fresh starts of base.command (report files base.report_path + ".N"). The profile is the run whose
// req/s is nearest the median (its window, activity, requests, host CPU: figures of one real run), with the
// largest peak memory of all runs, and `baseline` set to the medians and spreads over the runs. A program
// that reports no requests in its first run is measured once, without a baseline (there is no req/s to
// repeat); one whose later run reports none is an error. Throws as measure_steady does.
WorkloadProfile measure_baseline(const SteadyOptions& base, int runs, double spread_limit, const BaselineDeps& deps);

}  // namespace gpupack::measure
