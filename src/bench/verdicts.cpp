#include "bench/verdicts.hpp"

#include <cmath>

#include <fmt/format.h>

#include "bench/metrics.hpp"

namespace gpupack::bench {

const char* to_string(Outcome outcome) {
  switch (outcome) {
    case Outcome::pass: return "pass";
    case Outcome::fail: return "FAIL";
    case Outcome::skipped: return "skipped";
  }
  return "?";
}

namespace {

Verdict streams_verdict(const BenchResults& r) {
  Verdict v{"streams_concurrency", "kernels that leave SMs free run concurrently on separate streams",
            fmt::format("2 streams >= {:.2f}x faster than 1", kMinStreamSpeedup), "", Outcome::skipped};
  if (auto s = stream_speedup(r, 2)) {
    v.measured = fmt::format("{:.2f}x", *s);
    v.outcome = *s >= kMinStreamSpeedup ? Outcome::pass : Outcome::fail;
  }
  return v;
}

Verdict contention_verdict(const BenchResults& r) {
  Verdict v{"timeslicing_contention", "two processes without MPS slow each other down",
            fmt::format("per-process slowdown at K=2 within {:.1f}x..{:.1f}x", kMinContention, kMaxContention), "",
            Outcome::skipped};
  if (auto s = slowdown(r, measured_mode(Sharing::time_slicing), 2)) {
    v.measured = fmt::format("{:.2f}x", *s);
    v.outcome = *s >= kMinContention && *s <= kMaxContention ? Outcome::pass : Outcome::fail;
  }
  return v;
}

// "Most of the slowdown": MPS keeps less than half of time-slicing's excess time at K=2.
Verdict mps_verdict(const BenchResults& r) {
  Verdict v{"mps_removes_contention", "MPS removes most of that slowdown for kernels that leave SMs free",
            "MPS excess slowdown at K=2 < half of time-slicing's", "", Outcome::skipped};
  const auto ts = slowdown(r, measured_mode(Sharing::time_slicing), 2);
  const auto mps = slowdown(r, measured_mode(Sharing::mps), 2);
  if (ts && mps) {
    v.measured = fmt::format("MPS {:.2f}x vs time-slicing {:.2f}x", *mps, *ts);
    v.outcome = (*mps - 1) < 0.5 * (*ts - 1) ? Outcome::pass : Outcome::fail;
  }
  return v;
}

Verdict cap_verdict(const BenchResults& r) {
  Verdict v{"thread_cap_holds", "an active thread percentage caps a client's throughput as expected",
            fmt::format("throughput within {:.0f}% of the expected share", kCapTolerance * 100), "", Outcome::skipped};
  bool all = true;
  for (const auto& c : r.thread_limits) {
    if (c.percent >= 100) continue;
    const double ratio = measured_fraction(c) / expected_fraction(c);
    v.measured += fmt::format("{}{}%: {:.2f} of expected", v.measured.empty() ? "" : ", ", c.percent, ratio);
    all = all && std::abs(ratio - 1) <= kCapTolerance;
  }
  if (!v.measured.empty()) v.outcome = all ? Outcome::pass : Outcome::fail;
  return v;
}

Verdict memory_verdict(const BenchResults& r) {
  Verdict v{"memory_limit_holds", "a pinned device memory limit is enforced",
            "allocation within the limit succeeds, beyond it fails", "", Outcome::skipped};
  if (const auto& m = r.memory_limit) {
    v.measured = fmt::format("limit {} MiB: {} MiB {}, {} MiB {}", m->limit_mib, m->within_mib,
                             m->within_ok ? "ok" : "failed (" + m->within_error + ")", m->beyond_mib,
                             m->beyond_failed ? "refused (" + m->beyond_error + ")" : "succeeded");
    v.outcome = m->within_ok && m->beyond_failed ? Outcome::pass : Outcome::fail;
  }
  return v;
}

}  // namespace

std::vector<Verdict> verdicts(const BenchResults& r) {
  return {streams_verdict(r), contention_verdict(r), mps_verdict(r), cap_verdict(r), memory_verdict(r)};
}

bool any_failed(const std::vector<Verdict>& verdicts) {
  for (const auto& v : verdicts) {
    if (v.outcome == Outcome::fail) return true;
  }
  return false;
}

}  // namespace gpupack::bench
