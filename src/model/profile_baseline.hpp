#pragma once
// Which alone baseline a profile's predictions rest on, stated (issue 36, item 2; docs/profile.md,
// "Repeatable baseline"): the median over `gpupack profile --baseline-runs` fresh runs where the profile
// has one (the MPS 100% baseline for MPS slices where the sweep measured it, the plain one otherwise),
// else the old single window. And what an unrepeatable baseline costs the workload: a wider SLO margin,
// or, past a bound, no placement. Pure.
#include <optional>
#include <string>

#include "core/profile_facts.hpp"
#include "core/workload.hpp"
#include "model/model_parameters.hpp"

namespace gpupack {

// The profile's alone figures rebased on its plain baseline's medians (req/s, p99) where it has one: the
// profile's `requests` is one run (the one nearest the median), its p99 not the median p99. A profile
// without a baseline is left as it is (its one window).
void rebase_on_baseline(ProfileFacts& f);

// The baseline an MPS slice's figures rest on: the MPS 100% baseline where measured, else the plain one;
// none for a profile without a baseline (its single window).
const ProfileBaseline* mps_planning_baseline(const ProfileFacts& f);

// The larger judged spread (req/s, p50) of a baseline flagged not repeatable, over the plain and the MPS
// baseline; none where no baseline is flagged.
std::optional<double> unrepeatable_spread(const ProfileFacts& f);

// How much slower than its median the slowest run of a baseline flagged not repeatable was, the larger over
// the plain and the MPS baseline (ProfileBaseline::slowest_run; the spread where the runs are not known);
// none where no baseline is flagged.
std::optional<double> unrepeatable_slowest_run(const ProfileFacts& f);

// What an unrepeatable baseline does to a workload with an SLO (attach_profiles applies it): its margin is
// at least baseline_spread_margin x how much slower than the median its slowest run alone was
// (unrepeatable_slowest_run), and above baseline_spread_unjudged `not_judged` says why
// it is not placed. Nothing for a repeatable (or unjudged, one-run) baseline or a workload without an SLO.
void judge_baseline(Workload& w, const ModelParameters& m);

// "req/s spread 38% over 3 runs (limit 10%)" of the flagged baseline with the larger spread; "" when none.
std::string unrepeatable_flag(const ProfileFacts& f);

}  // namespace gpupack
