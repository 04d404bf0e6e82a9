// The profile model's terms read from a workload's own profile (model/profile_prediction.hpp): here, whether
// the launch-path cost its MPS grid measured is told apart from its baseline's run-to-run noise.
#include "model/profile_prediction.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "model/prediction.hpp"
#include "model/prediction_notes.hpp"
#include "planner/scenario_builder.hpp"

namespace gpupack {
namespace {

// A launch-bound program's grid: 4 copies kept 309 / 4 / 98 = 0.79 of one copy's req/s each, beside an MPS
// baseline of three runs whose slowest kept `slowest` of their median.
std::shared_ptr<ProfileFacts> grid_with_baseline(double slowest) {
  auto p = test::h100_profile(0.24, 98, 23.9);
  p->kernel_time = 0.37;
  p->host_cpu_cores = 1.0;
  p->grid.push_back({"mps", 1, 98, 23.9, 1.0, 16, std::nullopt});
  p->grid.push_back({"mps", 4, 309, 30.1, 4.0, 16, std::nullopt});
  ProfileBaseline b;
  b.source = "median of 3 runs";
  b.runs = 3;
  b.req_per_s = 98;
  b.p99_ms = 23.9;
  b.req_low = slowest;
  b.req_high = 1.1;
  p->mps_baseline = b;
  return p;
}

struct Predicted {
  double req_per_s = 0;
  std::string launch_note;
};

// The program beside three copies of a neighbour as busy as itself under MPS.
Predicted beside_three(double slowest) {
  Workload w = test::workload("launchy", 2, 0.24);
  w.profile = grid_with_baseline(slowest);
  Workload twin = test::workload("twin", 2, 0.24);
  twin.profile = test::h100_profile(0.24, 98, 23.9);
  const std::vector<ModelClient> clients{{&w, 1, 0.24, 100}, {&twin, 1, 0.24, 100}, {&twin, 1, 0.24, 100},
                                         {&twin, 1, 0.24, 100}};
  const ModelParameters m;
  const SliceOutcome out = predict({Sharing::mps, SliceCapacity{132, 3350}}, clients, m);
  const auto notes = explain_outcome(out.clients[0], w, Sharing::mps, m);
  const auto it = std::find_if(notes.begin(), notes.end(), [](const std::string& n) { return n.find("MPS launch path") == 0; });
  return {*out.clients[0].req_per_s, it == notes.end() ? "" : *it};
}

TEST(ProfilePrediction, AGridLossWithinTheBaselinesRunToRunNoiseCostsNoLaunchPath) {
  // Its slowest run alone kept 0.75 of the median: the grid's 0.79 is within that, no cost is counted.
  const Predicted noisy = beside_three(0.75);
  EXPECT_EQ(noisy.launch_note,
            "MPS launch path: no cost counted: its MPS co-location grid's 4 copies kept 0.79 of one copy's req/s each, no "
            "less than its slowest baseline run alone kept of their median (0.75): a loss within its own run-to-run noise");
  // Runs alone within 10%: the grid's loss is beyond them, and the cost read from it slows the prediction.
  const Predicted steady = beside_three(0.90);
  EXPECT_EQ(steady.launch_note.rfind("MPS launch path with 4 clients: x", 0), 0u) << steady.launch_note;
  EXPECT_NE(steady.launch_note.find("from its MPS co-location grid"), std::string::npos) << steady.launch_note;
  EXPECT_GT(noisy.req_per_s, steady.req_per_s * 1.05);
}

}  // namespace
}  // namespace gpupack
