#include "measure/sm_share_sweep.hpp"

#include <algorithm>
#include <charconv>
#include <set>

#include "core/errors.hpp"

namespace gpupack::measure {

std::vector<SmSharePoint> run_sweep(const SteadyOptions& base, const SweepOptions& o, const SweepDeps& deps) {
  std::vector<int> order = o.percentages;
  std::sort(order.rbegin(), order.rend());
  std::vector<SmSharePoint> curve;
  for (int pct : order) {
    if (deps.on_start) deps.on_start(pct);
    SteadyOptions run = base;
    run.env.insert(o.mps_env.begin(), o.mps_env.end());
    run.env["CUDA_MPS_ACTIVE_THREAD_PERCENTAGE"] = std::to_string(pct);
    run.report_path = o.report_dir + "/report-" + std::to_string(pct) + ".jsonl";
    run.require_gpu = false;  // under MPS the server may hold the memory: the ready line starts the window
    auto source = deps.open_report(run.report_path);
    SteadyRun result;
    try {
      result = measure_steady(run, {deps.runner, deps.gpu, deps.proc, deps.clock, *source});
    } catch (const ProfileError& e) {
      throw ProfileError("sweep at " + std::to_string(pct) + "% threads: " + e.what());
    }
    const auto& r = result.profile.requests;
    if (!r || !r->p99_ms) {
      throw ProfileError("sweep at " + std::to_string(pct) +
                         "% threads: the program reported no request latencies in its window; --sweep compares the "
                         "program's own p99 and req/s, so it must write its client report (docs/client-report.md)");
    }
    curve.push_back({pct, r->req_per_s, r->p50_ms, r->p99_ms});
  }
  return curve;
}

ComputeDemand demand_from_sweep(const std::vector<SmSharePoint>& curve, double tolerance) {
  ComputeDemand d{1.0, "sweep", tolerance};
  if (curve.empty()) return d;
  std::vector<SmSharePoint> sorted = curve;
  std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.pct > b.pct; });
  const auto& top = sorted.front();
  auto keeps_up = [&](const SmSharePoint& p) {
    const bool latency = !top.p99_ms || (p.p99_ms && *p.p99_ms <= *top.p99_ms * (1 + tolerance));
    return latency && p.req_per_s >= top.req_per_s * (1 - tolerance);
  };
  int smallest = top.pct;
  for (const auto& p : sorted) {
    if (keeps_up(p)) smallest = p.pct;
  }
  d.share = smallest / 100.0;
  return d;
}

std::vector<int> parse_sweep_percentages(const std::string& text) {
  const std::string what = "--sweep '" + text + "': expected thread percentages 1..100 separated by commas, e.g. 100,50,25,12";
  std::vector<int> out;
  std::set<int> seen;
  std::size_t begin = 0;
  while (begin <= text.size()) {
    const auto comma = std::min(text.find(',', begin), text.size());
    int v = 0;
    const auto [end, error] = std::from_chars(text.data() + begin, text.data() + comma, v);
    if (error != std::errc() || end != text.data() + comma || v < 1 || v > 100 || !seen.insert(v).second) throw InputError(what);
    out.push_back(v);
    begin = comma + 1;
  }
  return out;
}

}  // namespace gpupack::measure
