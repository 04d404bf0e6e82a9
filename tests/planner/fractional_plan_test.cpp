// Plans on a fleet of AWS fractional L4s (docs/fractional-gpus.md): time-slicing or a replica alone, never MPS
// or MIG, a fraction's compute is its share of the L4, and the plan checker accepts them and refuses MPS there.
#include <gtest/gtest.h>

#include "planner/plan_checker.hpp"
#include "planner/planner.hpp"
#include "scenario_builder.hpp"

namespace gpupack {

namespace {

using test::fleet;
using test::workload;

Scenario small_services_on_eighths() {
  Scenario s;
  s.fleet = {fleet("L4-1/8", 6)};
  Workload notebook = workload("notebook", 0.5, 0.005, 4);
  notebook.pattern = UsagePattern::intermittent;
  s.workloads = {workload("embedder", 1, 0.01, 2), notebook};
  return s;
}

int placed(const Plan& p) {
  int n = 0;
  for (const auto& g : p.gpus)
    for (const auto& sl : g.slices) n += static_cast<int>(sl.clients.size());
  return n;
}

}  // namespace

TEST(FractionalPlan, TimeSlicesOrRunsAloneAndPassesTheChecker) {
  const Scenario s = small_services_on_eighths();
  const Plan plan = make_plan(s, {});
  for (const auto& e : check_plan(s, plan, {})) ADD_FAILURE() << e;
  EXPECT_EQ(placed(plan), 6);
  bool time_sliced = false;
  for (const auto& g : plan.gpus) {
    EXPECT_TRUE(g.mode == GpuMode::exclusive || g.mode == GpuMode::time_slicing) << g.id;
    time_sliced = time_sliced || g.mode == GpuMode::time_slicing;
    for (const auto& r : g.rejected) {
      if (r.mode == GpuMode::mps) {
        EXPECT_NE(r.breaks.find("fractional"), std::string::npos) << r.breaks;
      }
    }
  }
  EXPECT_TRUE(time_sliced);
}

TEST(FractionalPlan, EveryForcedModePassesTheCheckerAndNoneUsesMps) {
  const Scenario s = small_services_on_eighths();
  for (GpuMode m : {GpuMode::exclusive, GpuMode::time_slicing, GpuMode::mps, GpuMode::mig, GpuMode::mig_mps,
                    GpuMode::mig_time_slicing}) {
    PlanOptions o;
    o.forced = m;
    const Plan plan = make_plan(s, o);
    for (const auto& e : check_plan(s, plan, {})) ADD_FAILURE() << to_string(m) << ": " << e;
    for (const auto& g : plan.gpus) {
      EXPECT_NE(g.mode, GpuMode::mps) << to_string(m);
      EXPECT_TRUE(g.mig.empty()) << to_string(m);
    }
  }
}

TEST(FractionalPlan, TheCheckerRefusesMpsOnAFraction) {
  Scenario s;
  s.fleet = {fleet("L4-1/8", 1)};
  s.workloads = {workload("a", 0.5, 0.005, 2)};
  PlanOptions o;
  o.forced = GpuMode::time_slicing;
  Plan plan = make_plan(s, o);
  ASSERT_EQ(plan.gpus.size(), 1u);
  ASSERT_TRUE(check_plan(s, plan, {}).empty());
  plan.gpus[0].mode = GpuMode::mps;
  for (auto& sl : plan.gpus[0].slices) sl.sharing = Sharing::mps;
  EXPECT_FALSE(check_plan(s, plan, {}).empty());
}

// A fraction's compute is its share of the L4 (7 of 58 SMs for 1/8): beside a full L4 as the reference GPU,
// a replica that keeps 10% of an L4 busy takes 83% of a 1/8 fraction, and one of 20% fits on none.
TEST(FractionalPlan, AFractionOffersItsShareOfTheL4Compute) {
  Scenario s;
  s.fleet = {fleet("L4", 1), fleet("L4-1/8", 4)};
  Workload own = workload("busy", 0.5, 0.1, 4);
  own.isolation = Isolation::hardware;  // a GPU each: one on the L4, three on fractions
  s.workloads = {own};
  const Plan plan = make_plan(s, {});
  for (const auto& e : check_plan(s, plan, {})) ADD_FAILURE() << e;
  EXPECT_EQ(placed(plan), 4);
  int on_fractions = 0;
  for (const auto& g : plan.gpus) {
    if (!s.fleet[static_cast<size_t>(g.fleet_entry)].model.is_fractional()) continue;
    ++on_fractions;
    ASSERT_EQ(g.slices.size(), 1u);
    ASSERT_EQ(g.slices[0].clients.size(), 1u) << g.id;
    EXPECT_NEAR(g.slices[0].clients[0].compute, 0.1 * 58 / 7, 1e-9) << g.id;
  }
  EXPECT_EQ(on_fractions, 3);

  s.workloads = {workload("too-busy", 0.5, 0.2, 2)};
  s.workloads[0].isolation = Isolation::hardware;
  const Plan over = make_plan(s, {});
  EXPECT_EQ(placed(over), 1);  // on the L4; 20% of an L4 is more than a 1/8 fraction
}

}  // namespace gpupack
