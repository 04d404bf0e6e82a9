#include "measure/sm_share_sweep.hpp"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <functional>
#include <set>

#include "core/errors.hpp"

namespace gpupack::measure {

namespace {

SweepRun measure_one(const SteadyOptions& base, const SweepOptions& o, const SweepDeps& deps, int pct, int run_number) {
  const std::string where = "sweep at " + std::to_string(pct) + "% threads" + (run_number > 1 ? " (run " + std::to_string(run_number) + ")" : "");
  if (deps.on_start) deps.on_start(pct, run_number);
  SteadyOptions run = base;
  run.env.insert(o.mps_env.begin(), o.mps_env.end());
  run.env["CUDA_MPS_ACTIVE_THREAD_PERCENTAGE"] = std::to_string(pct);
  run.report_path = o.report_dir + "/report-" + std::to_string(pct) + "-" + std::to_string(run_number) + ".jsonl";
  run.require_gpu = false;  // under MPS the server may hold the memory: the ready line starts the window
  auto source = deps.open_report(run.report_path);
  SteadyRun result;
  try {
    result = measure_steady(run, {deps.runner, deps.gpu, deps.proc, deps.clock, *source, deps.catalog});
  } catch (const ProfileError& e) {
    throw ProfileError(where + ": " + e.what());
  }
  const auto& r = result.profile.requests;
  if (!r || !r->p99_ms) {
    throw ProfileError(where + ": the program reported no request latencies in its window; --sweep compares the "
                       "program's own p99 and req/s, so it must write its client report (docs/client-report.md)");
  }
  return {r->req_per_s, r->p50_ms, r->p99_ms};
}

// The mean of one figure over the runs that report it.
template <class Get>
std::optional<double> mean_over(const std::vector<SweepRun>& runs, Get get) {
  double sum = 0;
  int n = 0;
  for (const auto& r : runs) {
    if (const std::optional<double> v = get(r)) {
      sum += *v;
      ++n;
    }
  }
  if (n == 0) return std::nullopt;
  return sum / n;
}

template <class Get>
std::optional<double> spread_over(const std::vector<SweepRun>& runs, Get get) {
  std::vector<double> values;
  for (const auto& r : runs) {
    if (const std::optional<double> v = get(r)) values.push_back(*v);
  }
  const auto m = mean_over(runs, get);
  if (values.size() < 2 || !m || *m <= 0) return std::nullopt;
  const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
  return (*hi - *lo) / *m;
}

std::optional<double> req_of(const SweepRun& r) { return r.req_per_s; }
std::optional<double> p50_of(const SweepRun& r) { return r.p50_ms; }
std::optional<double> p99_of(const SweepRun& r) { return r.p99_ms; }

std::string signed_percent(double fraction) {
  char text[32];
  std::snprintf(text, sizeof text, "%+.1f%%", fraction * 100);
  return text;
}

// Floating-point slack, so that a figure exactly at its limit passes.
constexpr double kSlack = 1e-9;

// One figure against the reference: "p99 +23.6% (limit +25%)"; `fails` says whether it is over the limit.
// `higher_is_worse`: latency; else throughput. Missing reference: not checked; missing figure: fails.
std::string check(const char* name, std::optional<double> value, std::optional<double> reference, double limit,
                  bool higher_is_worse, bool& fails) {
  if (!reference || *reference <= 0) return "";
  if (!value) {
    fails = true;
    return std::string(name) + " not reported";
  }
  const double change = *value / *reference - 1;
  const bool over = higher_is_worse ? change > limit + kSlack : change < -limit - kSlack;
  fails = fails || over;
  return std::string(name) + " " + signed_percent(change) + (over ? " over the limit " : " (limit ") +
         signed_percent(higher_is_worse ? limit : -limit) + (over ? "" : ")");
}

}  // namespace

std::vector<SmSharePoint> run_sweep(const SteadyOptions& base, const SweepOptions& o, const SweepDeps& deps) {
  std::vector<int> order = o.percentages;
  std::sort(order.rbegin(), order.rend());
  std::map<int, std::vector<SweepRun>, std::greater<>> runs;
  for (int pass = 1; pass <= std::max(1, o.repeat); ++pass) {
    for (int pct : order) {
      if (pass > 1 && !o.repeat_all && pct != order.front()) continue;
      runs[pct].push_back(measure_one(base, o, deps, pct, pass));
    }
  }
  std::vector<SmSharePoint> curve;
  for (auto& [pct, measured] : runs) curve.push_back(point_from_runs(pct, std::move(measured)));
  return curve;
}

SmSharePoint point_from_runs(int pct, std::vector<SweepRun> runs) {
  SmSharePoint p(pct, mean_over(runs, req_of).value_or(0), mean_over(runs, p50_of), mean_over(runs, p99_of));
  p.runs = std::move(runs);
  return p;
}

RunSpread spread_of(const SmSharePoint& point) {
  return {spread_over(point.runs, req_of), spread_over(point.runs, p50_of), spread_over(point.runs, p99_of)};
}

ComputeDemand judge_sweep(std::vector<SmSharePoint>& curve, const DemandRule& rule) {
  ComputeDemand d;
  d.method = "sweep";
  d.tolerance = rule.tolerance;
  d.p99_tolerance = rule.p99_tolerance;
  d.p99_limit = rule.p99_tolerance;
  if (curve.empty()) return d;
  std::sort(curve.begin(), curve.end(), [](const auto& a, const auto& b) { return a.pct > b.pct; });
  const SmSharePoint& top = curve.front();
  if (const auto p99_spread = spread_of(top).p99_ms) d.p99_limit = std::max(rule.p99_tolerance, 2 * *p99_spread);
  const std::size_t top_runs = std::max<std::size_t>(1, top.runs.size());
  curve.front().verdict = ShareVerdict{true, true, "the reference (" + std::to_string(top_runs) + (top_runs == 1 ? " run)" : " runs)")};
  // The demand is the smallest share that passes. A larger share that failed while a smaller one passes is
  // reported, not trusted: on an H100 one process's req/s and p50 vary 10-15% between starts (see
  // results/README.md), more than the tolerance, so such a failure is far more often noise than a
  // program that runs better on fewer SMs. Its verdict says so; --repeat-all re-measures every share.
  int smallest = curve.front().pct;
  bool larger_failed = false;
  for (std::size_t i = 1; i < curve.size(); ++i) {
    SmSharePoint& p = curve[i];
    bool fails = false;
    std::string why;
    for (const std::string& part : {check("req/s", p.req_per_s, top.req_per_s, rule.tolerance, false, fails),
                                    check("p50", p.p50_ms, top.p50_ms, rule.tolerance, true, fails),
                                    check("p99", p.p99_ms, top.p99_ms, *d.p99_limit, true, fails)}) {
      if (!part.empty()) why += (why.empty() ? "" : ", ") + part;
    }
    if (!fails && larger_failed) why += "; a larger share failed: likely noise (--repeat-all re-measures every share)";
    larger_failed = larger_failed || fails;
    if (!fails) smallest = p.pct;
    p.verdict = ShareVerdict{!fails, !fails, why};
  }
  d.share = smallest / 100.0;
  return d;
}

ComputeDemand demand_from_sweep(const std::vector<SmSharePoint>& curve, double tolerance) {
  std::vector<SmSharePoint> judged = curve;
  DemandRule rule;
  rule.tolerance = tolerance;
  return judge_sweep(judged, rule);
}

std::vector<int> parse_sweep_percentages(const std::string& text, const std::string& option) {
  const std::string what = option + " '" + text + "': expected thread percentages 1..100 separated by commas, e.g. 100,50,25,12";
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
