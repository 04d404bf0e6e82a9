#include "planner/lower_bound.hpp"

#include <gtest/gtest.h>

#include "planner/plan_context.hpp"
#include "planner/planner.hpp"
#include "random_rounds.hpp"
#include "scenario_builder.hpp"

namespace gpupack {

namespace {
int bound(const Scenario& s) { return lower_bound_gpus(PlanContext(s, policy_for(std::nullopt), {})); }
}  // namespace

TEST(LowerBound, CoversMemoryComputeAndIsolatedReplicas) {
  Scenario s;
  s.fleet = {test::fleet("A100-80GB", 10)};
  s.workloads = {test::workload("mem", 19.5, 0.01, 8)};  // 8 x 20 GiB with contexts: 160 GiB > 2 x 79
  EXPECT_EQ(bound(s), 3);
  s.workloads = {test::workload("cpu", 1, 0.3, 7)};  // 2.1 GPUs of compute
  EXPECT_EQ(bound(s), 3);
  Workload iso = test::workload("iso", 1, 0.01, 15);
  iso.isolation = Isolation::hardware;
  s.workloads = {iso};  // 7 MIG instances per GPU at most
  EXPECT_EQ(bound(s), 3);
}

TEST(LowerBound, UsesTheLargestGpusOfAMixedFleet) {
  Scenario s;
  s.fleet = {test::fleet("L4", 10), test::fleet("H200", 1)};
  s.workloads = {test::workload("m", 30, 0.01, 4)};  // 122 GiB: the H200 (139.75 GiB) alone could hold it
  EXPECT_EQ(bound(s), 1);
}

TEST(LowerBound, TenantsThatCannotShareNeedGpusOfTheirOwn) {
  Scenario s;
  s.fleet = {test::fleet("L4", 10)};  // no MIG: tenants never share an L4
  // Tenant a is memory-bound (4 x 10 GiB: two L4s), tenant b compute-bound (5 x 30 %: two L4s). Summed
  // over both, memory and compute would each fit in 3 GPUs; a's idle compute cannot serve b.
  s.workloads = {test::workload("mem", 10, 0.01, 4, "a"), test::workload("cpu", 0.5, 0.3, 5, "b")};
  EXPECT_EQ(bound(s), 4);
  const Plan p = make_plan(s, {});
  EXPECT_TRUE(p.unplaced.empty());
  EXPECT_EQ(p.summary.gpus_used, 4);
  EXPECT_TRUE(p.summary.exact);
}

TEST(LowerBound, TenantsMayShareAGpuThroughMigInstances) {
  Scenario s;
  s.fleet = {test::fleet("A100-80GB", 4)};
  // Seven tenants with one small replica each: one GPU in seven 1g.10gb instances holds them all.
  for (int t = 0; t < 7; ++t) s.workloads.push_back(test::workload("w" + std::to_string(t), 2, 0.05, 1, "t" + std::to_string(t)));
  EXPECT_EQ(bound(s), 1);
  EXPECT_EQ(make_plan(s, {}).summary.gpus_used, 1);
}

// All 40 rounds in Release; the first 10 under ASan, where 40 took 17 s (random_rounds.hpp).
TEST(LowerBound, NeverAboveWhatThePlannerUses) {
  std::mt19937 rng(7);
  for (int round = 0; round < test::random_rounds(40, 10); ++round) {
    const Scenario s = test::random_scenario(rng, {test::fleet("H100-80GB", 30), test::fleet("L4", 30)}, false, {});
    const Plan p = make_plan(s, {});
    if (p.unplaced.empty()) {
      EXPECT_LE(p.summary.lower_bound_gpus, p.summary.gpus_used);
    }
  }
}

}  // namespace gpupack
