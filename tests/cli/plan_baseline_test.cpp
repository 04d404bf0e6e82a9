// Predictions rest on one stated baseline (issue 36, item 2), from a real profile whose baseline is not
// repeatable: mobilenet_v3_b8 on an H100 (results/run32-corpus-h100/profile-repeatable/repeat-1.json),
// req/s 15.4% apart over its 3 runs alone (limit 10%).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "model/profile_baseline.hpp"
#include "profile_plan_helpers.hpp"

namespace gpupack {
namespace {

using test::plan_with_predictions;

const std::string kMobilenet = std::string(GPUPACK_SOURCE_DIR) + "/results/run32-corpus-h100/profile-repeatable/repeat-1.json";

Scenario mobilenets(const ModelParameters& m = {}) {
  const GpuCatalog catalog = builtin_catalog();
  Scenario s = parse_scenario_yaml("fleet: [{model: H100-SXM5-80GB, count: 1}]\nworkloads:\n"
                                   "  - {name: mobilenet-v3-b8, replicas: 6, latency_slo_ms: 27, profile: " + kMobilenet + "}\n",
                                   "test.yaml", catalog);
  attach_profiles(PosixFilesystem{}, s, "", "", catalog, m);
  return s;
}

bool has_note(const ClientPrediction& p, const std::string& text) {
  return std::any_of(p.notes.begin(), p.notes.end(), [&](const std::string& n) { return n.find(text) != std::string::npos; });
}

TEST(PlanBaseline, AnUnrepeatableBaselineWidensTheMarginByItsSlowestRun) {
  const Scenario s = mobilenets();
  const Workload& w = s.workloads[0];
  ASSERT_TRUE(w.profile && w.profile->baseline);
  // Its profile's medians are the baseline the plan states.
  EXPECT_DOUBLE_EQ(*w.profile->req_per_s, w.profile->baseline->req_per_s);
  EXPECT_DOUBLE_EQ(*w.p99_alone_ms, *w.profile->baseline->p99_ms);
  const double spread = *w.profile->baseline->req_spread;
  EXPECT_NEAR(spread, 0.154, 0.001);
  // Its slowest run alone (230 req/s against the median 248.2) was 7.9% slower: under the profiled margin.
  ASSERT_TRUE(w.profile->baseline->slowest_run);
  EXPECT_NEAR(*w.profile->baseline->slowest_run, 248.1667 / 230 - 1, 1e-4);
  ASSERT_TRUE(w.slo_margin);
  EXPECT_DOUBLE_EQ(*w.slo_margin, ModelParameters{}.profiled_slo_margin);
  const Plan p = plan_with_predictions(s);
  ASSERT_TRUE(p.unplaced.empty());
  for (const auto& g : p.gpus)
    for (const auto& sl : g.slices)
      for (const auto& c : sl.clients) {
        const ClientPrediction& pred = c.prediction.value();
        EXPECT_TRUE(has_note(pred, "baseline: median of 3 runs alone")) << pred.notes.front();
        EXPECT_TRUE(has_note(pred, "req/s spread 15% over 3 runs (limit 10%): SLO margin 12% (at least baseline_spread_margin x how much "
                                   "slower its slowest run was: 8%)")) << pred.notes.front();
        EXPECT_LE(*pred.p99_ms * (1 + *w.slo_margin), 27 + 1e-9);
      }
}

TEST(PlanBaseline, TheMarginIsTheSlowestRunTimesTheParameter) {
  ModelParameters m;
  m.baseline_spread_margin = 3.0;  // 3 x 7.9%, past the profiled 12%
  const Scenario s = mobilenets(m);
  ASSERT_TRUE(s.workloads[0].slo_margin);
  EXPECT_NEAR(*s.workloads[0].slo_margin, 3 * (248.1667 / 230 - 1), 1e-3);
}

TEST(PlanBaseline, AboveTheBoundThePlanDoesNotJudgeIt) {
  ModelParameters m;
  m.baseline_spread_unjudged = 0.10;
  const Scenario s = mobilenets(m);
  EXPECT_NE(s.workloads[0].not_judged.find("req/s spread 15% over 3 runs"), std::string::npos) << s.workloads[0].not_judged;
  PlanOptions options;
  options.parameters = m;
  const Plan p = make_plan(s, options);
  EXPECT_TRUE(p.gpus.empty());
  ASSERT_EQ(p.unplaced.size(), 6u);
  for (const Unplaced& u : p.unplaced) {
    EXPECT_EQ(u.code, "baseline_not_repeatable");
    EXPECT_NE(u.reason.find("its profile cannot judge it"), std::string::npos) << u.reason;
  }
}

TEST(PlanBaseline, TheMpsBaselineSetsTheLevelOfMpsSlices) {
  ProfileFacts f;
  f.req_per_s = 100;
  f.p99_ms = 10;
  f.share_curve = {{50, 60, 14.0}, {100, 110, 9.0}};
  f.baseline.emplace();
  f.baseline->source = "median of 3 runs";
  f.baseline->req_per_s = 120;
  f.baseline->p99_ms = 9.5;
  f.mps_baseline.emplace();
  f.mps_baseline->req_per_s = 90;
  rebase_on_baseline(f);
  EXPECT_DOUBLE_EQ(*f.req_per_s, 120);  // the plain baseline's medians
  EXPECT_DOUBLE_EQ(*f.p99_ms, 9.5);
  EXPECT_EQ(mps_planning_baseline(f), &*f.mps_baseline);
  EXPECT_FALSE(unrepeatable_spread(f));  // not judged as flagged: nothing widens
}

// run98's saturated scenario on an H200 (3 dlrm-b4096, 12 mobilenet-v3-b8 asked, 1 wav2vec-b8; run64's
// profiles): the plan places 8 mobilenet. What keeps the others off is mobilenet's own SLO less its 32% margin
// (its MPS baseline not repeatable), with the caps that leave room for bursts; at caps of each client's demand
// dlrm-b4096 (at 73% of the threads) would break too, and the reason once named only that. dlrm holds its SLO at
// the 100% it is given beside 8-11 mobilenet (run100: 6.8-7.5 ms against 9).
TEST(PlanBaseline, AnUnplacedReplicaNamesTheSloThatKeptItOffWithRoomForBursts) {
  const Plan p = plan_with_predictions(
      test::load(std::string(GPUPACK_SOURCE_DIR) + "/results/run98-mps-server-cpu-h200/h200/corpus-saturated-r1/scenario.yaml"));
  ASSERT_EQ(p.unplaced.size(), 4u);
  for (const Unplaced& u : p.unplaced) {
    EXPECT_NE(u.reason.find("its predicted p99 exceeds 2.84x alone (its SLO, less its 32% margin)"), std::string::npos) << u.reason;
    EXPECT_EQ(u.reason.find("dlrm-b4096"), std::string::npos) << u.reason;
  }
}

}  // namespace
}  // namespace gpupack
