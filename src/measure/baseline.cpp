#include "measure/baseline.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace gpupack::measure {

namespace {

template <class Get>
std::vector<double> figures_of(const std::vector<BaselineRun>& runs, Get get) {
  std::vector<double> out;
  for (const auto& r : runs) {
    if (const std::optional<double> v = get(r)) out.push_back(*v);
  }
  return out;
}

std::optional<double> spread_of_values(const std::vector<double>& values) {
  const auto m = median_of(values);
  if (values.size() < 2 || !m || *m <= 0) return std::nullopt;
  const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
  return (*hi - *lo) / *m;
}

std::string whole_percent(double fraction) {
  char text[32];
  std::snprintf(text, sizeof text, "%.0f%%", fraction * 100);
  return text;
}

// Floating-point slack, so that a spread exactly at the limit passes.
constexpr double kSpreadSlack = 1e-9;

// How busy the whole host was over the runs, where /proc/stat was read: a host that was busy or whose CPU
// the hypervisor took in some runs (a VM) makes a CPU-bound program's baseline vary with it.
std::string host_note(const std::vector<BaselineRun>& runs) {
  std::optional<double> low, high, steal;
  for (const auto& r : runs) {
    if (r.host_busy_cores) {
      low = std::min(low.value_or(*r.host_busy_cores), *r.host_busy_cores);
      high = std::max(high.value_or(*r.host_busy_cores), *r.host_busy_cores);
    }
    if (r.host_steal_share) steal = std::max(steal.value_or(0), *r.host_steal_share);
  }
  if (!low) return "";
  char range[64];
  std::snprintf(range, sizeof range, "%.1f-%.1f", *low, *high);
  std::string note = std::string("; the host over the runs: ") + range + " cores busy in all";
  if (steal && *steal >= 0.01) note += ", up to " + whole_percent(*steal) + " of its CPU time stolen by the hypervisor";
  return note;
}

// Whether its speed moved within a run: the run whose per-second median latency moved most, where it moved
// by a quarter or more. On the device machines a launch-bound program went from 4.8 to 2.4 ms a request
// within one run with the host idle and the GPU's clock fixed (results/run41-residual-noise): the spread
// is in the machine beneath, not in how the runs were started.
std::string within_run_note(const std::vector<BaselineRun>& runs) {
  const BaselineRun* most = nullptr;
  for (const auto& r : runs) {
    if (!r.p50_second_low_ms || !r.p50_second_high_ms || *r.p50_second_low_ms <= 0) continue;
    if (!most || *r.p50_second_high_ms / *r.p50_second_low_ms > *most->p50_second_high_ms / *most->p50_second_low_ms) most = &r;
  }
  if (!most || *most->p50_second_high_ms < 1.25 * *most->p50_second_low_ms) return "";
  char range[96];
  std::snprintf(range, sizeof range, "%.3g-%.3g ms", *most->p50_second_low_ms, *most->p50_second_high_ms);
  return std::string("; within one run its median latency second by second moved ") + range;
}

// The host's cores' speed over the runs, where the CPU probe ran (os/cpu_work_probe.hpp): judged by each run's
// median (one slow sample is a preemption, not a slower core). A run's median a quarter or more above
// another's says the cores changed speed beneath the program (run74: medians 1.89-2.63 ms while bert's req/s
// spread 27%); steady medians say the cores' own speed does not explain the spread.
std::string core_work_note(const std::vector<BaselineRun>& runs) {
  const auto work = core_work_over_runs(runs);
  if (!work) return "";
  const auto [fastest, slowest] = std::minmax_element(work->medians.begin(), work->medians.end());
  if (*fastest <= 0) return "";
  char text[200];
  if (*slowest < 1.25 * *fastest) {
    std::snprintf(text, sizeof text,
                  "; the host's cores kept their speed: a fixed piece of CPU work took a median of %.3g-%.3g ms a run (samples %.3g-%.3g ms)",
                  *fastest, *slowest, work->low_ms, work->high_ms);
    return text;
  }
  std::string medians;
  for (const double m : work->medians) {
    char one[32];
    std::snprintf(one, sizeof one, "%s%.3g", medians.empty() ? "" : ", ", m);
    medians += one;
  }
  return "; the host's cores changed speed between runs: a fixed piece of CPU work took a median of " + medians + " ms by run";
}

}  // namespace

