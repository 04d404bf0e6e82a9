// Every plan the planner produces, on hand-made and random scenarios and under every forced mode,
// passes the plan checker; and the checker itself catches broken plans.
#include <gtest/gtest.h>

#include "planner/plan_checker.hpp"
#include "planner/planner.hpp"
#include "scenario_builder.hpp"

namespace gpupack {

namespace {

using test::fleet;
using test::workload;

void expect_valid(const Scenario& s, const Plan& plan, const ModelParameters& c = {}) {
  const std::vector<std::string> errors = check_plan(s, plan, c);
  for (const auto& e : errors) ADD_FAILURE() << e;
}

Plan plan_checked(const Scenario& s, std::optional<GpuMode> forced = std::nullopt) {
  PlanOptions o;
  o.forced = forced;
  Plan p = make_plan(s, o);
  expect_valid(s, p);
  return p;
}

int placed(const Plan& p) {
  int n = 0;
  for (const auto& g : p.gpus)
    for (const auto& s : g.slices)
      for (const auto& c : s.clients) n += static_cast<int>(c.replicas.size());
  return n;
}

}  // namespace

TEST(PlanRules, TrustedSmallReplicasShareOneGpuUnderMps) {
  Scenario s;
  s.fleet = {fleet("A100-80GB", 4)};
  s.workloads = {workload("a", 2, 0.05, 10)};
  const Plan p = plan_checked(s);
  ASSERT_EQ(p.gpus.size(), 1u);
  EXPECT_EQ(p.gpus[0].mode, GpuMode::mps);
  EXPECT_EQ(p.gpus[0].slices[0].clients.size(), 10u);
  EXPECT_EQ(p.summary.lower_bound_gpus, 1);
}

TEST(PlanRules, TenantsShareAGpuOnlyThroughMigInstances) {
  Scenario s;
  s.fleet = {fleet("A100-80GB", 1)};
  s.workloads = {workload("a", 4, 0.05, 3, "red"), workload("b", 4, 0.05, 3, "blue")};
  const Plan p = plan_checked(s);
  ASSERT_EQ(p.gpus.size(), 1u);
  EXPECT_TRUE(p.unplaced.empty());
  EXPECT_EQ(p.gpus[0].mode, GpuMode::mig_mps);
  for (const auto& sl : p.gpus[0].slices) EXPECT_GE(sl.profile, 0);
}

TEST(PlanRules, FaultIsolationGetsASliceOfItsOwn) {
  Scenario s;
  s.fleet = {fleet("A100-80GB", 1)};
  Workload w = workload("iso", 3, 0.05, 4);
  w.isolation = Isolation::fault;
  s.workloads = {w};
  const Plan p = plan_checked(s);
  ASSERT_EQ(p.gpus.size(), 1u);
  EXPECT_EQ(p.gpus[0].slices.size(), 4u);
  EXPECT_EQ(p.gpus[0].mode, GpuMode::mig);
}

TEST(PlanRules, MemoryIsolationIsNeverTimeSliced) {
  Scenario s;
  s.fleet = {fleet("L4", 2)};
  Workload a = workload("a", 2, 0.05, 3);
  a.isolation = Isolation::memory;
  a.pattern = UsagePattern::intermittent;
  s.workloads = {a};
  const Plan p = plan_checked(s);
  ASSERT_EQ(p.gpus.size(), 1u);
  EXPECT_EQ(p.gpus[0].slices[0].sharing, Sharing::mps);
}

TEST(PlanRules, MemoryIsolationOnPascalCannotUseMps) {
  Scenario s;
  s.fleet = {fleet("P100", 2)};
  Workload a = workload("a", 2, 0.05, 2);
  a.isolation = Isolation::memory;
  s.workloads = {a};
  const Plan p = plan_checked(s);
  ASSERT_EQ(p.gpus.size(), 2u);  // no MPS memory isolation before Volta: one GPU each
  for (const auto& g : p.gpus) EXPECT_EQ(g.mode, GpuMode::exclusive);
}

TEST(PlanRules, IntermittentWorkTimeSlices) {
  Scenario s;
  s.fleet = {fleet("T4", 1)};
  Workload a = workload("notebook", 1, 0.02, 6);
  a.pattern = UsagePattern::intermittent;
  s.workloads = {a};
  const Plan p = plan_checked(s);
  ASSERT_EQ(p.gpus.size(), 1u);
  EXPECT_EQ(p.gpus[0].mode, GpuMode::time_slicing);
}

TEST(PlanRules, GroupsShareOneProcessThroughStreams) {
  Scenario s;
  s.fleet = {fleet("L4", 1)};
  Workload a = workload("a", 2, 0.1, 3);
  a.group = "g";
  s.workloads = {a};
  const Plan p = plan_checked(s);
  ASSERT_EQ(p.gpus.size(), 1u);
  ASSERT_EQ(p.gpus[0].slices[0].clients.size(), 1u);
  EXPECT_EQ(p.gpus[0].slices[0].sharing, Sharing::streams);
  // One CUDA context for the three replicas.
  EXPECT_EQ(p.gpus[0].slices[0].clients[0].memory_limit_bytes, 6 * kGiB + s.context_overhead_bytes);
}

TEST(PlanRules, TightSloKeepsALatencyClientOffTimeSlicingAndCapsItsBatchNeighbour) {
  Scenario s;
  s.fleet = {fleet("H100-80GB", 1)};
  Workload latency = workload("latency", 2, 0.05);
  latency.latency_slo_ms = 10;
  latency.p99_alone_ms = 8;  // allows 1.25x: MPS uncapped (1.74x) would break it
  Workload batch = workload("batch", 8, 0.5);
  s.workloads = {latency, batch};
  const Plan p = plan_checked(s);
  ASSERT_TRUE(p.unplaced.empty());
  ASSERT_EQ(p.gpus.size(), 1u);
  const PlanSlice& sl = p.gpus[0].slices[0];
  ASSERT_EQ(sl.sharing, Sharing::mps);
  ASSERT_EQ(sl.clients.size(), 2u);
  for (const PlanClient& c : sl.clients) {
    if (c.replicas[0].workload == 1) {
      // The batch neighbour is capped at its demand (50%), not given the whole GPU.
      EXPECT_EQ(c.mps_active_thread_percentage, 50);
    } else {
      EXPECT_LE(c.predicted_p99_inflation, 1.25);
      EXPECT_EQ(c.mps_active_thread_percentage, 10);  // twice its demand, room for bursts
    }
  }
}

TEST(PlanRules, UnreachableSloIsReportedNotCrashed) {
  Scenario s;
  s.fleet = {fleet("A100-80GB", 1)};
  Workload w = workload("slow", 1, 0.05);
  w.latency_slo_ms = 5;
  w.p99_alone_ms = 9;
  s.workloads = {w, workload("big", 200, 0.1)};
  const Plan p = plan_checked(s);
  ASSERT_EQ(p.unplaced.size(), 2u);
  EXPECT_EQ(p.unplaced[0].code, "slo_not_reachable");
  EXPECT_EQ(p.unplaced[1].code, "too_large");
}

TEST(PlanRules, NoGpuLeftIsAReason) {
  Scenario s;
  s.fleet = {fleet("L4", 1)};
  s.workloads = {workload("a", 10, 0.6, 3)};
  const Plan p = plan_checked(s);
  EXPECT_EQ(p.gpus.size(), 1u);
  ASSERT_EQ(p.unplaced.size(), 2u);
  EXPECT_EQ(p.unplaced[0].code, "no_gpu_left");
}

TEST(PlanRules, MigModesNeedMigCapableGpus) {
  Scenario s;
  s.fleet = {fleet("L4", 2)};
  s.workloads = {workload("a", 1, 0.05, 2)};
  const Plan p = plan_checked(s, GpuMode::mig);
  EXPECT_TRUE(p.gpus.empty());
  ASSERT_EQ(p.unplaced.size(), 2u);
  EXPECT_EQ(p.unplaced[0].code, "no_mig_gpu");
}

TEST(PlanRules, MpsClientLimitPerGpuIsRespected) {
  Scenario s;
  s.fleet = {fleet("H100-80GB", 4)};
  s.workloads = {workload("tiny", 0.25, 0.005, 100)};
  const Plan p = plan_checked(s);
  EXPECT_TRUE(p.unplaced.empty());
  EXPECT_EQ(p.gpus.size(), 3u);  // 48 clients per GPU up to CUDA 13.0
}

TEST(PlanRules, RandomScenariosUnderEveryModeAreValid) {
  std::mt19937 rng(12345);
  const std::vector<std::vector<FleetEntry>> fleets{{fleet("A100-80GB", 3), fleet("L4", 2)},
                                                    {fleet("H100-80GB", 2), fleet("A30", 2)},
                                                    {fleet("T4", 3)},
                                                    {fleet("P100", 2), fleet("H200", 1)}};
  std::vector<std::optional<GpuMode>> modes{std::nullopt};
  for (GpuMode m : all_gpu_modes()) modes.push_back(m);
  int plans = 0;
  for (int round = 0; round < 60; ++round) {
    test::RandomOptions o;
    o.workloads = 2 + round % 7;
    const Scenario s = test::random_scenario(rng, fleets[static_cast<size_t>(round) % fleets.size()], round % 5 == 0, o);
    for (const auto& mode : modes) {
      PlanOptions po;
      po.forced = mode;
      const Plan p = make_plan(s, po);
      const auto errors = check_plan(s, p, po.parameters);
      ASSERT_TRUE(errors.empty()) << "round " << round << ": " << errors.front();
      EXPECT_EQ(placed(p) + static_cast<int>(p.unplaced.size()), total_replicas(s));
      ++plans;
    }
  }
  EXPECT_EQ(plans, 60 * 7);
}

TEST(PlanChecker, CatchesBrokenPlans) {
  Scenario s;
  s.fleet = {fleet("A100-80GB", 2)};
  s.workloads = {workload("a", 4, 0.05, 3, "red"), workload("b", 4, 0.05, 3, "blue")};
  const Plan good = make_plan(s, {});
  ASSERT_TRUE(check_plan(s, good, {}).empty());

  Plan lost = good;  // a replica disappears
  lost.gpus[0].slices[0].clients.pop_back();
  EXPECT_FALSE(check_plan(s, lost, {}).empty());

  Plan mixed = good;  // two tenants in one slice
  ASSERT_GE(mixed.gpus[0].slices.size(), 2u);
  mixed.gpus[0].slices[0].clients.push_back(mixed.gpus[0].slices[1].clients.front());
  mixed.gpus[0].slices[1].clients.erase(mixed.gpus[0].slices[1].clients.begin());
  EXPECT_FALSE(check_plan(s, mixed, {}).empty());

  Plan over = good;  // memory above the slice
  over.gpus[0].slices[0].clients[0].memory_limit_bytes = 100 * kGiB;
  EXPECT_FALSE(check_plan(s, over, {}).empty());

  Plan layout = good;  // an instance moved onto another
  ASSERT_GE(layout.gpus[0].mig.size(), 2u);
  layout.gpus[0].mig[1].start = layout.gpus[0].mig[0].start;
  layout.gpus[0].slices[1].mig_start = layout.gpus[0].mig[0].start;
  EXPECT_FALSE(check_plan(s, layout, {}).empty());

  Plan ts = good;  // time-slicing hides p99 the model predicts
  ts.gpus[0].slices[0].sharing = Sharing::time_slicing;
  EXPECT_FALSE(check_plan(s, ts, {}).empty());
}

}  // namespace gpupack
