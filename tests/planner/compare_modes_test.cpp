// The comparison of modes `gpupack plan` prints: its "chosen" row is the plan itself, and the planner
// stays fast and close to the lower bound on many distinct workloads (issue 19; the instance generator
// is bench/many_workloads.hpp, shared with bench_plan and the e2e scale test).
#include <gtest/gtest.h>

#include <random>

#include "many_workloads.hpp"
#include "planner/plan_checker.hpp"
#include "planner/planner.hpp"
#include "scenario_builder.hpp"

namespace gpupack {
namespace {

void expect_chosen_row_is_the_plan(const Scenario& s, const Plan& plan, const std::vector<ModeOutcome>& rows) {
  ASSERT_EQ(rows.size(), all_gpu_modes().size() + 1);
  const ModeOutcome& chosen = rows.front();
  EXPECT_FALSE(chosen.mode.has_value());
  EXPECT_EQ(chosen.gpus_used, plan.summary.gpus_used);
  EXPECT_EQ(chosen.unplaced, static_cast<int>(plan.unplaced.size()));
  EXPECT_EQ(chosen.placed + chosen.unplaced, total_replicas(s));
}

// Instances where the exhaustive search beats the greedy packer: there the comparison used to plan the
// chosen row again without the search and showed more GPUs than the plan.
TEST(CompareModes, ChosenRowAgreesWithThePlanWhenTheSearchImprovesIt) {
  std::mt19937 rng(7);
  int improved = 0;
  for (int round = 0; round < 400 && improved < 3; ++round) {
    test::RandomOptions o;
    o.workloads = 3 + round % 4;
    o.max_replicas = 3;
    o.tenants = 1 + round % 3;
    o.max_memory_gib = round % 2 ? 30 : 12;
    o.max_compute = round % 3 ? 0.45 : 0.3;
    const Scenario s = test::random_scenario(rng, {test::fleet(round % 2 ? "A100-80GB" : "H100-80GB", 6)}, false, o);
    if (total_replicas(s) > 8) continue;
    const Plan plan = make_plan(s, {});
    PlanOptions greedy;
    greedy.exact = false;
    if (make_plan(s, greedy).summary.gpus_used == plan.summary.gpus_used) continue;
    ++improved;
    expect_chosen_row_is_the_plan(s, plan, compare_modes(s, plan, {}));
  }
  EXPECT_GE(improved, 1) << "no instance where the search improves the greedy plan: the test proves nothing";
}

TEST(CompareModes, ReportsProgressForEveryPlanItMakes) {
  const Scenario s = bench::many_workloads_scenario(12, 3, test::catalog());
  Scenario fleet = s;
  fleet.elastic = false;
  fleet.fleet.front().count = 8;
  for (const Scenario* scenario : std::vector<const Scenario*>{&s, &fleet}) {
    std::vector<int> done;
    int total = 0;
    PlanOptions o;
    o.progress = [&](const std::string& what, int d, int t) {
      EXPECT_FALSE(what.empty());
      done.push_back(d);
      total = t;
    };
    const Plan plan = make_plan(*scenario, o);
    compare_modes(*scenario, plan, o);
    ASSERT_FALSE(done.empty());
    EXPECT_EQ(static_cast<int>(done.size()), total);
    for (size_t i = 0; i < done.size(); ++i) EXPECT_EQ(done[i], static_cast<int>(i));
    EXPECT_EQ(total, scenario->elastic ? 6 : 13);
  }
}

// A smaller cut of the issue-19 instance (one tenant, many distinct workloads, as many H100s as needed):
// a valid plan, near the lower bound, every row of the comparison placing everything.
TEST(CompareModes, ManyDistinctWorkloadsPlanNearTheLowerBound) {
  const Scenario s = bench::many_workloads_scenario(150, 6, test::catalog());
  const Plan plan = make_plan(s, {});
  EXPECT_TRUE(check_plan(s, plan, {}).empty());
  EXPECT_TRUE(plan.unplaced.empty());
  EXPECT_LE(plan.summary.gpus_used, 1.05 * plan.summary.lower_bound_gpus);
  const std::vector<ModeOutcome> rows = compare_modes(s, plan, {});
  expect_chosen_row_is_the_plan(s, plan, rows);
  for (const ModeOutcome& row : rows) {
    EXPECT_EQ(row.unplaced, 0);
    ASSERT_TRUE(row.gpus_needed.has_value());
    EXPECT_EQ(*row.gpus_needed, row.gpus_used);  // the fleet is elastic: what it used is what it needs
  }
}

}  // namespace
}  // namespace gpupack
