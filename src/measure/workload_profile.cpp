#include "measure/workload_profile.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "core/units.hpp"
#include "measure/sm_share_sweep.hpp"

namespace gpupack::measure {

namespace {

using Json = nlohmann::ordered_json;

template <class T>
Json or_null(const std::optional<T>& v) {
  return v ? Json(*v) : Json(nullptr);
}

Json figures_json(double req_per_s, const std::optional<double>& p50, const std::optional<double>& p99) {
  return Json{{"req_per_s", req_per_s}, {"p50_ms", or_null(p50)}, {"p99_ms", or_null(p99)}};
}

Json point_json(const SmSharePoint& p) {
  Json j{{"pct", p.pct}, {"req_per_s", p.req_per_s}, {"p50_ms", or_null(p.p50_ms)}, {"p99_ms", or_null(p.p99_ms)}};
  j["runs"] = Json::array();
  for (const auto& r : p.runs) j["runs"].push_back(figures_json(r.req_per_s, r.p50_ms, r.p99_ms));
  const RunSpread spread = spread_of(p);  // derived from the runs: written, never read
  j["spread"] = {{"req_per_s", or_null(spread.req_per_s)}, {"p50_ms", or_null(spread.p50_ms)}, {"p99_ms", or_null(spread.p99_ms)}};
  j["verdict"] = p.verdict ? Json{{"pass", p.verdict->pass}, {"counted", p.verdict->counted}, {"why", p.verdict->why}} : Json(nullptr);
  return j;
}

// The lowest and highest per-second median latency of a window ({"low_ms", "high_ms"}), null without them.
Json second_range_json(std::optional<double> low, std::optional<double> high) {
  if (!low || !high) return nullptr;
  return Json{{"low_ms", *low}, {"high_ms", *high}};
}

// The CPU probe's summary of a window, null where it did not run.
Json core_work_json(const std::optional<HostCoreWork>& w) {
  if (!w) return nullptr;
  return Json{{"low_ms", w->low_ms}, {"median_ms", w->median_ms}, {"high_ms", w->high_ms}, {"samples", w->samples}};
}

Json baseline_json(const Baseline& b) {
  Json runs = Json::array();
  for (const auto& r : b.runs) {
    Json run = figures_json(r.req_per_s, r.p50_ms, r.p99_ms);
    run["host_cpu_cores"] = or_null(r.host_cpu_cores);
    run["host_busy_cores"] = or_null(r.host_busy_cores);
    run["host_steal_share"] = or_null(r.host_steal_share);
    run["p50_by_second"] = second_range_json(r.p50_second_low_ms, r.p50_second_high_ms);
    run["host_core_work"] = core_work_json(r.host_core_work);
    runs.push_back(run);
  }
  // Everything but setting, spread_limit and runs is derived from the runs: written, recomputed on reading.
  return Json{{"source", b.source()},
              {"setting", b.setting},
              {"req_per_s", b.req_per_s},
              {"p50_ms", or_null(b.p50_ms)},
              {"p99_ms", or_null(b.p99_ms)},
              {"host_cpu_cores", or_null(b.host_cpu_cores)},
              {"spread", {{"req_per_s", or_null(b.spread.req_per_s)}, {"p50_ms", or_null(b.spread.p50_ms)}, {"p99_ms", or_null(b.spread.p99_ms)}}},
              {"spread_limit", b.spread_limit},
              {"repeatable", or_null(b.repeatable)},
              {"flag", or_null(b.flag)},
              {"runs", runs}};
}

std::string format_ratio(double v) {
  std::ostringstream s;
  s.precision(3);
  s << v;
  return s.str();
}

}  // namespace

nlohmann::ordered_json profile_to_json(const WorkloadProfile& p) {
  Json j;
  j["schema_version"] = kProfileSchemaVersion;
  j["name"] = p.name;
  j["command"] = p.command;
  j["device"] = {{"model", or_null(p.device.model)}, {"name", p.device.name}, {"uuid", p.device.uuid}};
  j["window"] = {{"start", p.window.start},
                 {"warmup_seconds", p.window.warmup_seconds},
                 {"seconds", p.window.seconds},
                 {"complete", p.window.complete},
                 {"first_gpu_seconds", or_null(p.window.first_gpu_seconds)}};
  j["memory"] = {{"peak_bytes", p.memory.peak_bytes},
                 {"with_headroom_bytes", p.memory.with_headroom_bytes},
                 {"source", p.memory.source}};
  const auto& a = p.activity;
  j["activity"] = {{"sm_active", or_null(a.sm_active)},         {"sm_occupancy", or_null(a.sm_occupancy)},
                   {"tensor_active", or_null(a.tensor_active)}, {"dram_bw", or_null(a.dram_bw)},
                   {"utilization", or_null(a.utilization)},     {"source", a.source},
                   {"samples", a.samples}};
  if (p.requests) {
    j["requests"] = {{"req_per_s", p.requests->req_per_s},
                     {"p50_ms", or_null(p.requests->p50_ms)},
                     {"p99_ms", or_null(p.requests->p99_ms)},
                     {"count", p.requests->count},
                     {"p50_by_second", second_range_json(p.requests->p50_second_low_ms, p.requests->p50_second_high_ms)}};
  } else {
    j["requests"] = nullptr;
  }
  j["report"] = {{"any_line", p.report.any_line},
                 {"malformed_lines", p.report.malformed_lines},
                 {"first_error", or_null(p.report.first_error)}};
  j["host_cpu_cores"] = or_null(p.host_cpu_cores);
  j["host_busy_cores"] = or_null(p.host_busy_cores);
  j["host_steal_share"] = or_null(p.host_steal_share);
  j["host_core_work"] = core_work_json(p.host_core_work);
  j["sm_share_curve"] = Json::array();
  for (const auto& point : p.sm_share_curve) j["sm_share_curve"].push_back(point_json(point));
  j["compute_demand"] = {{"share", p.compute_demand.share},
                         {"method", p.compute_demand.method},
                         {"tolerance", or_null(p.compute_demand.tolerance)},
                         {"p99_tolerance", or_null(p.compute_demand.p99_tolerance)},
                         {"p99_limit", or_null(p.compute_demand.p99_limit)}};
  j["colocation"] = p.colocation ? Json(*p.colocation) : Json(nullptr);
  j["compute_neighbour"] = p.compute_neighbour ? Json(*p.compute_neighbour) : Json(nullptr);
  j["launch_pressure"] = p.launch_pressure ? Json(*p.launch_pressure) : Json(nullptr);
  if (p.baseline) {
    j["baseline"] = baseline_json(*p.baseline);
    j["baseline"]["mps"] = p.mps_baseline ? baseline_json(*p.mps_baseline) : Json(nullptr);
  }
  return j;
}

std::string plan_entry_yaml(const WorkloadProfile& p, const std::string& profile_path) {
  std::ostringstream y;
  y << "# gpupack profile: " << format_ratio(p.window.seconds) << " s window from "
    << (p.window.start == "ready-line" ? "its ready line" : "first GPU use + " + format_ratio(p.window.warmup_seconds) + " s warm-up")
    << (p.window.complete ? "" : " (the program exited before the window's end)") << ", on "
    << (p.device.model ? *p.device.model : p.device.name) << "\n"
    << "# peak GPU memory " << format_size(p.memory.peak_bytes) << " ("
    << (p.memory.source == "processes" ? "its processes, CUDA context included" : "device memory increase") << ")\n";
  if (p.baseline && p.requests) {
    const Baseline& b = *p.baseline;
    y << "# requests, " << b.source() << ": " << format_ratio(b.req_per_s) << " req/s";
    if (b.p99_ms) y << ", p50 " << format_ratio(b.p50_ms.value_or(0)) << " ms, p99 " << format_ratio(*b.p99_ms) << " ms";
    if (b.spread.req_per_s) y << " (spread req/s " << format_ratio(*b.spread.req_per_s * 100) << "%)";
    y << "\n";
    for (const auto& [base, what] : {std::pair{&p.baseline, "baseline"}, std::pair{&p.mps_baseline, "MPS 100% baseline"}}) {
      if (*base && (*base)->flag) y << "# " << baseline_warning(**base, what) << "\n";
    }
  } else if (p.requests) {
    y << "# requests: " << format_ratio(p.requests->req_per_s) << " req/s";
    if (p.requests->p99_ms) y << ", p50 " << format_ratio(p.requests->p50_ms.value_or(0)) << " ms, p99 " << format_ratio(*p.requests->p99_ms) << " ms";
    y << "\n";
  } else {
    y << "# request latency not reported (docs/client-report.md)\n";
  }
  const auto& c = p.compute_demand;
  y << "workloads:\n"
    << "  - name: " << p.name << "\n"
    << "    memory: " << format_size(p.memory.with_headroom_bytes) << "\n"
    << "    compute: " << format_ratio(c.share);
  if (c.method == "sweep") {
    y << "  # smallest MPS thread share with req/s and p50 within " << format_ratio(c.tolerance.value_or(0) * 100)
      << "% and p99 within " << format_ratio(c.p99_limit.value_or(c.tolerance.value_or(0)) * 100) << "% of the largest share";
  } else if (c.method == "gpm") {
    y << "  # GPM SM activity over the window";
  } else if (c.method == "utilization") {
    y << "  # NVML utilisation: an upper bound (share of time any kernel ran); --sweep measures it";
  } else {
    y << "  # no activity reported: assume a whole GPU";
  }
  y << "\n";
  // A JSON string is a YAML double-quoted scalar: any path reads back as written.
  if (!profile_path.empty()) y << "    profile: " << nlohmann::json(profile_path).dump() << "  # relative to the scenario file\n";
  return y.str();
}

}  // namespace gpupack::measure