std::optional<double> median_of(std::vector<double> values) {
  if (values.empty()) return std::nullopt;
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

std::optional<HostCoreWork> summarize_core_work(const std::vector<double>& ms) {
  if (ms.empty()) return std::nullopt;
  const auto [lo, hi] = std::minmax_element(ms.begin(), ms.end());
  return HostCoreWork{*lo, *median_of(ms), *hi, static_cast<int>(ms.size())};
}

std::optional<CoreWorkOverRuns> core_work_over_runs(const std::vector<BaselineRun>& runs) {
  std::optional<CoreWorkOverRuns> out;
  for (const auto& r : runs) {
    if (!r.host_core_work) continue;
    const HostCoreWork& w = *r.host_core_work;
    if (!out) out = CoreWorkOverRuns{w.low_ms, w.high_ms, {}};
    out->low_ms = std::min(out->low_ms, w.low_ms);
    out->high_ms = std::max(out->high_ms, w.high_ms);
    out->medians.push_back(w.median_ms);
  }
  return out;
}

std::string Baseline::source() const {
  return runs.size() == 1 ? "1 run" : "median of " + std::to_string(runs.size()) + " runs";
}

Baseline summarize_baseline(std::string setting, std::vector<BaselineRun> runs, double spread_limit) {
  if (runs.empty()) throw std::invalid_argument("a baseline needs at least one run");
  auto req = [](const BaselineRun& r) -> std::optional<double> { return r.req_per_s; };
  auto p50 = [](const BaselineRun& r) { return r.p50_ms; };
  auto p99 = [](const BaselineRun& r) { return r.p99_ms; };
  auto cpu = [](const BaselineRun& r) { return r.host_cpu_cores; };
  Baseline b;
  b.setting = std::move(setting);
  b.spread_limit = spread_limit;
  b.req_per_s = median_of(figures_of(runs, req)).value_or(0);
  b.p50_ms = median_of(figures_of(runs, p50));
  b.p99_ms = median_of(figures_of(runs, p99));
  b.host_cpu_cores = median_of(figures_of(runs, cpu));
  b.spread = {spread_of_values(figures_of(runs, req)), spread_of_values(figures_of(runs, p50)),
              spread_of_values(figures_of(runs, p99))};
  b.runs = std::move(runs);
  if (b.runs.size() < 2) return b;  // one run: repeatability not measured
  std::string over;
  const std::string runs_text = " over " + std::to_string(b.runs.size()) + " runs (limit " + whole_percent(spread_limit) + ")";
  for (const auto& [name, spread] : {std::pair<const char*, std::optional<double>>{"req/s", b.spread.req_per_s}, {"p50", b.spread.p50_ms}}) {
    if (spread && *spread > spread_limit + kSpreadSlack) over += std::string(over.empty() ? "" : ", ") + name + " spread " + whole_percent(*spread);
  }
  b.repeatable = over.empty();
  if (!over.empty()) b.flag = over + runs_text + host_note(b.runs) + core_work_note(b.runs) + within_run_note(b.runs);
  return b;
}

std::size_t representative_run(const std::vector<BaselineRun>& runs) {
  std::vector<double> rates;
  for (const auto& r : runs) rates.push_back(r.req_per_s);
  const double median = median_of(rates).value_or(0);
  std::size_t best = 0;
  for (std::size_t i = 1; i < runs.size(); ++i) {
    const double d = std::fabs(runs[i].req_per_s - median), best_d = std::fabs(runs[best].req_per_s - median);
    if (d < best_d || (d == best_d && runs[i].req_per_s < runs[best].req_per_s)) best = i;
  }
  return best;
}

std::string baseline_warning(const Baseline& b, const std::string& what) {
  return b.flag ? what + " not repeatable: " + *b.flag : "";
}

std::optional<double> slowest_run(const Baseline& b) {
  if (b.runs.size() < 2) return std::nullopt;
  double slowest = 0;
  for (const BaselineRun& r : b.runs) {
    if (r.req_per_s > 0 && b.req_per_s > 0) slowest = std::max(slowest, b.req_per_s / r.req_per_s - 1);
    if (r.p50_ms && b.p50_ms && *b.p50_ms > 0) slowest = std::max(slowest, *r.p50_ms / *b.p50_ms - 1);
  }
  return slowest;
}

std::optional<ProfileBaseline> baseline_facts(const std::optional<Baseline>& b) {
  if (!b) return std::nullopt;
  ProfileBaseline out{b->source(),       static_cast<int>(b->run_count()), b->req_per_s, b->p50_ms, b->p99_ms,
                      b->spread.req_per_s, b->spread.p50_ms, b->spread.p99_ms, b->spread_limit, b->repeatable,
                      b->flag.value_or(""), slowest_run(*b)};
  const auto range = [](const std::vector<double>& values, std::optional<double> median, std::optional<double>& low,
                        std::optional<double>& high) {
    if (values.size() < 2 || !median || *median <= 0) return;
    const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
    low = *lo / *median;
    high = *hi / *median;
  };
  range(figures_of(b->runs, [](const BaselineRun& r) { return std::optional<double>(r.req_per_s); }), b->req_per_s,
        out.req_low, out.req_high);
  range(figures_of(b->runs, [](const BaselineRun& r) { return r.p99_ms; }), b->p99_ms, out.p99_low, out.p99_high);
  out.host_core_work_ms = median_of(figures_of(b->runs, [](const BaselineRun& r) {
    return r.host_core_work ? std::optional<double>(r.host_core_work->median_ms) : std::nullopt;
  }));
  return out;
}

}  // namespace gpupack::measure
