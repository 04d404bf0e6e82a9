#include "verify/verify_verdict.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/exit_codes.hpp"
#include "verify/model_replay.hpp"

namespace gpupack::verify {

namespace {

// A p99 miss that is within the tolerance once the requests the shared stalls met are left out is the
// machine's stalls, not the model's error (docs/verify.md, "Shared stalls"): the count says which it was.
std::string stalls_text(const VerifyReport& r) {
  size_t misses = 0, quiet_within = 0;
  for (const auto& v : r.replicas) {
    if (!v.p99_error || std::fabs(*v.p99_error) <= r.tolerance) continue;
    ++misses;
    quiet_within += v.p99_error_without_stalls && std::fabs(*v.p99_error_without_stalls) <= r.tolerance;
  }
  if (quiet_within == 0) return "";
  return fmt::format("; {} of the {} p99 misses within the tolerance without the requests shared stalls met", quiet_within, misses);
}

}  // namespace

const char* verdict_name(Verdict v) {
  switch (v) {
    case Verdict::pass: return "pass";
    case Verdict::warn: return "warn";
    case Verdict::fail: return "fail";
  }
  return "fail";
}

Verdict replica_verdict(const ReplicaVerdict& v) {
  if (v.slo_met == false || !v.failures.empty()) return Verdict::fail;
  return v.warnings.empty() ? Verdict::pass : Verdict::warn;
}

Verdict report_verdict(const VerifyReport& r) {
  Verdict worst = Verdict::pass;
  for (const auto& v : r.replicas) worst = std::max(worst, replica_verdict(v));
  return worst;
}

int replicas_off_prediction(const VerifyReport& r) {
  return static_cast<int>(std::count_if(r.replicas.begin(), r.replicas.end(), [](const ReplicaVerdict& v) { return !v.warnings.empty(); }));
}

TargetCount replicas_within_targets(const VerifyReport& r) {
  TargetCount out;
  for (const auto& v : r.replicas) {
    if (!v.p99_error || !v.throughput_error) continue;
    ++out.judged;
    out.within_both += within_both_targets(*v.throughput_error, *v.p99_error);
  }
  return out;
}

std::string targets_text(const VerifyReport& r) {
  const TargetCount c = replicas_within_targets(r);
  if (c.judged == 0) return "";
  return fmt::format("predictions: {} of {} replicas within p99 {:.0f}% and req/s {:.0f}% of measured", c.within_both,
                     c.judged, kReplayP99Target * 100, kReplayReqPerSTarget * 100);
}

int verify_exit_code(const VerifyReport& r) {
  const Verdict v = report_verdict(r);
  return v == Verdict::fail || (v == Verdict::warn && r.strict) ? exit_code::negative : exit_code::ok;
}

std::string verdict_text(const VerifyReport& r) {
  size_t with_slo = 0, broken = 0, failed_check = 0;
  for (const auto& v : r.replicas) {
    with_slo += v.slo_met.has_value();
    broken += v.slo_met == false;
    failed_check += !v.failures.empty();
  }
  const size_t n = r.replicas.size();
  const int off = replicas_off_prediction(r);
  const std::string off_text =
      off > 0 ? fmt::format("{} of {} replicas ran off the prediction beyond {:.0f}%", off, n, r.tolerance * 100) : "";
  switch (report_verdict(r)) {
    case Verdict::fail:
      // What failed, counted: an SLO broken is the plan's failure; a crash or memory over its limit the
      // verdicts name one by one; prediction errors are counted beside them, as warnings.
      return fmt::format("FAILED: {} of {} replicas with an SLO broke it; {} of {} replicas failed a check (a crash, "
                         "memory over its limit, no request reported: see the verdicts){}{}",
                         broken, with_slo, failed_check, n, off > 0 ? "; warnings: " + off_text : "", stalls_text(r));
    case Verdict::warn: {
      const std::string held = with_slo > 0 ? "every SLO held" : "no crash, no memory over its limit (no SLO checked: --scenario gives them)";
      if (r.strict) return fmt::format("FAILED (--strict): {}, but {} (see the verdicts){}", held, off_text, stalls_text(r));
      return fmt::format("PASSED: {}; {} (warnings in the verdicts){}", held, off_text, stalls_text(r));
    }
    case Verdict::pass: break;
  }
  return with_slo > 0 ? "PASSED: every SLO held and every prediction within the tolerance"
                      : "PASSED: no crash, no memory over its limit, every prediction within the tolerance (no SLO "
                        "checked: --scenario gives them)";
}

}  // namespace gpupack::verify
