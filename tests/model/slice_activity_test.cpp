// The SM activity a slice's clients keep together, predicted from their profiles (model/slice_activity.hpp):
// the union of independent activities, one factor a process, each at most its MPS cap, scaled to the slice.
#include "model/slice_activity.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "planner/scenario_builder.hpp"

namespace gpupack {
namespace {

const SliceCapacity kWholeH100Sms{132, 3350};

Workload profiled(const std::string& name, std::optional<double> sm_active) {
  Workload w = test::workload(name, 2, 0.2);
  auto p = test::h100_profile(0, 300, 5);
  p->sm_active = sm_active;
  w.profile = p;
  return w;
}

TEST(SliceActivity, ActivitiesOverlapAsIfIndependentNotAdd) {
  const Workload bert = profiled("bert", 0.088), resnet = profiled("resnet", 0.396);
  // Four of one and two of the other, as processes: 1 - (1 - 0.088)^4 (1 - 0.396)^2.
  const auto a = predicted_sm_active(Sharing::mps, kWholeH100Sms, {{&bert, 4, 0.1, 100}, {&resnet, 2, 0.4, 100}});
  ASSERT_TRUE(a);
  EXPECT_NEAR(*a, 1 - std::pow(0.912, 4) * std::pow(0.604, 2), 1e-12);
  EXPECT_LT(*a, 4 * 0.088 + 2 * 0.396);  // not their sum (1.14)
  // One process alone keeps what its profile measured.
  EXPECT_NEAR(*predicted_sm_active(Sharing::exclusive, kWholeH100Sms, {{&resnet, 1, 0.4, std::nullopt}}), 0.396, 1e-12);
}

TEST(SliceActivity, AnMpsCapBoundsAProcessAndASmallerSliceScalesItsActivity) {
  const Workload gemm = profiled("gemm", 0.98);
  EXPECT_NEAR(*predicted_sm_active(Sharing::mps, kWholeH100Sms, {{&gemm, 1, 0.3, 30}}), 0.30, 1e-12);
  // Half the SMs (a MIG instance of 66): twice the share of them, at most all.
  const Workload small = profiled("small", 0.2);
  EXPECT_NEAR(*predicted_sm_active(Sharing::exclusive, {66, 1675}, {{&small, 1, 0.4, std::nullopt}}), 0.4, 1e-12);
  EXPECT_NEAR(*predicted_sm_active(Sharing::exclusive, {66, 1675}, {{&gemm, 1, 1.0, std::nullopt}}), 1.0, 1e-12);
}

TEST(SliceActivity, NoneWithoutEveryActivityMeasuredOrWhereClientsTakeTurns) {
  const Workload known = profiled("known", 0.3);
  Workload unknown = test::workload("unknown", 2, 0.2);
  EXPECT_FALSE(predicted_sm_active(Sharing::mps, kWholeH100Sms, {{&known, 1, 0.3, 50}, {&unknown, 1, 0.2, 50}}));
  const Workload no_gpm = profiled("no-gpm", std::nullopt);
  EXPECT_FALSE(predicted_sm_active(Sharing::mps, kWholeH100Sms, {{&no_gpm, 1, 0.3, 50}}));
  EXPECT_FALSE(predicted_sm_active(Sharing::time_slicing, kWholeH100Sms, {{&known, 2, 0.3, std::nullopt}}));
  EXPECT_TRUE(predicted_sm_active(Sharing::time_slicing, kWholeH100Sms, {{&known, 1, 0.3, std::nullopt}}));
  EXPECT_FALSE(predicted_sm_active(Sharing::mps, kWholeH100Sms, {}));
}

}  // namespace
}  // namespace gpupack
