// The table `gpupack bench` prints at the end: one row per measured setting, then the verdicts and the
// parts that were skipped with their reasons.
#include <fmt/format.h>

#include <algorithm>
#include <ostream>

#include "bench/metrics.hpp"
#include "bench/verdicts.hpp"
#include "cli/bench_views.hpp"
#include "cli/table.hpp"

namespace gpupack {

namespace {

using namespace bench;

std::string times(const std::optional<double>& v) { return v ? fmt::format("{:.2f}x", *v) : "-"; }

void add_streams(Table& t, const BenchResults& r) {
  if (!r.streams) return;
  for (const auto& s : r.streams->kernels) {
    t.add({"streams", fmt::format("{} kernels, 1 vs {} streams", s.k, s.k),
           fmt::format("speedup {} ({:.2f} -> {:.2f} ms)", times(stream_speedup(r, s.k)), median(s.serial_ms),
                       median(s.concurrent_ms))});
  }
  const CopyOverlap& c = r.streams->copy;
  t.add({"streams", fmt::format("copy/compute overlap, {} chunks", c.chunks),
         fmt::format("speedup {} ({:.2f} -> {:.2f} ms)", times(copy_overlap_speedup(r)), median(c.serial_ms),
                     median(c.overlapped_ms))});
}

void add_clients(Table& t, const BenchResults& r) {
  for (const auto& c : r.clients) {
    const std::string setting = (c.target.empty() ? "" : c.target + " ") + "K=" + std::to_string(c.k);
    t.add({c.mode, setting,
           fmt::format("per-client {} ({:.3f} s), aggregate {}", times(slowdown(r, c.mode, c.k, c.target)),
                       mean(c.seconds), times(aggregate_throughput(r, c.mode, c.k, c.target)))});
  }
}

void add_isolation(Table& t, const BenchResults& r) {
  for (const auto& run : r.isolation) {
    const LatencySummary s = summarize(run.latency_us);
    std::string text = fmt::format("p50 {:.0f} us, p99 {:.0f} us, p999 {:.0f} us", s.p50, s.p99, s.p999);
    if (auto v = p99_inflation(r, run.setting); v && run.setting != "alone") text += fmt::format(" (p99 {:.2f}x)", *v);
    if (auto f = neighbour_fraction(r, run.setting)) text += fmt::format("; neighbour {:.0f}%", *f * 100);
    t.add({"isolation", run.setting, text});
  }
}

void add_limits(Table& t, const BenchResults& r) {
  for (const auto& c : r.thread_limits) {
    t.add({"limits", fmt::format("active threads {}%", c.percent),
           fmt::format("{}/{} SMs, throughput {:.2f} of 100% (expected {:.2f})", c.sms_seen, c.sm_total,
                       measured_fraction(c), expected_fraction(c))});
  }
  if (const auto& m = r.memory_limit) {
    t.add({"limits", fmt::format("pinned memory {} MiB", m->limit_mib),
           fmt::format("{} MiB {}, {} MiB {}", m->within_mib, m->within_ok ? "ok" : "FAILED", m->beyond_mib,
                       m->beyond_failed ? "refused" : "NOT refused")});
  }
}

std::string copy_range(const measure::GridCell& c, std::optional<double> measure::CopyResult::*field) {
  double lo = 0, hi = 0;
  for (size_t i = 0; i < c.copies.size(); ++i) {
    const double v = (c.copies[i].*field).value_or(0);
    lo = i == 0 ? v : std::min(lo, v);
    hi = i == 0 ? v : std::max(hi, v);
  }
  return c.copies.size() > 1 ? fmt::format("{:.2f}-{:.2f}", lo, hi) : fmt::format("{:.2f}", hi);
}

// The cell's headline: the program's own requests when it reported them, else plainly that it did not.
std::string grid_result(const measure::ColocationGrid& g, const measure::GridCell& c) {
  if (!c.error.empty()) return "FAILED: " + c.error;
  std::string text;
  if (c.k == 0) {
    text = c.neighbour && c.neighbour->req_per_s ? fmt::format("neighbour {:.1f} req/s", *c.neighbour->req_per_s)
                                                 : "neighbour: request rate not reported";
  } else if (const auto agg = measure::aggregate_req_per_s(c)) {
    const auto* one = measure::find_cell(g, c.mode, 1);
    const double base = one ? measure::aggregate_req_per_s(*one).value_or(0.0) : 0.0;
    text = fmt::format("{:.1f} req/s in all", *agg);
    if (base > 0 && c.k != 1 && !c.with_neighbour) text += fmt::format(" ({:.2f}x K=1)", *agg / base);
    text += "; per copy req/s " + copy_range(c, &measure::CopyResult::req_per_s) + ", p50 ms " +
            copy_range(c, &measure::CopyResult::p50_ms) + ", p99 ms " + copy_range(c, &measure::CopyResult::p99_ms);
  } else {
    text = "request latency was not reported";
    if (const auto gpu = measure::mean_gpu_s(c)) {
      const auto* one = measure::find_cell(g, c.mode, 1);
      const double base = one ? measure::mean_gpu_s(*one).value_or(0.0) : 0.0;
      text += fmt::format("; on the GPU {:.2f} s per copy (first GPU use to exit)", *gpu);
      if (base > 0 && c.k != 1 && !c.with_neighbour) text += fmt::format(" ({:.2f}x K=1)", *gpu / base);
    }
  }
  if (c.with_neighbour && c.k > 0) {
    if (const auto f = measure::neighbour_fraction(g, c)) text += fmt::format("; neighbour kept {:.0f}%", *f * 100);
  }
  long malformed = c.neighbour ? c.neighbour->malformed_lines : 0;
  for (const auto& copy : c.copies) malformed += copy.malformed_lines;
  if (malformed > 0) text += fmt::format("; {} malformed report line(s) ignored", malformed);
  if (c.k > 0) text += fmt::format("; wall {:.2f} s", measure::mean_wall_s(c));
  return text;
}

void add_colocation(Table& t, const BenchResults& r) {
  if (!r.colocation) return;
  for (const auto& c : r.colocation->cells) t.add({"client", measure::cell_label(c), grid_result(*r.colocation, c)});
  for (const auto& p : r.sm_share_curve) {
    t.add({"client", fmt::format("mps K=1 at {}% threads", p.pct),
           fmt::format("{:.1f} req/s, p50 ms {}, p99 ms {}", p.req_per_s, p.p50_ms ? fmt::format("{:.2f}", *p.p50_ms) : "-",
                       p.p99_ms ? fmt::format("{:.2f}", *p.p99_ms) : "-")});
  }
}

}  // namespace

void print_bench_summary(std::ostream& out, const BenchResults& r) {
  out << fmt::format("gpupack bench on {} ({}, {} SMs, driver {}, CUDA {}), {:.1f} s\n\n", r.device.name, r.device.uuid,
                     r.device.sm_count, r.device.driver_version.empty() ? "?" : r.device.driver_version,
                     r.device.cuda_driver_version, r.elapsed_s);
  Table t({"PART", "SETTING", "RESULT"});
  add_streams(t, r);
  add_clients(t, r);
  add_isolation(t, r);
  add_limits(t, r);
  add_colocation(t, r);
  t.print(out);
  out << '\n';
  // Only when a verdict could be checked: `--only client` runs none of their experiments.
  const auto all = verdicts(r);
  if (std::any_of(all.begin(), all.end(), [](const Verdict& x) { return x.outcome != Outcome::skipped; })) {
    Table v({"VERDICT", "OUTCOME", "MEASURED", "EXPECTED"});
    for (const auto& verdict : all) {
      v.add({verdict.id, to_string(verdict.outcome), verdict.measured.empty() ? "-" : verdict.measured, verdict.expected});
    }
    v.print(out);
  }
  for (const auto& s : r.skipped) out << "skipped: " << s.part << ": " << s.reason << '\n';
}

}  // namespace gpupack
