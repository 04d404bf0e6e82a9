// Time-slicing from a workload's own measured K-curve (issue 36, item 6): resnet18-b1's H100 profile with
// its co-location grid (tests/planner/data/profiles-timeslicing-h100: time-slicing K = 1 and 4, worst p99
// 3.04 and 6.78 ms, the median copy's 3.04 and 4.556: copies at 4.71, 4.40, 6.78 and 4.36 ms). The mode
// comparison says which figures were measured, extended or synthetic.
#include <gtest/gtest.h>

#include <string>

#include "model/prediction.hpp"
#include "model/prediction_notes.hpp"
#include "model/profile_alone.hpp"
#include "profile_plan_helpers.hpp"

namespace gpupack {
namespace {

using test::from_text;
using test::kData;

Scenario resnets(int replicas, const std::string& dir) {
  return from_text("fleet: [{model: H100-SXM5-80GB, count: 1}]\nworkloads:\n  - {name: resnet18-b1, replicas: " +
                       std::to_string(replicas) + ", latency_slo_ms: 16.4, profile: " + kData + "/" + dir +
                       "/resnet18-b1.json}\n",
                   "");
}

SliceOutcome timesliced(const Scenario& s, int copies, bool with_neighbour) {
  static const Workload neighbour = [] {  // no profile: the synthetic model
    Workload w;
    w.name = "batch";
    w.memory_bytes = 1u << 30;
    w.compute = 0.5;
    return w;
  }();
  std::vector<ModelClient> clients(static_cast<size_t>(copies), ModelClient{&s.workloads[0], 1, 0.1, std::nullopt});
  if (with_neighbour) clients.push_back({&neighbour, 1, 0.5, std::nullopt});
  return predict({Sharing::time_slicing, slice_capacity(builtin_catalog().get("H100-SXM5-80GB"))}, clients,
                 ModelParameters{}, PredictionDetail::inflation);
}

TEST(PlanTimeslicingGrid, ItsOwnGridPredictsItsTimeSlicedP99) {
  const Scenario s = resnets(4, "profiles-timeslicing-h100");
  const double alone = *s.workloads[0].p99_alone_ms;
  const SliceOutcome four = timesliced(s, 4, false);
  // The K = 4 cell, measured: a replica is one of the copies, its p99 the median copy's; the packer reads the
  // worst copy's, which the note names.
  EXPECT_NEAR(*four.clients[0].p99_ms, (4.713 + 4.399) / 2, 0.01);
  EXPECT_NEAR(four.clients[0].worst_copy_ratio, 6.78 / ((4.713 + 4.399) / 2), 0.01);
  EXPECT_NEAR(four.clients[0].inflation, 6.78 / alone, 0.01);
  EXPECT_EQ(four.clients[0].notes.back().kind, ModelNote::Kind::grid_cell);
  EXPECT_NEAR(four.clients[0].notes.back().x[0], four.clients[0].worst_copy_ratio, 1e-12);
  EXPECT_FALSE(four.clients[0].extrapolated);
  const auto notes = explain_outcome(four.clients[0], s.workloads[0], Sharing::time_slicing, ModelParameters{});
  EXPECT_NE(::testing::PrintToString(notes).find(
                "co-location grid, timeslicing K=4; p99 of its median copy, the SLO check reads its worst copy's (x1.49)"),
            std::string::npos)
      << ::testing::PrintToString(notes);
  // Beyond the grid: p99 grown in proportion to K, flagged; the worst copy's too.
  const SliceOutcome eight = timesliced(s, 8, false);
  EXPECT_NEAR(*eight.clients[0].p99_ms, (4.713 + 4.399), 0.02);
  EXPECT_NEAR(eight.clients[0].inflation, 6.78 * 2 / alone, 0.02);
  EXPECT_TRUE(eight.clients[0].extrapolated);
  // Beside another workload: its own curve at 1 + the neighbour counted as copies of it by its busy time (a
  // neighbour without a profile: busy all the time; resnet18-b1's kernels run `exposed` of its time), the
  // neighbour's synthetic.
  const double exposed = kernel_exposed_share(*s.workloads[0].profile);
  ASSERT_GT(exposed, 0.2);
  ASSERT_LT(exposed, 0.5);
  const double k = 1 + 1 / exposed;
  const SliceOutcome mixed = timesliced(s, 1, true);
  EXPECT_NEAR(*mixed.clients[0].p99_ms, 3.04 + ((4.713 + 4.399) / 2 - 3.04) * (k - 1) / 3, 0.01);
  EXPECT_NEAR(mixed.clients[0].inflation, (3.04 + (6.78 - 3.04) * (k - 1) / 3) / alone, 0.01);
  EXPECT_NEAR(mixed.clients[0].notes.back().x[1], k, 1e-9);
  const auto mixed_notes = explain_outcome(mixed.clients[0], s.workloads[0], Sharing::time_slicing, ModelParameters{});
  EXPECT_NE(::testing::PrintToString(mixed_notes).find("(its own copies; here its neighbours are other workloads, counted as " +
                                                        note_number(k - 1) + " copies of it by their busy time)"),
            std::string::npos)
      << ::testing::PrintToString(mixed_notes);
  EXPECT_EQ(mixed.clients[0].notes.back().kind, ModelNote::Kind::grid_cell);
  EXPECT_TRUE(mixed.clients[0].notes.back().flag);
  // Without a grid: the synthetic model, as before.
  const Scenario plain = resnets(4, "profiles-h100-2026-11-23");
  EXPECT_GT(timesliced(plain, 4, false).clients[0].inflation, 10);
}

std::string rejected_timeslicing(const Scenario& s) {
  PlanOptions options;
  options.explain = true;
  const Plan p = make_plan(s, options);
  for (const RejectedMode& r : p.gpus.at(0).rejected) {
    if (r.mode == GpuMode::time_slicing) return r.breaks;
  }
  return "";
}

TEST(PlanTimeslicingGrid, TheModeComparisonSaysMeasuredOrSynthetic) {
  const std::string measured = rejected_timeslicing(resnets(4, "profiles-timeslicing-h100"));
  EXPECT_NE(measured.find("worst predicted 1.24x alone (measured: K=4 time-slicing grid of resnet18-b1)"), std::string::npos)
      << measured;
  const std::string beyond = rejected_timeslicing(resnets(6, "profiles-timeslicing-h100"));
  EXPECT_NE(beyond.find("(extrapolated: K=6 beyond resnet18-b1's time-slicing grid, measured to K=4)"), std::string::npos)
      << beyond;
  const std::string synthetic = rejected_timeslicing(resnets(4, "profiles-h100-2026-11-23"));
  EXPECT_NE(synthetic.find("(synthetic: no time-slicing grid in resnet18-b1's profile)"), std::string::npos) << synthetic;
}

}  // namespace
}  // namespace gpupack
