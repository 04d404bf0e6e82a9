// What the planner gets from a profile's repeatable baseline and its co-location grid's host CPU
// (ProfileFacts, filled by attach_profiles): new optional facts, absent for profiles written before.
#include <gtest/gtest.h>

#include <fstream>

#include "fakes/temp_dir.hpp"
#include "measure/colocation_grid.hpp"
#include "measure/workload_profile.hpp"
#include "profile_plan_helpers.hpp"

namespace gpupack {
namespace {

measure::WorkloadProfile cnn_profile() {
  measure::WorkloadProfile p;
  p.name = "cnn";
  p.command = {"python3", "cnn.py"};
  p.device = {"H100-SXM5-80GB", "NVIDIA H100 80GB HBM3", "GPU-1"};
  p.window = {"ready-line", 3, 10, true, 5.0};
  p.memory = {1ull << 30, 1234173952, "processes"};
  p.activity = {0.3, 0.2, 0.1, 0.05, 0.6, "gpm", 20};
  p.requests = measure::ProfileRequests{191, 5.0, 7.5, 1910};
  p.report = {true, 0, std::nullopt};
  p.compute_demand = {0.5, "gpm", std::nullopt, std::nullopt, std::nullopt};
  p.baseline = measure::summarize_baseline("alone", {{133, 7.0, 9.0, 1.0}, {228, 4.2, 6.0, 1.2}, {191, 5.0, 7.5, 1.1}}, 0.10);
  p.mps_baseline = measure::summarize_baseline("mps-100", {{200, 4.9, 6.6, std::nullopt}, {204, 4.8, 6.9, std::nullopt}}, 0.10);
  measure::ColocationGrid grid{"exec python3 cnn.py", "", 10, {}};
  grid.node_cores = 16;
  grid.usable_cores = 12;
  for (int k : {1, 4}) {
    measure::GridCell cell;
    cell.mode = "mps";
    cell.k = k;
    cell.window_s = 10;
    for (int i = 0; i < k; ++i) {
      measure::CopyResult c;
      c.reported = true;
      c.req_per_s = 180;
      c.p50_ms = 5;
      c.p99_ms = 8;
      c.host_cpu_cores = 1.1;
      cell.copies.push_back(c);
    }
    if (k == 4) {  // GPM over the cell: the whole GPU's SM and DRAM shares
      cell.gpu_sm_active = 0.35;
      cell.gpu_dram_bw = 0.12;
    }
    grid.cells.push_back(cell);
  }
  p.colocation = nlohmann::json(measure::to_json(grid));
  return p;
}

TEST(ProfileBaselineFacts, TheBaselinesAndTheGridsHostCoresReachThePlanner) {
  const testing::TempDir dir;
  std::ofstream(dir.path() + "/cnn.json") << measure::profile_to_json(cnn_profile()).dump(2);
  const Scenario s = test::from_text("workloads: [{name: cnn, replicas: 2}]\n", dir.path());
  const ProfileFacts& f = *s.workloads.at(0).profile;
  ASSERT_TRUE(f.baseline && f.mps_baseline);
  EXPECT_EQ(f.baseline->source, "median of 3 runs");
  EXPECT_EQ(f.baseline->runs, 3);
  EXPECT_DOUBLE_EQ(f.baseline->req_per_s, 191);
  EXPECT_DOUBLE_EQ(*f.baseline->p50_ms, 5.0);
  EXPECT_NEAR(*f.baseline->req_spread, 95.0 / 191, 1e-12);
  EXPECT_EQ(f.baseline->repeatable, false);
  EXPECT_EQ(f.baseline->flag, "req/s spread 50%, p50 spread 56% over 3 runs (limit 10%)");
  EXPECT_EQ(f.mps_baseline->repeatable, true);
  EXPECT_DOUBLE_EQ(f.mps_baseline->req_per_s, 202);
  ASSERT_EQ(f.grid.size(), 2u);
  EXPECT_EQ(f.grid[1].k, 4);
  EXPECT_NEAR(*f.grid[1].host_cpu_cores, 4.4, 1e-12);
  EXPECT_EQ(f.grid[1].node_cores, 16);
  EXPECT_EQ(f.grid[1].usable_cores, 12);
  EXPECT_DOUBLE_EQ(f.grid[1].aggregate_req_per_s, 720);
  EXPECT_DOUBLE_EQ(*f.grid[1].gpu_busy, 0.35);  // the larger of the two
  EXPECT_FALSE(f.grid[0].gpu_busy);
}

// `--neighbour-cmd`'s cells with the GPU's DRAM share (issue 36, item 3): the others' draw is the GPU's less
// the program's own alone (0.05) at the rate it kept; a cell without the GPU's activity gives no point.
TEST(ProfileBaselineFacts, TheNeighbourCellsGiveItsMeasuredDramSlowdown) {
  measure::WorkloadProfile p = cnn_profile();
  measure::ColocationGrid grid = measure::colocation_grid_from_json(*p.colocation);
  grid.neighbour_command = "exec python3 stream_triad.py";
  auto beside = [](std::optional<int> cap, double req, double p99, std::optional<double> dram) {
    measure::GridCell cell;
    cell.mode = "mps";
    cell.k = 1;
    cell.with_neighbour = true;
    cell.neighbour_cap = cap;
    cell.window_s = 10;
    measure::CopyResult c;
    c.reported = true;
    c.req_per_s = req;
    c.p50_ms = p99 / 2;
    c.p99_ms = p99;
    cell.copies.push_back(c);
    cell.neighbour = c;
    cell.gpu_dram_bw = dram;
    return cell;
  };
  grid.cells.push_back(beside(60, 150, 9, 0.45));
  grid.cells.push_back(beside(30, 90, 20, 0.9));
  grid.cells.push_back(beside(10, 170, 8, std::nullopt));
  // The neighbour alone (uncapped) and the program beside it at 100% of the threads: that cell carries the
  // neighbour's SM activity alone (model/saturation_wait.hpp); the capped ones do not.
  measure::GridCell alone = beside(std::nullopt, 0, 0, 0.8);
  alone.k = 0;
  alone.copies.clear();
  alone.gpu_sm_active = 0.96;
  grid.cells.push_back(alone);
  grid.cells.push_back(beside(100, 60, 30, 0.95));
  p.colocation = nlohmann::json(measure::to_json(grid));
  const testing::TempDir dir;
  std::ofstream(dir.path() + "/cnn.json") << measure::profile_to_json(p).dump(2);
  const Scenario s = test::from_text("workloads: [{name: cnn, replicas: 2}]\n", dir.path());
  const ProfileFacts& f = *s.workloads.at(0).profile;
  ASSERT_EQ(f.dram_neighbour.size(), 3u);
  EXPECT_EQ(f.dram_neighbour[2].neighbour_cap, 100);
  EXPECT_TRUE(f.dram_neighbour[2].fills());
  EXPECT_NEAR(*f.dram_neighbour[2].neighbour_sm, 0.96, 1e-12);
  EXPECT_NEAR(f.dram_neighbour[2].req_ratio, 60.0 / 180, 1e-12);
  EXPECT_FALSE(f.dram_neighbour[0].neighbour_sm);
  EXPECT_FALSE(f.dram_neighbour[1].neighbour_sm);
  // Against the grid's one copy alone under MPS (180 req/s, p99 8 ms), in increasing draw.
  EXPECT_EQ(f.dram_neighbour[0].neighbour_cap, 60);
  EXPECT_NEAR(f.dram_neighbour[0].others_dram, 0.45 - 0.05 * 150 / 180, 1e-12);
  EXPECT_NEAR(f.dram_neighbour[0].req_ratio, 150.0 / 180, 1e-12);
  EXPECT_NEAR(*f.dram_neighbour[0].p99_ratio, 9.0 / 8, 1e-12);
  EXPECT_EQ(f.dram_neighbour[1].neighbour_cap, 30);
  EXPECT_NEAR(f.dram_neighbour[1].others_dram, 0.9 - 0.05 * 0.5, 1e-12);
  EXPECT_NEAR(f.dram_neighbour[1].req_ratio, 0.5, 1e-12);
  EXPECT_NEAR(*f.dram_neighbour[1].p99_ratio, 2.5, 1e-12);
  // Each cell's p99 over its mean request (1 / its req/s), and less it in ms: how alike its requests were there.
  EXPECT_NEAR(*f.dram_neighbour[2].tail_ratio, 30 * 60 / 1000.0, 1e-12);
  EXPECT_NEAR(*f.dram_neighbour[0].tail_ratio, 9 * 150 / 1000.0, 1e-12);
  EXPECT_NEAR(*f.dram_neighbour[2].tail_excess_ms, 30 - 1000.0 / 60, 1e-12);
  EXPECT_NEAR(*f.dram_neighbour[0].tail_excess_ms, 9 - 1000.0 / 150, 1e-12);
}

TEST(ProfileBaselineFacts, ProfilesWrittenBeforeHaveNone) {
  const Scenario s = test::from_text("workloads: [{name: resnet18-b1, replicas: 1}]\n", test::kData + "/profiles-h100-2026-11-23");
  const ProfileFacts& f = *s.workloads.at(0).profile;
  EXPECT_FALSE(f.baseline);
  EXPECT_FALSE(f.mps_baseline);
  EXPECT_TRUE(f.req_per_s);
  EXPECT_TRUE(f.dram_neighbour.empty());
}

}  // namespace
}  // namespace gpupack
