#include "cli/profile_summary.hpp"

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <sstream>

#include "cli/table.hpp"
#include "core/text.hpp"
#include "core/units.hpp"
#include "measure/colocation_grid.hpp"
#include "measure/launch_pressure.hpp"
#include "measure/sm_share_sweep.hpp"

namespace gpupack {

namespace {

using namespace measure;

std::string num(double v, int precision = 3) {
  std::ostringstream s;
  s.precision(precision);
  s << v;
  return s.str();
}

std::string latency_text(const std::optional<double>& p50, const std::optional<double>& p99) {
  if (!p99) return "latency not reported";
  return "p50 " + num(p50.value_or(0)) + " ms, p99 " + num(*p99) + " ms";
}

std::string spread_text(const std::optional<double>& spread) { return spread ? num(*spread * 100, 2) + "%" : "-"; }

std::string optional_num(const std::optional<double>& v) { return v ? num(*v) : "-"; }

// The baseline of each setting: medians over the runs, their spreads, and whether they repeat.
void print_baselines(std::ostream& out, const WorkloadProfile& p) {
  if (!p.baseline) return;
  Table t({"  baseline", "runs", "req/s", "p50 ms", "p99 ms", "spread req/s,p50,p99", "each run's req/s"});
  for (const Baseline* b : {&*p.baseline, p.mps_baseline ? &*p.mps_baseline : nullptr}) {
    if (!b) continue;
    std::string each;
    for (const auto& r : b->runs) each += (each.empty() ? "" : " ") + num(r.req_per_s, 4);
    t.add({std::string("  ") + (b->setting == "alone" ? "alone" : "MPS 100%"), std::to_string(b->run_count()), num(b->req_per_s, 4),
           optional_num(b->p50_ms), optional_num(b->p99_ms),
           spread_text(b->spread.req_per_s) + "," + spread_text(b->spread.p50_ms) + "," + spread_text(b->spread.p99_ms), each});
  }
  t.print(out);
  // The host's cores beside each run alone (os/cpu_work_probe.hpp): whether they kept their speed.
  if (const auto work = core_work_over_runs(p.baseline->runs)) {
    std::string by_run;
    for (const double m : work->medians) by_run += (by_run.empty() ? "" : " ") + num(m, 3);
    out << "  host cores: a fixed piece of CPU work took " << num(work->low_ms, 3) << "-" << num(work->high_ms, 3)
        << " ms (median by run: " << by_run << " ms)\n";
  }
  out << "  planning baseline: " << p.baseline->source() << " alone (req/s and p50 spread limit "
      << num(p.baseline->spread_limit * 100) << "%)\n";
  if (!p.baseline->flag && !(p.mps_baseline && p.mps_baseline->flag)) return;
  for (const auto& [b, what] : {std::pair{&p.baseline, "baseline"}, std::pair{&p.mps_baseline, "MPS 100% baseline"}}) {
    if (*b && (*b)->flag) out << "  warning: " << baseline_warning(**b, what) << "\n";
  }
}

// A co-location grid (the profile's, or its cells beside the compute-bound neighbour): per cell the copies'
// aggregate, their p50 and p99 (median / worst over the copies), the host cores they used together, and the
// neighbour's req/s.
void print_grid(std::ostream& out, const std::optional<nlohmann::json>& json, const std::string& title) {
  if (!json) return;
  ColocationGrid grid;
  try {
    grid = colocation_grid_from_json(*json);
  } catch (const std::exception&) {
    return;  // checked where it was read
  }
  if (grid.cells.empty()) return;
  const std::string cores = grid.node_cores ? " of " + std::to_string(*grid.node_cores) : "";
  Table t({"  " + title, "req/s (all copies)", "p50 ms median/worst", "p99 ms median/worst", "host cores" + cores,
           "neighbour req/s", "GPU SM/DRAM"});
  for (const auto& c : grid.cells) {
    if (!c.error.empty()) {
      t.add({"  " + cell_label(c), "failed: " + c.error, "", "", "", "", ""});
      continue;
    }
    const auto agg = aggregate_req_per_s(c);
    const std::string neighbour = c.neighbour && c.neighbour->req_per_s ? num(*c.neighbour->req_per_s, 4) : "-";
    // The GPU's GPM shares over the window, everything on it counted (beside a neighbour: what the plan
    // reads the others' DRAM draw from).
    const std::string gpu = c.gpu_sm_active || c.gpu_dram_bw ? optional_num(c.gpu_sm_active) + "/" + optional_num(c.gpu_dram_bw) : "-";
    t.add({"  " + cell_label(c), agg ? num(*agg, 4) : "-", optional_num(median_p50_ms(c)) + "/" + optional_num(worst_p50_ms(c)),
           optional_num(median_p99_ms(c)) + "/" + optional_num(worst_p99_ms(c)), optional_num(copies_host_cpu_cores(c)), neighbour,
           gpu});
  }
  t.print(out);
}

// The reporter's request alone and beside the program: what the program's blocks cost a launch-bound neighbour.
void print_launch_pressure(std::ostream& out, const std::optional<nlohmann::json>& json) {
  if (!json) return;
  std::optional<LaunchPressure> lp;
  try {
    lp = launch_pressure(colocation_grid_from_json(*json));
  } catch (const std::exception&) {
    return;  // checked where it was read
  }
  if (!lp) {
    out << "  launch pressure: not measured (a cell of the reporter failed or it reported no requests)\n";
    return;
  }
  char line[200];  // ms to the microsecond: beside a launch-bound program the growth is tens of them (run76)
  std::snprintf(line, sizeof line, "  launch pressure: a launch-bound probe's request (32 short kernels) took %.3f ms alone and %.3f ms beside it: %+.3f ms\n",
                lp->alone_ms, lp->beside_ms, lp->added_ms());
  out << line;
}

// The SM-share curve: each share's means over its runs, their spread, and the demand rule's verdict.
void print_sweep(std::ostream& out, const WorkloadProfile& p) {
  if (p.sm_share_curve.empty()) return;
  Table t({"  MPS threads", "runs", "req/s", "p50 ms", "p99 ms", "spread req/s,p50,p99", "verdict"});
  for (const auto& point : p.sm_share_curve) {
    const RunSpread s = spread_of(point);
    std::string verdict = "-";
    if (point.verdict) {
      verdict = std::string(point.verdict->counted ? "pass" : point.verdict->pass ? "pass, not counted" : "fail") + ": " + point.verdict->why;
    }
    t.add({"  " + std::to_string(point.pct) + "%", std::to_string(std::max<std::size_t>(1, point.runs.size())), num(point.req_per_s, 4),
           point.p50_ms ? num(*point.p50_ms) : "-", point.p99_ms ? num(*point.p99_ms) : "-",
           spread_text(s.req_per_s) + "," + spread_text(s.p50_ms) + "," + spread_text(s.p99_ms), verdict});
  }
  t.print(out);
}

// What people read (on stderr, so that stdout stays the entry or the JSON).
}  // namespace

void print_profile_summary(std::ostream& out, const WorkloadProfile& p) {
  out << "gpupack profile: " << p.name << " on " << (p.device.model ? *p.device.model : p.device.name) << ", window "
      << num(p.window.seconds) << " s from " << (p.window.start == "ready-line" ? "its ready line" : "first GPU use + warm-up")
      << (p.window.complete ? "" : " (it exited before the window's end)") << "\n";
  out << "  memory: peak " << format_size(p.memory.peak_bytes) << " ("
      << (p.memory.source == "processes" ? "its processes" : "device increase") << "), entry "
      << format_size(p.memory.with_headroom_bytes) << "\n";
  const auto& a = p.activity;
  if (a.source == "gpm") {
    out << "  activity (GPM): SM active " << num(*a.sm_active) << ", SM occupancy " << (a.sm_occupancy ? num(*a.sm_occupancy) : "-")
        << ", tensor " << (a.tensor_active ? num(*a.tensor_active) : "-") << ", DRAM bandwidth "
        << (a.dram_bw ? num(*a.dram_bw) : "-") << "\n";
  } else if (a.source == "nvml-utilization") {
    out << "  activity: NVML utilisation " << num(*a.utilization)
        << " (no GPM on this GPU: the share of time any kernel ran, an upper bound of the SMs it needs)\n";
  } else {
    out << "  activity: not reported by the driver\n";
  }
  if (p.requests) {
    const bool several = p.baseline && p.baseline->run_count() > 1;
    out << "  requests" << (several ? " (the run nearest the median req/s)" : "") << ": " << num(p.requests->req_per_s, 4) << " req/s, " << latency_text(p.requests->p50_ms, p.requests->p99_ms)
        << " (" << p.requests->count << " in the window)\n";
  } else {
    out << "  requests: request latency not reported (" << (p.report.any_line ? "no request lines in the window" : "no client report")
        << "; docs/client-report.md)\n";
  }
  if (p.report.malformed_lines > 0) {
    out << "  report: " << p.report.malformed_lines << " malformed line(s) ignored, the first: " << quote_input(p.report.first_error.value_or("?"))
        << "\n";  // the program's own bytes: ESC or BEL escaped as \xNN (docs/cli.md)
  }
  print_baselines(out, p);
  if (p.host_cpu_cores) out << "  host CPU: " << num(*p.host_cpu_cores) << " cores\n";
  print_sweep(out, p);
  print_grid(out, p.colocation, "co-location");
  print_grid(out, p.compute_neighbour, "compute neighbour");
  print_grid(out, p.launch_pressure, "launch pressure");
  print_launch_pressure(out, p.launch_pressure);
  const auto& d = p.compute_demand;
  out << "  compute demand: " << num(d.share) << " (" << d.method;
  if (d.tolerance) out << ", req/s and p50 within " << num(*d.tolerance * 100) << "%";
  if (d.p99_limit) out << ", p99 within " << num(*d.p99_limit * 100) << "%";
  out << ")\n";
}

}  // namespace gpupack
