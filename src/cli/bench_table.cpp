// The table `gpupack bench` prints at the end: one row per measured setting, then the verdicts and the
// parts that were skipped with their reasons.
#include <fmt/format.h>

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

void add_user_clients(Table& t, const BenchResults& r) {
  for (const auto& u : r.user_clients) {
    std::string codes;
    for (int c : u.exit_codes) codes += (codes.empty() ? "" : ",") + std::to_string(c);
    t.add({"client", u.mode + " K=" + std::to_string(u.k),
           fmt::format("wall mean {:.2f} s, max {:.2f} s, exit {}", mean(u.seconds), max_of(u.seconds), codes)});
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
  add_user_clients(t, r);
  t.print(out);
  out << '\n';
  Table v({"VERDICT", "OUTCOME", "MEASURED", "EXPECTED"});
  for (const auto& verdict : verdicts(r)) {
    v.add({verdict.id, to_string(verdict.outcome), verdict.measured.empty() ? "-" : verdict.measured, verdict.expected});
  }
  v.print(out);
  for (const auto& s : r.skipped) out << "skipped: " << s.part << ": " << s.reason << '\n';
}

}  // namespace gpupack
