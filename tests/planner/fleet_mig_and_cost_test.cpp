// Issue 32: a fleet entry's `mig:` (allowed, off, a configured layout) and cost on a fixed priced fleet.
#include <gtest/gtest.h>

#include "core/mig_request.hpp"
#include "planner/plan_checker.hpp"
#include "planner/planner.hpp"
#include "scenario_builder.hpp"

namespace gpupack {

using namespace test;

namespace {

Plan plan_valid(const Scenario& s, std::optional<GpuMode> forced = std::nullopt) {
  PlanOptions o;
  o.forced = forced;
  Plan p = make_plan(s, o);
  for (const auto& e : check_plan(s, p, ModelParameters{})) ADD_FAILURE() << e;
  return p;
}

Scenario two_tenants(FleetEntry f) {
  Scenario s;
  s.fleet = {f};
  s.workloads = {workload("a", 10, 0.2, 2, "red"), workload("b", 10, 0.2, 2, "blue")};
  return s;
}

}  // namespace

TEST(FleetMig, OffKeepsTheGpusOutOfMigEvenWhenTenantsWouldShareThroughIt) {
  const Plan shared = plan_valid(two_tenants(fleet("H200", 1)));
  ASSERT_EQ(shared.gpus.size(), 1u);
  EXPECT_FALSE(shared.gpus[0].mig.empty());
  FleetEntry off = fleet("H200", 1);
  off.mig = FleetMig::off;
  const Plan p = plan_valid(two_tenants(off));
  for (const auto& g : p.gpus) EXPECT_TRUE(g.mig.empty());
  EXPECT_EQ(p.unplaced.size(), 2u);  // one tenant per GPU not in MIG mode
  for (GpuMode m : {GpuMode::mig, GpuMode::mig_mps}) {
    const Plan forced = plan_valid(two_tenants(off), m);
    EXPECT_TRUE(forced.gpus.empty());
    EXPECT_EQ(forced.unplaced[0].code, "no_mig_gpu");
  }
}

TEST(FleetMig, AConfiguredLayoutIsUsedExactly) {
  FleetEntry f = fleet("A100-80GB", 2);
  f.mig = FleetMig::fixed;
  const std::vector<std::string> tokens{"3g.40gb", "2g.20gb", "2x1g.10gb"};
  f.mig_layout = parse_mig_request(f.model, tokens);
  Scenario s = two_tenants(f);
  const Plan p = plan_valid(s);
  EXPECT_TRUE(p.unplaced.empty());
  for (const auto& g : p.gpus) {
    ASSERT_EQ(g.mig.size(), 4u) << g.id;  // all four instances, used or not
    for (const auto& sl : g.slices) EXPECT_GE(sl.profile, 0) << "never the whole GPU";
  }
  // A replica larger than every configured instance does not fit, though a whole A100 would hold it.
  s.workloads = {workload("huge", 45, 0.3)};
  const Plan too_big = plan_valid(s);
  ASSERT_EQ(too_big.unplaced.size(), 1u);
  EXPECT_EQ(too_big.unplaced[0].code, "too_large");
}

TEST(FixedPricedFleet, MinimisesCostAndPricesOneReplicaPerGpuOnTheTypeItNeeds) {
  FleetEntry a100 = fleet("A100-80GB", 3);
  a100.cost_per_hour = 4.0;
  FleetEntry l4 = fleet("L4", 2);
  l4.cost_per_hour = 0.8;
  Scenario s;
  s.fleet = {a100, l4};
  s.workloads = {workload("llm", 30, 0.4, 2), workload("vision", 2, 0.05, 8)};
  const Plan p = plan_valid(s);
  EXPECT_TRUE(p.unplaced.empty());
  ASSERT_TRUE(p.summary.cost_per_hour);
  EXPECT_LT(*p.summary.cost_per_hour, 8.0);
  ASSERT_TRUE(p.summary.fewest_gpus_plan);
  EXPECT_EQ(p.summary.fewest_gpus_plan->gpus, 2);
  EXPECT_DOUBLE_EQ(p.summary.fewest_gpus_plan->cost_per_hour, 8.0);
  ASSERT_TRUE(p.summary.one_per_gpu_cost_per_hour);
  EXPECT_NEAR(*p.summary.one_per_gpu_cost_per_hour, 2 * 4.0 + 8 * 0.8, 1e-9);
  // One price for all: the fewest GPUs, as before.
  s.fleet[1].cost_per_hour = 4.0;
  EXPECT_FALSE(plan_valid(s).summary.fewest_gpus_plan);
}

}  // namespace gpupack
