// What the clients of one slice do to each other (model/slice_contention.hpp): here, how many copies of a
// client its neighbours count as for the launch-path cost its own MPS grid measured.
#include "model/slice_contention.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "model/prediction.hpp"
#include "model/prediction_notes.hpp"
#include "planner/scenario_builder.hpp"

namespace gpupack {

namespace {

contention::Activity busy(double sm, int processes = 1) {
  contention::Activity a;
  a.sm = sm;
  a.processes = processes;
  return a;
}

// A training step's grid on a 16-core host (run 51's train-resnet18-b64 on an H200): 4 copies kept 0.79 of
// its rate each with 4 cores busy, so the model reads a launch-path cost per copy from it; they still grew,
// so it is not the GPU's capacity (grid_gpu_demand).
std::shared_ptr<ProfileFacts> training_grid() {
  auto p = test::h100_profile(0.24, 98, 23.9);
  p->kernel_time = 0.37;
  p->host_cpu_cores = 1.0;
  p->grid.push_back({"mps", 1, 98, 23.9, 1.0, 16, std::nullopt});
  p->grid.push_back({"mps", 4, 309, 30.1, 4.0, 16, std::nullopt});
  p->grid[0].gpu_busy = 0.28;
  p->grid[1].gpu_busy = 0.92;
  return p;
}

}  // namespace

TEST(CopyEquivalents, ANeighbourCountsItsSmActivityOverTheClientsAProcessAtMostOneCopy) {
  // The client: 2 replicas at 0.2 each. Its other replica is one copy; a neighbour at a quarter of its activity
  // a quarter; one busier than itself one copy, not more; two replicas of a light one at 0.05 each half a copy.
  const std::vector<contention::Activity> acts{busy(0.4, 2), busy(0.05), busy(0.9), busy(0.1, 2)};
  EXPECT_DOUBLE_EQ(contention::copy_equivalents(acts, 0), 1 + 0.25 + 1 + 0.5);
  // Seen from the light neighbour every other process is at least as busy: each counts one copy.
  EXPECT_DOUBLE_EQ(contention::copy_equivalents(acts, 1), 2 + 1 + 2);
  // A client with no SM activity: every other process is one copy.
  EXPECT_DOUBLE_EQ(contention::copy_equivalents({busy(0), busy(0.3), busy(0.1, 3)}, 0), 4);
}

TEST(BusyCopies, UnderTimeSlicingANeighbourCountsItsBusyTimeOverTheClientsWithoutABound) {
  const auto busy_for = [](double exposed, int processes = 1) {
    contention::Activity a;
    a.exposed = exposed;
    a.processes = processes;
    return a;
  };
  // The client busy 0.25 of its time, 2 replicas; a training job busy all the time counts 4 copies, a client
  // busy 0.1 of its time 0.4, its own other replica 1.
  const std::vector<contention::Activity> acts{busy_for(0.25, 2), busy_for(1.0), busy_for(0.1)};
  EXPECT_DOUBLE_EQ(contention::busy_copies(acts, 0), 1 + 4 + 0.4);
  EXPECT_DOUBLE_EQ(contention::busy_copies(acts, 1), 2 * 0.25 + 0.1);  // seen from the training job
  EXPECT_DOUBLE_EQ(contention::busy_copies({busy_for(0), busy_for(0.5)}, 0), 1);  // never busy: plain copies
}

TEST(CopyEquivalents, TheGridsLaunchCostCountsLightNeighboursAsFractionsOfACopy) {
  Workload train = test::workload("train", 2, 0.5);
  train.profile = training_grid();
  Workload light = test::workload("mobilenet", 1, 0.06);
  light.profile = test::h100_profile(0.06, 180, 6);
  Workload heavy = test::workload("twin", 2, 0.24);
  heavy.profile = test::h100_profile(0.24, 98, 23.9);
  const SliceCapacity gpu{132, 3350};
  const ModelParameters m;
  const auto launch_note = [&](const Workload& neighbour) {
    const std::vector<ModelClient> clients{{&train, 1, 0.5, 100}, {&neighbour, 1, 0.1, 100},
                                           {&neighbour, 1, 0.1, 100}, {&neighbour, 1, 0.1, 100}};
    const SliceOutcome out = predict({Sharing::mps, gpu}, clients, m);
    const auto notes = explain_outcome(out.clients[0], train, Sharing::mps, m);
    const auto it = std::find_if(notes.begin(), notes.end(),
                                 [](const std::string& n) { return n.find("MPS launch path") != std::string::npos; });
    return it == notes.end() ? std::string() : *it;
  };
  // Three neighbours a quarter as busy count as 0.75 copies; three as busy as it as 3.
  const std::string beside_light = launch_note(light);
  const std::string beside_twins = launch_note(heavy);
  EXPECT_NE(beside_light.find("from its MPS co-location grid; its 3 neighbours count as 0.75 copies of it by their "
                              "SM activity"),
            std::string::npos)
      << beside_light;
  EXPECT_NE(beside_twins.find("its 3 neighbours count as 3.00 copies"), std::string::npos) << beside_twins;
  // The factor: 1 + cost x copies x the share of its time no kernel runs, the cost from its grid either way.
  const auto factor = [](const std::string& note) { return std::stod(note.substr(note.find(": x") + 3)); };
  EXPECT_LT(factor(beside_light), factor(beside_twins));
  EXPECT_NEAR(factor(beside_light) - 1, (factor(beside_twins) - 1) * 0.75 / 3, 0.01);
}

}  // namespace gpupack
