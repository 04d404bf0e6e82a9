// What a profile's MPS co-location grid measures of the host CPU (model/host_cpu_grid.hpp): the knee of the
// host's cores, the wait for a core past them, and the wait predict() adds from it. The grids are written
// here point by point; the first is issue 37's decode loop (its table of copies on a 16-core H200 node).
#include "model/host_cpu_grid.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "model/prediction.hpp"
#include "model/prediction_notes.hpp"
#include "model/profile_alone.hpp"
#include "planner/scenario_builder.hpp"

namespace gpupack {

namespace {

struct Point {
  int k;
  double req, p99, cores;
};

// An MPS grid measured on a host of `cores` cores, each point with the host cores all copies used.
ProfileFacts grid_profile(std::vector<Point> points, std::optional<int> node_cores = 16,
                          std::optional<int> usable_cores = std::nullopt) {
  ProfileFacts p = *test::h100_profile(0.05, points.front().req, points.front().p99);
  p.host_cpu_cores = points.front().cores;
  for (const Point& q : points) p.grid.push_back({"mps", q.k, q.req, q.p99, q.cores, node_cores, usable_cores});
  return p;
}

// Issue 37 (aggregate req/s, worst p99, the copies' host cores): growth to 16 copies, none past the cores.
ProfileFacts decode_grid() {
  return grid_profile({{1, 36, 36, 1.0}, {12, 423, 48.8, 11.6}, {16, 556, 47.0, 15.5}, {24, 546, 134.7, 15.6},
                       {30, 519, 120.6, 15.6}});
}

}  // namespace

TEST(HostCpuGrid, TheKneeIsTheLastKWhoseAggregateGrewWithTheCoresFullPastIt) {
  const auto knee = host_cpu_knee(decode_grid());
  ASSERT_TRUE(knee);
  EXPECT_EQ(knee->knee_k, 16);
  EXPECT_EQ(knee->past_k, 24);
  EXPECT_DOUBLE_EQ(knee->cores, 16);
  EXPECT_DOUBLE_EQ(knee->cores_per_copy(), 1.0);
  EXPECT_DOUBLE_EQ(knee->copies, 16);  // 546 req/s at 24 is fewer copies at 34.75 req/s a copy
  EXPECT_DOUBLE_EQ(*replica_host_cores(decode_grid()), 1.0);
  // Coarse steps: 8 copies, then 24 past the cores. The full cores' 546 req/s at 8's 35.6 req/s a copy are
  // 15.3 copies: the knee lies between the steps, not at 8.
  const auto coarse = host_cpu_knee(grid_profile({{1, 36, 36, 1.0}, {8, 285, 40, 7.8}, {24, 546, 134.7, 15.6}}));
  ASSERT_TRUE(coarse);
  EXPECT_EQ(coarse->knee_k, 8);
  EXPECT_NEAR(coarse->copies, 546 / (285.0 / 8), 1e-12);
  EXPECT_NEAR(coarse->cores_per_copy(), 16 / (546 / (285.0 / 8)), 1e-12);
  // The copies could run on 8 of the 16 cores (gpupack's affinity): those are the cores they shared.
  ProfileFacts pinned = grid_profile({{1, 36, 36, 1.0}, {4, 140, 40, 3.9}, {8, 270, 42, 7.6}, {12, 268, 80, 7.8}},
                                     16, 8);
  ASSERT_TRUE(host_cpu_knee(pinned));
  EXPECT_EQ(host_cpu_knee(pinned)->knee_k, 8);
  EXPECT_DOUBLE_EQ(host_cpu_knee(pinned)->cores_per_copy(), 1.0);
}

TEST(HostCpuGrid, NoKneeOfTheCoresWhereTheyWereNotFullOrTheAggregateKeptGrowing) {
  // The aggregate stopped at 8 copies with 6 of 16 cores busy: the GPU bound it, not the cores.
  const ProfileFacts gpu_bound = grid_profile({{1, 100, 5, 0.75}, {4, 380, 6, 3}, {8, 400, 11, 6}, {16, 405, 22, 6.2}});
  EXPECT_FALSE(host_cpu_knee(gpu_bound));
  EXPECT_DOUBLE_EQ(*replica_host_cores(gpu_bound), 0.75);  // its cores alone
  // Past the cores and still growing (spin-waiting copies whose spin was not work): the knee is beyond
  // the grid, and the profile alone counts as before.
  const ProfileFacts spins = grid_profile({{1, 300, 3, 1.0}, {8, 2300, 5, 8}, {16, 4400, 8, 15.8}, {24, 6000, 12, 15.9}});
  EXPECT_FALSE(host_cpu_knee(spins));
  EXPECT_DOUBLE_EQ(*replica_host_cores(spins), 1.0);
  // A grid measured before the host cores were recorded: neither a knee nor a measured wait.
  ProfileFacts older = decode_grid();
  for (auto& g : older.grid) {
    g.host_cpu_cores.reset();
    g.node_cores.reset();
  }
  EXPECT_FALSE(host_cpu_knee(older));
  EXPECT_FALSE(measured_core_wait(older));
  // Time-slicing points are not the MPS grid.
  ProfileFacts timeslicing = decode_grid();
  for (auto& g : timeslicing.grid) g.mode = "timeslicing";
  EXPECT_FALSE(host_cpu_knee(timeslicing));
}

TEST(HostCpuGrid, TheWaitIsThePastCoresP99GrowthPerCopyBeyondItsGrowthWithin) {
  const auto wait = measured_core_wait(decode_grid());
  ASSERT_TRUE(wait);
  EXPECT_EQ(wait->below_k, 16);
  EXPECT_EQ(wait->past_k, 24);
  EXPECT_EQ(wait->largest_k, 30);
  // (134.7 - 47.0) / 8 per copy; within the cores p99 fell (48.8 at 12), so nothing is taken off.
  EXPECT_NEAR(wait->ms_per_copy, 87.7 / 8, 1e-12);
  EXPECT_DOUBLE_EQ(wait->wait_ms(16, 16), 0);
  EXPECT_NEAR(wait->wait_ms(20, 16), 4 * 87.7 / 8, 1e-12);
  // On 32 cores a process past them takes half as much of each other's turn.
  EXPECT_NEAR(wait->wait_ms(36, 32), 4 * 87.7 / 8 / 2, 1e-12);
  EXPECT_TRUE(wait->measured_at(30, 16));
  EXPECT_FALSE(wait->measured_at(31, 16));
  EXPECT_FALSE(wait->measured_at(20, 32));
  // Growth within the cores (GPU contention) is not a wait for a core.
  const auto spins = measured_core_wait(
      grid_profile({{1, 300, 3, 1.0}, {8, 2300, 5, 8}, {16, 4400, 9, 15.8}, {24, 6000, 15, 15.9}}));
  ASSERT_TRUE(spins);
  EXPECT_NEAR(spins->ms_per_copy, 6.0 / 8 - 4.0 / 8, 1e-12);
  // No point past the cores: nothing measured.
  EXPECT_FALSE(measured_core_wait(grid_profile({{1, 36, 36, 1.0}, {8, 280, 40, 7.8}})));
}

TEST(HostCpuGrid, PredictAddsTheMeasuredWaitWhereTheNodeHasMoreProcessesThanCores) {
  // Four decode loops beside a profiled neighbour without a grid, on a node of 16 cores whose other slices
  // bring it to 20 client processes.
  Workload decode = test::workload("decode", 1.5, 0.05);
  decode.profile = std::make_shared<ProfileFacts>(decode_grid());
  decode.latency_slo_ms = 200;
  Workload cnn = test::workload("cnn", 1, 0.1);
  auto cnn_profile = test::h100_profile(0.1, 500, 4);
  cnn_profile->host_cpu_cores = 1.0;
  cnn.profile = cnn_profile;
  cnn.latency_slo_ms = 40;
  SliceCapacity node{132, 3350};
  node.host_cores = 16;
  node.node_cores = 16;
  node.node_processes = 20;
  const std::vector<ModelClient> clients{{&decode, 1, 0.05, 20}, {&decode, 1, 0.05, 20}, {&decode, 1, 0.05, 20},
                                         {&decode, 1, 0.05, 20}, {&cnn, 1, 0.1, 20}};
  const ModelParameters m;
  const SliceOutcome with_wait = predict({Sharing::mps, node}, clients, m);
  SliceCapacity alone_on_node = node;
  alone_on_node.node_processes = 5;
  const SliceOutcome without = predict({Sharing::mps, alone_on_node}, clients, m);
  // The decode loops wait what their grid measured past the cores, the CNN the fitted constant.
  EXPECT_NEAR(*with_wait.clients[0].p99_ms - *without.clients[0].p99_ms, 4 * 87.7 / 8, 1e-9);
  EXPECT_NEAR(*with_wait.clients[4].p99_ms - *without.clients[4].p99_ms, m.core_wait_ms, 1e-9);
  EXPECT_FALSE(with_wait.clients[0].extrapolated);  // the grid's cores, within its largest K
  EXPECT_TRUE(with_wait.clients[4].extrapolated);
  const auto notes = explain_outcome(with_wait.clients[0], decode, Sharing::mps, m);
  EXPECT_EQ(notes.at(notes.size() - 2),
            "20 client processes on 16 host cores of the node (5 on this slice): +44 ms waiting for a core (measured: "
            "its co-location grid's p99 grew 11 ms per copy past its host's 16 cores, MPS K=16 to 24)");
  // Its 20 copies in the grid shared 551 req/s (between 556 at 16 and 546 at 24): the most each is predicted.
  EXPECT_EQ(notes.back(),
            "its own copies' rate: its MPS co-location grid's copies ran 28 req/s each with 20 copies, the most it "
            "is predicted here");
  EXPECT_NEAR(*with_wait.clients[0].req_per_s, 551.0 / 20, 1e-9);
  // Each decode loop counts the knee's core, whatever its predicted rate.
  EXPECT_DOUBLE_EQ(*with_wait.clients[0].host_cores, 1.0);
}

// The grid's median copy p99 with as many processes (model/host_cpu_grid.hpp, grid_median_p99): run42's
// mobilenet-v3-b8 on an H200 (median p99 8.0 ms alone, 7.6 with 16 copies, 19.5 with 24).
ProfileFacts mobilenet_grid() {
  ProfileFacts p = grid_profile({{1, 171, 8.0, 1.0}, {16, 2774, 15.4, 15.8}, {24, 2613, 22.9, 15.8}});
  const double medians[] = {8.0, 7.6, 19.5};
  for (size_t i = 0; i < p.grid.size(); ++i) p.grid[i].median_p99_ms = medians[i];
  return p;
}

TEST(HostCpuGrid, TheGridsMedianCopyTailIsReadAtTheProcesses) {
  const ProfileFacts p = mobilenet_grid();
  EXPECT_FALSE(grid_median_p99(p, 1));
  EXPECT_FALSE(grid_median_p99(decode_grid(), 20));  // no median p99 in the grid
  const auto at16 = grid_median_p99(p, 16);
  ASSERT_TRUE(at16);
  EXPECT_DOUBLE_EQ(at16->p99_ms, 7.6);
  EXPECT_FALSE(at16->extrapolated);
  EXPECT_NEAR(grid_median_p99(p, 20)->p99_ms, 7.6 + 4 * (19.5 - 7.6) / 8, 1e-9);
  const auto beyond = grid_median_p99(p, 28);
  EXPECT_TRUE(beyond->extrapolated);
  EXPECT_NEAR(beyond->p99_ms, 19.5 + 4 * (19.5 - 7.6) / 8, 1e-9);
  EXPECT_EQ(beyond->k_largest, 24);
}

TEST(HostCpuGrid, TheGridsRateACopyIsReadAtTheProcessesWithinItsLargestK) {
  const ProfileFacts p = mobilenet_grid();
  EXPECT_FALSE(grid_per_copy_rate(p, 1));
  EXPECT_FALSE(grid_per_copy_rate(p, 25));  // beyond the largest K its aggregate may fall: not known
  EXPECT_NEAR(grid_per_copy_rate(p, 16)->req_per_s, 2774.0 / 16, 1e-9);
  EXPECT_NEAR(grid_per_copy_rate(p, 20)->req_per_s, (2774 + 0.5 * (2613 - 2774)) / 20, 1e-9);
  EXPECT_NEAR(grid_per_copy_rate(p, 4)->req_per_s, (171 + 3.0 / 15 * (2774 - 171)) / 4, 1e-9);
}

TEST(HostCpuGrid, PredictHoldsAReplicaToItsOwnCopiesTailAtTheNodesProcesses) {
  Workload cnn = test::workload("mobilenet", 1, 0.05);
  cnn.profile = std::make_shared<ProfileFacts>(mobilenet_grid());
  cnn.latency_slo_ms = 27;
  SliceCapacity node{132, 3350};
  node.host_cores = 16;
  node.node_cores = 16;
  node.node_processes = 20;
  Workload trainer = test::workload("trainer", 1, 0.5);
  trainer.profile = test::h100_profile(0.5, 40, 30);
  // Beside a job of another kind (copies of one alone are read from the grid directly).
  const std::vector<ModelClient> clients{{&cnn, 1, 0.05, 10}, {&trainer, 1, 0.5, 50}};
  const ModelParameters m;
  const SliceOutcome out = predict({Sharing::mps, node}, clients, m);
  ASSERT_TRUE(out.clients[0].p99_ms);
  EXPECT_GE(*out.clients[0].p99_ms, 7.6 + 4 * (19.5 - 7.6) / 8 - 1e-9);
  // And at most the rate a copy its 20 copies had (2693.5 / 20 req/s).
  EXPECT_LE(*out.clients[0].req_per_s, (2774 + 0.5 * (2613 - 2774)) / 20 + 1e-9);
  const auto notes = explain_outcome(out.clients[0], cnn, Sharing::mps, m);
  EXPECT_NE(std::find_if(notes.begin(), notes.end(),
                         [](const std::string& n) {
                           return n.find("its own copies' tail: its MPS co-location grid's median copy had p99 14 ms "
                                         "with 20 copies") != std::string::npos;
                         }),
            notes.end())
      << ::testing::PrintToString(notes);
  EXPECT_NE(std::find_if(notes.begin(), notes.end(),
                         [](const std::string& n) {
                           return n.find("its own copies' rate: its MPS co-location grid's copies ran 135 req/s each "
                                         "with 20 copies") != std::string::npos;
                         }),
            notes.end())
      << ::testing::PrintToString(notes);
}

namespace {

// resnet50-b32 on an H200 (results/run46-inference-grid): 230 req/s alone at 0.36 SM activity; 4 and 8
// copies served 478 and 470 req/s together with 4 and 8 of 16 cores busy.
ProfileFacts resnet50_grid() {
  ProfileFacts p = grid_profile({{1, 243.4, 6.36, 1.0}, {4, 477.6, 9.68, 4.0}, {8, 469.6, 17.15, 8.0}});
  const double busy[] = {0.41, 0.93, 0.97};  // GPM's SM share of the whole GPU over each cell
  for (size_t i = 0; i < p.grid.size(); ++i) p.grid[i].gpu_busy = busy[i];
  p.sm_active = 0.36;
  p.req_per_s = 230.2;
  return p;
}

}  // namespace

TEST(HostCpuGrid, CopiesThatSaturatedTheGpuWithCoresToSpareGiveItsDemand) {
  const ProfileFacts p = resnet50_grid();
  const auto d = grid_gpu_demand(p);
  ASSERT_TRUE(d);
  EXPECT_NEAR(d->demand, 230.2 / 477.6, 1e-12);
  EXPECT_DOUBLE_EQ(d->plateau_req_per_s, 477.6);
  EXPECT_EQ(d->grew_to_k, 1);
  EXPECT_EQ(d->flat_at_k, 4);
  EXPECT_NEAR(effective_sm_activity(p), 230.2 / 477.6, 1e-12);
  EXPECT_DOUBLE_EQ(kernel_exposed_share(p), 1.0);  // on the plateau a copy gets 1 / (K x demand): all GPU time
  EXPECT_FALSE(host_cpu_knee(p));
  // Its copies' rate and tail are not a bound beside other kinds: they lost to each other's SMs, not to cores.
  EXPECT_FALSE(grid_per_copy_rate(p, 6));
  EXPECT_FALSE(grid_median_p99(p, 6));
  // The plateau is the most from the last K that grew on: 405 req/s at 16 copies, 6 of 16 cores busy.
  ProfileFacts later = grid_profile({{1, 100, 5, 0.75}, {4, 380, 6, 3}, {8, 400, 11, 6}, {16, 405, 22, 6.2}});
  ASSERT_TRUE(grid_gpu_demand(later));
  EXPECT_EQ(grid_gpu_demand(later)->grew_to_k, 4);
  EXPECT_NEAR(grid_gpu_demand(later)->demand, 100.0 / 405, 1e-12);
}

TEST(HostCpuGrid, NoGpuDemandWhereTheCoresBoundTheCopiesOrTheyKeptGrowingOrGpmSaysAsMuch) {
  EXPECT_FALSE(grid_gpu_demand(decode_grid()));  // the cores were full: host_cpu_knee
  const ProfileFacts spins = grid_profile({{1, 300, 3, 1.0}, {8, 2300, 5, 8}, {16, 4400, 8, 15.8}, {24, 6000, 12, 15.9}});
  EXPECT_FALSE(grid_gpu_demand(spins));
  ProfileFacts busy = resnet50_grid();
  busy.sm_active = 0.6;  // its SM activity alone already says more than the plateau
  EXPECT_FALSE(grid_gpu_demand(busy));
  EXPECT_DOUBLE_EQ(effective_sm_activity(busy), 0.6);
  // A launch-bound program's 4 copies that grew less than the rule asks (a K=1 cell measured fast) while GPM
  // had the GPU 16% busy: not the GPU's capacity.
  ProfileFacts noisy = grid_profile({{1, 300, 5, 1.0}, {4, 700, 6, 4.0}});
  noisy.sm_active = 0.04;
  noisy.req_per_s = 185;
  noisy.grid[1].gpu_busy = 0.16;
  EXPECT_FALSE(grid_gpu_demand(noisy));
  noisy.grid[1].gpu_busy.reset();  // without GPM nothing says otherwise
  EXPECT_TRUE(grid_gpu_demand(noisy));
}

// stream-triad on an H200 (results/run54-memory-default-h200): 612 req/s alone, 0.93 SM-active and 0.86 of the
// DRAM's bandwidth; one and 4 copies under MPS served 611 and 632 req/s together, the DRAM 0.89 and 0.92 busy.
// The copies found the bandwidth's limit, not the SMs': no GPU demand from them, and its kernels keep what
// its SM-share curve says beside programs that leave the DRAM free.
TEST(HostCpuGrid, CopiesThatFilledTheDramGiveNoGpuDemand) {
  ProfileFacts p = grid_profile({{1, 611.4, 1.66, 1.0}, {4, 631.8, 6.39, 4.0}});
  p.grid[0].gpu_busy = 0.968;
  p.grid[0].gpu_dram = 0.885;
  p.grid[1].gpu_busy = 1.0;
  p.grid[1].gpu_dram = 0.915;
  p.sm_active = 0.931;
  p.req_per_s = 612;
  EXPECT_FALSE(grid_gpu_demand(p));
  EXPECT_DOUBLE_EQ(effective_sm_activity(p), 0.931);
  // The same copies with the DRAM half busy (the SMs full): the SMs' limit, read as its demand.
  p.grid[1].gpu_dram = 0.5;
  ASSERT_TRUE(grid_gpu_demand(p));
  EXPECT_NEAR(grid_gpu_demand(p)->demand, 612 / 631.8, 1e-12);
}

TEST(HostCpuGrid, PredictCountsTheGridsDemandBesideLightNeighboursAndNoLaunchPath) {
  Workload cnn = test::workload("resnet50", 2, 0.5);
  cnn.profile = std::make_shared<ProfileFacts>(resnet50_grid());
  Workload light = test::workload("bert", 1, 0.1);
  light.profile = test::h100_profile(0.08, 260, 5.3);
  const SliceCapacity gpu{132, 3350};
  // Two copies of it and four light clients: SM pressure 2 x 0.48 + 4 x 0.08 on requests that are all GPU
  // time (GPM's 0.36 alone would say 1.04, on a third of its time).
  const std::vector<ModelClient> clients{{&cnn, 1, 0.5, 100}, {&cnn, 1, 0.5, 100}, {&light, 1, 0.1, 100},
                                         {&light, 1, 0.1, 100}, {&light, 1, 0.1, 100}, {&light, 1, 0.1, 100}};
  const ModelParameters m;
  const SliceOutcome out = predict({Sharing::mps, gpu}, clients, m);
  ASSERT_TRUE(out.clients[0].req_per_s);
  EXPECT_NEAR(*out.clients[0].req_per_s, 230.2 / (2 * 230.2 / 477.6 + 4 * 0.08), 0.03 * 230.2 / 1.28);
  const auto notes = explain_outcome(out.clients[0], cnn, Sharing::mps, m);
  const auto has = [&](const std::string& text) {
    return std::any_of(notes.begin(), notes.end(), [&](const std::string& n) { return n.find(text) != std::string::npos; });
  };
  EXPECT_TRUE(has("its own copies saturated the GPU: its MPS co-location grid's copies served 478 req/s together from "
                  "K=1 (no more at K=4, the host's cores not full), so a copy needs 0.48 of the GPU"))
      << ::testing::PrintToString(notes);
  EXPECT_FALSE(has("MPS launch path")) << ::testing::PrintToString(notes);
}

}  // namespace gpupack
