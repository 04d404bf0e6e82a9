// Plans on fleets of priced `count: auto` GPU types (planner/priced_plan.hpp): the cheapest mix where it is
// known by hand, the plan checker on random mixed fleets, the lower bound on cost, and the comparison's
// chosen row against the summary.
#include <gtest/gtest.h>

#include <random>

#include "planner/plan_checker.hpp"
#include "planner/planner.hpp"
#include "planner/type_choice.hpp"
#include "scenario_builder.hpp"

namespace gpupack {

namespace {

using test::workload;

FleetEntry priced(const char* model, double price) {
  FleetEntry f = test::fleet(model, 1);
  f.cost_per_hour = price;
  return f;
}

// A full L4 at $1.00/h and a 1/8 L4 at $0.10/h, as many as needed of each.
Scenario l4_and_eighth() {
  Scenario s;
  s.fleet = {priced("L4", 1.0), priced("L4-1/8", 0.1)};
  s.elastic = true;
  return s;
}

int gpus_of(const Plan& p, const Scenario& s, const std::string& model) {
  int n = 0;
  for (const auto& g : p.gpus) n += s.fleet[static_cast<size_t>(g.fleet_entry)].model.name == model ? 1 : 0;
  return n;
}

const GpuTypeChoice& choice_of(const Plan& p, int workload) {
  for (const auto& c : p.gpu_types) {
    if (c.workload == workload) return c;
  }
  throw std::runtime_error("no type choice");
}

}  // namespace

// By hand: "big" (2 x 8 GiB) fits only a full L4 (a 1/8 L4 has 3 GB), and both replicas fit one L4
// ($1.00). The tiny model (1 GiB) costs $0.10 alone on a 1/8 L4, but nothing beside "big" on that L4, which
// has room for it: the cheapest plan is one L4 holding everything, $1.00/h.
TEST(PricedTypes, ATinyModelSharesTheBigGpuOfItsTenantWhenThatGpuHasRoom) {
  Scenario s = l4_and_eighth();
  s.workloads = {workload("big", 8, 0.2, 2), workload("tiny", 1, 0.01, 1)};
  const Plan plan = make_plan(s, {});
  for (const auto& e : check_plan(s, plan, {})) ADD_FAILURE() << e;
  EXPECT_TRUE(plan.unplaced.empty());
  EXPECT_EQ(plan.gpus.size(), 1u);
  EXPECT_EQ(gpus_of(plan, s, "L4-24GB"), 1);
  ASSERT_TRUE(plan.summary.cost_per_hour);
  EXPECT_NEAR(*plan.summary.cost_per_hour, 1.0, 1e-9);
  EXPECT_EQ(choice_of(plan, 1).fleet_entry, 0);
}

// The same, with the tiny model in another tenant: tenants never share a slice and an L4 has no MIG, so
// it needs a GPU of its own; by hand the cheapest is the 1/8 L4: $1.00 + $0.10.
TEST(PricedTypes, ATinyModelOfAnotherTenantGoesToAnEighthRatherThanAnL4) {
  Scenario s = l4_and_eighth();
  s.workloads = {workload("big", 8, 0.2, 2), workload("tiny", 1, 0.01, 1, "other")};
  const Plan plan = make_plan(s, {});
  for (const auto& e : check_plan(s, plan, {})) ADD_FAILURE() << e;
  EXPECT_EQ(gpus_of(plan, s, "L4-24GB"), 1);
  EXPECT_EQ(gpus_of(plan, s, "L4-3Q"), 1);
  ASSERT_TRUE(plan.summary.cost_per_hour);
  EXPECT_NEAR(*plan.summary.cost_per_hour, 1.1, 1e-9);
  const GpuTypeChoice& tiny = choice_of(plan, 1);
  EXPECT_EQ(tiny.fleet_entry, 1);
  EXPECT_NE(tiny.why.find("L4-3Q $0.100"), std::string::npos) << tiny.why;
  EXPECT_NE(tiny.why.find("against L4-24GB"), std::string::npos) << tiny.why;
}

// By hand: 16 replicas of 1 GiB each (one per 1/8 L4 at $0.10: $1.60) against one L4 holding all 16
// (16 x 1.5 GiB with contexts = 24 GiB > 22.5 GiB: two L4s, $2.00) and 1/8 L4s for the rest: the
// cheapest mix is one L4 full (15 replicas, $1.00) plus one 1/8 L4 ($0.10) = $1.10.
TEST(PricedTypes, FillsTheCheapGpuPerReplicaAndPutsTheRemainderOnTheSmallestType) {
  Scenario s = l4_and_eighth();
  Workload w = workload("svc", 1, 0.01, 16);
  w.pattern = UsagePattern::intermittent;
  s.workloads = {w};
  const Plan plan = make_plan(s, {});
  for (const auto& e : check_plan(s, plan, {})) ADD_FAILURE() << e;
  EXPECT_TRUE(plan.unplaced.empty());
  ASSERT_TRUE(plan.summary.cost_per_hour);
  EXPECT_NEAR(*plan.summary.cost_per_hour, 1.1, 1e-9);
  ASSERT_TRUE(plan.summary.lower_bound_cost_per_hour);
  EXPECT_LE(*plan.summary.lower_bound_cost_per_hour, 1.1 + 1e-9);
}

// Plans on random fleets of mixed priced types pass the plan checker (every rule and SLO), cost no more
// than any one type alone, and no less than the lower bound on cost.
TEST(PricedTypes, RandomMixedFleetsPassTheCheckerAndBeatEveryTypeAlone) {
  const std::vector<std::pair<const char*, double>> types{
      {"H100-80GB", 7.0}, {"L4", 0.8}, {"L4-1/2", 0.5}, {"L4-1/4", 0.3}, {"L4-1/8", 0.15}, {"A100-80GB", 4.0}};
  for (unsigned seed = 1; seed <= 12; ++seed) {
    std::mt19937 rng(seed);
    std::vector<size_t> order{0, 1, 2, 3, 4, 5};
    std::shuffle(order.begin(), order.end(), rng);
    const size_t n_types = 2 + rng() % 4;
    std::vector<FleetEntry> fleet;
    for (size_t i = 0; i < n_types; ++i) fleet.push_back(priced(types[order[i]].first, types[order[i]].second));
    test::RandomOptions ro;
    ro.workloads = 8;
    ro.max_replicas = 6;
    ro.tenants = 3;
    ro.max_memory_gib = 12;
    ro.max_compute = 0.2;
    const Scenario s = test::random_scenario(rng, std::move(fleet), true, ro);
    const Plan plan = make_plan(s, {});
    for (const auto& e : check_plan(s, plan, {})) ADD_FAILURE() << "seed " << seed << ": " << e;
    ASSERT_TRUE(plan.summary.cost_per_hour) << seed;
    std::vector<int> types_of(s.workloads.size(), 0);
    for (const auto& c : plan.gpu_types) types_of[static_cast<size_t>(c.workload)]++;
    for (size_t w = 0; w < types_of.size(); ++w) EXPECT_GE(types_of[w], 1) << "seed " << seed << " workload " << w;
    PlanOptions quick;
    quick.exact = false;
    for (int e = 0; e < static_cast<int>(s.fleet.size()); ++e) {
      const Plan alone = make_plan(on_one_type(s, e), quick);
      if (alone.unplaced.size() > plan.unplaced.size()) continue;
      EXPECT_LE(*plan.summary.cost_per_hour, *alone.summary.cost_per_hour + 1e-9)
          << "seed " << seed << ": every workload on " << s.fleet[static_cast<size_t>(e)].model.name;
    }
  }
}

// The comparison's chosen row is the plan's summary, and each type alone has a row with its cost.
TEST(PricedTypes, TheComparisonsChosenRowAgreesWithTheSummary) {
  Scenario s = l4_and_eighth();
  s.workloads = {workload("big", 8, 0.2, 2), workload("tiny", 1, 0.01, 1, "other")};
  const Plan plan = make_plan(s, {});
  const std::vector<ModeOutcome> rows = compare_modes(s, plan, {});
  ASSERT_FALSE(rows.empty());
  EXPECT_FALSE(rows.front().mode);
  EXPECT_FALSE(rows.front().only_entry);
  ASSERT_TRUE(rows.front().cost_per_hour);
  EXPECT_DOUBLE_EQ(*rows.front().cost_per_hour, *plan.summary.cost_per_hour);
  EXPECT_EQ(rows.front().gpus_used, plan.summary.gpus_used);
  int only_rows = 0;
  for (const ModeOutcome& m : rows) {
    if (!m.only_entry) continue;
    ++only_rows;
    ASSERT_TRUE(m.cost_per_hour);
    if (m.unplaced == 0) { EXPECT_GE(*m.cost_per_hour, *plan.summary.cost_per_hour - 1e-9); }
  }
  EXPECT_EQ(only_rows, 2);
}

// The checker refuses a summary whose cost is not the used GPUs' prices.
TEST(PricedTypes, TheCheckerRefusesAWrongCost) {
  Scenario s = l4_and_eighth();
  s.workloads = {workload("big", 8, 0.2, 2)};
  Plan plan = make_plan(s, {});
  ASSERT_TRUE(check_plan(s, plan, {}).empty());
  plan.summary.cost_per_hour = 0.5;
  EXPECT_FALSE(check_plan(s, plan, {}).empty());
}

}  // namespace gpupack
