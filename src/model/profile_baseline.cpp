#include "model/profile_baseline.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace gpupack {

namespace {

// The larger of the judged spreads (req/s, p50) of a flagged baseline; none when it is not flagged.
std::optional<double> flagged_spread(const std::optional<ProfileBaseline>& b) {
  if (!b || !b->repeatable || *b->repeatable) return std::nullopt;
  return std::max(b->req_spread.value_or(0), b->p50_spread.value_or(0));
}

// How much slower than its median the slowest run of a flagged baseline was (its spread where the runs are
// not known); none when it is not flagged.
std::optional<double> flagged_slowest_run(const std::optional<ProfileBaseline>& b) {
  if (!flagged_spread(b)) return std::nullopt;
  return b->slowest_run ? *b->slowest_run : *flagged_spread(b);
}

const ProfileBaseline* worse_flagged(const ProfileFacts& f) {
  const auto plain = flagged_spread(f.baseline);
  const auto mps = flagged_spread(f.mps_baseline);
  if (!plain && !mps) return nullptr;
  return mps.value_or(-1) > plain.value_or(-1) ? &*f.mps_baseline : &*f.baseline;
}

std::string percent(double share) {
  char text[32];
  std::snprintf(text, sizeof text, "%.0f%%", share * 100);
  return text;
}

}  // namespace

void rebase_on_baseline(ProfileFacts& f) {
  if (!f.baseline || f.baseline->req_per_s <= 0) return;
  f.req_per_s = f.baseline->req_per_s;
  if (f.baseline->p99_ms) f.p99_ms = f.baseline->p99_ms;
}

const ProfileBaseline* mps_planning_baseline(const ProfileFacts& f) {
  if (f.mps_baseline && f.mps_baseline->req_per_s > 0) return &*f.mps_baseline;
  if (f.baseline && f.baseline->req_per_s > 0) return &*f.baseline;
  return nullptr;
}

std::optional<double> unrepeatable_spread(const ProfileFacts& f) {
  const auto plain = flagged_spread(f.baseline);
  const auto mps = flagged_spread(f.mps_baseline);
  if (!plain && !mps) return std::nullopt;
  return std::max(plain.value_or(0), mps.value_or(0));
}

std::optional<double> unrepeatable_slowest_run(const ProfileFacts& f) {
  const auto plain = flagged_slowest_run(f.baseline);
  const auto mps = flagged_slowest_run(f.mps_baseline);
  if (!plain && !mps) return std::nullopt;
  return std::max(plain.value_or(0), mps.value_or(0));
}

std::string unrepeatable_flag(const ProfileFacts& f) {
  const ProfileBaseline* b = worse_flagged(f);
  if (!b) return "";
  return (b == &*f.mps_baseline ? "MPS 100% baseline " : "baseline ") + std::string("not repeatable: ") + b->flag;
}

void judge_baseline(Workload& w, const ModelParameters& m) {
  if (!w.profile || !w.latency_slo_ms) return;
  const auto spread = unrepeatable_spread(*w.profile);
  if (!spread) return;
  if (*spread > m.baseline_spread_unjudged) {
    w.not_judged = "its profile cannot judge it: " + unrepeatable_flag(*w.profile) + ", above the " +
                   percent(m.baseline_spread_unjudged) +
                   " the plan accepts (baseline_spread_unjudged); profile it again (a quieter machine, a longer "
                   "--duration, more --baseline-runs)";
    return;
  }
  // A replica is a fresh start: one as slow as the slowest run alone is that much slower in every request,
  // its p99 included. Not the whole spread: a run faster than the median does not threaten the SLO.
  w.slo_margin = std::max(w.slo_margin.value_or(0), m.baseline_spread_margin * unrepeatable_slowest_run(*w.profile).value_or(*spread));
}

}  // namespace gpupack
