// A client alone under an MPS cap, from its profile (model/profile_prediction.cpp): where no SM-share
// curve was measured, or the cap lies below the curve's lowest point, the cap keeps a share of its req/s
// in proportion; its mean request lengthens with it, and its tail beyond the mean stays its own.
#include <gtest/gtest.h>

#include <memory>

#include "model/predict_clients.hpp"
#include "model/profile_prediction.hpp"
#include "scenario_builder.hpp"

namespace gpupack {
namespace {

// A saturating job measured on an H100: 85% of the SMs busy, 555 req/s, p99 2.086 ms alone (mean 1.80 ms).
std::shared_ptr<ProfileFacts> saturating() {
  auto p = test::h100_profile(0.85, 555, 2.086);
  p->gpu_bandwidth_gbs = 3350;
  p->dram_bw = 0.2;
  return p;
}

ClientPrediction alone_under_cap(std::shared_ptr<ProfileFacts> p, int cap) {
  Workload w = test::workload("job", 1, 0, 1);
  w.profile = std::move(p);
  const std::vector<PredictionInput> in{{&w, 1, 1.0, cap, 1.0}};
  return test::predict_clients(Sharing::mps, {132, 3350}, in)[0];
}

TEST(ProfileCap, WithoutACurveTheCapKeepsItsShareAndTheTailBeyondTheMeanStays) {
  const ClientPrediction p = alone_under_cap(saturating(), 40);
  const double kept = 0.40 / 0.85;
  EXPECT_TRUE(p.extrapolated);
  EXPECT_NEAR(*p.req_per_s, 555 * kept, 1e-9);
  // Its mean request grows 1 / kept; its p99 exceeds it by what it did alone (2.086 - 1000 / 555 ms), not
  // by that x 1 / kept: 1.07x its mean here, where the GEMM job measured 1.03-1.10x beside neighbours.
  EXPECT_NEAR(*p.p99_ms, 1000 / (555 * kept) + (2.086 - 1000.0 / 555), 1e-9);
  EXPECT_LT(*p.p99_ms * *p.req_per_s / 1000, 1.08);
  // Uncapped, or capped above what it keeps busy: its figures alone.
  EXPECT_NEAR(*alone_under_cap(saturating(), 90).p99_ms, 2.086, 1e-9);
}

TEST(ProfileCap, BelowTheCurvesLowestPointItsFiguresThereScaleTheSameWay) {
  auto p = saturating();
  p->share_curve = {{50, 400, 3.0}, {100, 555, 2.086}};  // at 50%: mean 2.5 ms, p99 0.5 ms beyond it
  const ClientPrediction c = alone_under_cap(p, 25);
  EXPECT_TRUE(c.extrapolated);
  EXPECT_NEAR(*c.req_per_s, 200, 1e-9);
  EXPECT_NEAR(*c.p99_ms, 5.0 + 0.5, 1e-9);
}

// Issue 37's decode loop, as profiled on an H100 (run of 2026-11-27): 1.8% of the SMs busy, its req/s the
// same at 25%, 50% and 100% (compute demand 0.25 from the sweep). A 5% cap is below the curve but above
// what it keeps busy: it keeps all its work (the old proportional rule made it 5x slower, and the plan
// placed 1 of 40 where verify --search fit 7 without MPS).
TEST(ProfileCap, BelowAFlatCurveTheMeasuredActivityIsWhatItNeeds) {
  auto p = test::h100_profile(0.0183, 12.9, 89.3);
  p->share_curve = {{25, 14.5, 91.5}, {50, 13.5, 99.3}, {100, 14.5, 89.6}};
  p->compute_demand = 0.25;
  p->compute_method = "sweep";
  ClientPrediction c = alone_under_cap(p, 5);
  EXPECT_TRUE(c.extrapolated);
  // (Figures rebase on the profile's uncapped req/s alone, 12.9: the curve's top point is 14.5.)
  EXPECT_NEAR(*c.req_per_s, 12.9, 1e-9);
  EXPECT_LT(*c.p99_ms, 1.1 * 89.3);
  // Capped below what it keeps busy, it loses work in proportion to that need, not to the lowest point.
  c = alone_under_cap(p, 1);
  EXPECT_NEAR(*c.req_per_s, 12.9 / 1.83, 1e-9);
  // Not flat (the sweep's rule put its demand above the lowest point): scaled from the lowest point.
  p->compute_demand = 0.5;
  EXPECT_NEAR(*alone_under_cap(p, 5).req_per_s, 12.9 * 5 / 25, 1e-9);
}

}  // namespace
}  // namespace gpupack
