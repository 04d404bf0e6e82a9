// A client alone under an MPS cap below its SM-share curve's lowest point (model/profile_alone.hpp): where the
// sweep found it needs more than that point, its kernels take lowest point / cap as long and the rest of a
// request (launch, host) no longer. run45's mobilenet-v3-b8 on an H200 (results/run45-closed-loops): a
// launch-bound program (kernels 25% of its time, 6% of the SMs busy) whose sweep moved with the host (259, 203
// and 227 req/s at 100, 50 and 25%) read as needing every SM; cut in proportion to a 15% cap, four copies were
// predicted at 77 req/s and ran at 174-178.
#include "model/profile_alone.hpp"

#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <vector>

#include "model/prediction_notes.hpp"
#include "planner/scenario_builder.hpp"

namespace gpupack {
namespace {

bool says(const std::vector<std::string>& notes, const std::string& text) {
  for (const auto& n : notes) {
    if (n == text) return true;
  }
  ADD_FAILURE() << "no note \"" << text << "\" among " << notes.size();
  for (const auto& n : notes) ADD_FAILURE() << n;
  return false;
}

ProfileFacts launch_bound_with_a_noisy_sweep() {
  ProfileFacts p = *test::h100_profile(0.057, 258.9, 6.4);
  p.kernel_time = 0.25;
  p.compute_method = "sweep";
  p.compute_demand = 1.0;  // 50% fell 22% below 100%: the sweep's rule says it needs every SM
  p.share_curve = {{25, 227.4, 6.0}, {50, 202.8, 7.0}, {100, 258.9, 6.4}};
  return p;
}

TEST(ProfileAlone, BelowTheCurveOnlyItsKernelsStretch) {
  const ProfileFacts p = launch_bound_with_a_noisy_sweep();
  ClientOutcome out;
  out.source = kProfileSource;
  const Figures f = at_cap(p, 15, false, out);
  // Its kernels (25% of its time) take 25 / 15 as long, 0.42 of its time: within the launches, so it keeps
  // the lowest point's rate (adding them to the rest would say 1 / (0.75 + 0.25 x 5/3) = 0.857 of it).
  EXPECT_NEAR(f.req, 227.4, 1e-6);
  // At 5% they take x5, 1.25 of its time: they set the request's time.
  ClientOutcome five;
  EXPECT_NEAR(at_cap(p, 5, false, five).req, 227.4 / (0.25 * 25.0 / 5.0), 1e-6);
  EXPECT_TRUE(out.extrapolated);
  Workload w;
  w.name = "mobilenet-v3-b8";
  EXPECT_TRUE(says(explain_outcome(out, w, Sharing::mps, ModelParameters{}),
                   "cap 15% below the SM-share curve's lowest point (25%): its kernels (0.25 of its time alone) take "
                   "x1.67 as long, 0.42 of its time alone; they run while its host launches the next ones, so they "
                   "lengthen a request only past its whole time: it keeps 1.00 of its work"));
}

TEST(ProfileAlone, BelowTheCurveASteadyClientOrOneWithoutActivityScalesInProportion) {
  ProfileFacts p = launch_bound_with_a_noisy_sweep();
  p.kernel_time.reset();
  ClientOutcome none;
  // Without NVML's kernel time nothing says how much of a request is not kernel time (its SM activity, 5.7%,
  // is a share of the SMs' capacity, not of its time).
  EXPECT_NEAR(at_cap(p, 15, false, none).req, 227.4 * 15 / 25, 1e-6);
  p.sm_active = 0.93;
  p.kernel_time = 1.0;
  ClientOutcome steady;
  steady.source = kProfileSource;
  EXPECT_NEAR(at_cap(p, 15, false, steady).req, 227.4 * 15 / 25, 1e-6);  // all kernel time: in proportion
  Workload w;
  EXPECT_TRUE(says(explain_outcome(steady, w, Sharing::mps, ModelParameters{}),
                   "cap 15% below the SM-share curve's lowest point (25%): scaled in proportion"));
}

TEST(ProfileAlone, BelowTheCurveAProgramThatHoldsItsRateThereNeedsOnlyItsActivity) {
  ProfileFacts p = launch_bound_with_a_noisy_sweep();
  p.compute_demand = 0.25;  // the sweep found it keeps its req/s at the lowest point
  ClientOutcome out;
  EXPECT_NEAR(at_cap(p, 15, false, out).req, 227.4, 1e-6);  // 15% is more than the 5.7% it keeps busy
}

// Below the grid's smallest K (a grid without K = 1, a time-sliced client beside a light neighbour: K = 1.5)
// no grid note is written, and the worst copy's ratio goes into no other note.
TEST(FromGrid, BelowItsSmallestKTheWorstCopysRatioTouchesNoOtherNote) {
  ProfileFacts p = *test::h100_profile(0.3, 100, 10);
  for (const auto& [k, worst, median] : {std::tuple{2, 14.0, 12.0}, std::tuple{4, 20.0, 16.0}}) {
    ProfileGridPoint g{"timeslicing", k, 150.0 * k / 2, worst};
    g.median_p99_ms = median;
    p.grid.push_back(g);
  }
  ClientOutcome out;
  out.notes.push_back({ModelNote::Kind::gpu_not_in_catalog, {7, 7}});
  const auto f = from_grid(p, Sharing::time_slicing, 1.5, out);
  ASSERT_TRUE(f);
  EXPECT_NEAR(*f->p99, 12.0, 1e-9);                    // the smallest K's median copy
  EXPECT_NEAR(out.worst_copy_ratio, 14.0 / 12.0, 1e-9);  // the SLO check still reads the worst copy's
  EXPECT_TRUE(out.extrapolated);
  ASSERT_EQ(out.notes.size(), 1u);
  EXPECT_EQ(out.notes[0].x[0], 7);
}

}  // namespace
}  // namespace gpupack
