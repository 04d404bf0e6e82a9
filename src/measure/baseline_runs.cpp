#include "measure/baseline_runs.hpp"

#include <algorithm>

namespace gpupack::measure {

WorkloadProfile measure_baseline(const SteadyOptions& base, int runs, double spread_limit, const BaselineDeps& deps) {
  std::vector<WorkloadProfile> measured;
  std::vector<BaselineRun> figures;
  for (int n = 1; n <= std::max(1, runs); ++n) {
    if (deps.on_start) deps.on_start(n, runs);
    SteadyOptions o = base;
    o.report_path = base.report_path + "." + std::to_string(n);
    auto source = deps.open_report(o.report_path);
    SteadyRun run;
    try {
      run = measure_steady(o, {deps.runner, deps.gpu, deps.proc, deps.clock, *source, deps.catalog, deps.cpu_probe});
    } catch (const ProfileError& e) {
      if (n == 1) throw;  // the first run fails as a single-run profile does
      throw ProfileError("baseline run " + std::to_string(n) + " of " + std::to_string(runs) + ": " + e.what());
    }
    const auto& r = run.profile.requests;
    if (!r) {
      if (n == 1) return run.profile;  // no client report: nothing to repeat
      throw ProfileError("baseline run " + std::to_string(n) + " of " + std::to_string(runs) +
                         ": the program reported no requests in its window, though run 1 did");
    }
    figures.push_back({r->req_per_s, r->p50_ms, r->p99_ms, run.profile.host_cpu_cores, run.profile.host_busy_cores,
                       run.profile.host_steal_share, r->p50_second_low_ms, r->p50_second_high_ms,
                       run.profile.host_core_work});
    measured.push_back(std::move(run.profile));
  }
  WorkloadProfile p = measured[representative_run(figures)];
  const auto most_memory = std::max_element(measured.begin(), measured.end(), [](const auto& a, const auto& b) {
    return a.memory.peak_bytes < b.memory.peak_bytes;
  });
  p.memory = most_memory->memory;  // peak and headroom of one run: the largest seen
  p.baseline = summarize_baseline("alone", std::move(figures), spread_limit);
  return p;
}

}  // namespace gpupack::measure
