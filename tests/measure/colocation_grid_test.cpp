// The co-location grid's derived curves and its JSON form (the workload profile's `colocation` object).
#include "measure/colocation_grid.hpp"

#include <gtest/gtest.h>

namespace gpupack::measure {
namespace {

CopyResult copy(double req_per_s, double p50, double p99, double wall = 12) {
  CopyResult c;
  c.stopped = true;
  c.exit_code = 143;
  c.wall_s = wall;
  c.reported = true;
  c.requests = static_cast<long>(req_per_s * 10);
  c.req_per_s = req_per_s;
  c.p50_ms = p50;
  c.p99_ms = p99;
  return c;
}

GridCell cell(const std::string& mode, int k, std::vector<CopyResult> copies) {
  GridCell c;
  c.mode = mode;
  c.k = k;
  c.window_s = 10;
  c.copies = std::move(copies);
  return c;
}

// The resnet18-b1 figures: 341 req/s alone; 8 copies 1827 req/s (time-slicing), 2111 (MPS).
ColocationGrid resnet_grid() {
  ColocationGrid g{"python3 infer.py resnet18", "python3 gemm.py", 10, {}};
  g.cells.push_back(cell("timeslicing", 1, {copy(341, 2.9, 6.9)}));
  g.cells.push_back(cell("timeslicing", 8, std::vector<CopyResult>(8, copy(1827.0 / 8, 4, 20))));
  g.cells.push_back(cell("mps", 1, {copy(340, 2.9, 7.0)}));
  g.cells.push_back(cell("mps", 8, std::vector<CopyResult>(8, copy(2111.0 / 8, 3.5, 16))));
  GridCell alone = cell("timeslicing", 0, {});
  alone.with_neighbour = true;
  alone.neighbour = copy(100, 80, 90);
  g.cells.push_back(alone);
  GridCell capped = cell("mps", 1, {copy(300, 3.1, 9.6)});
  capped.with_neighbour = true;
  capped.neighbour_cap = 50;
  capped.neighbour = copy(62, 120, 150);
  g.cells.push_back(capped);
  GridCell failed = cell("mps", 4, {});
  failed.error = "copy 3 of 4 (GPUPACK_BENCH_CLIENT=2) exited with code 1 before its ready line";
  g.cells.push_back(failed);
  return g;
}

TEST(ColocationGrid, CurvesPerModeRelativeToOneCopy) {
  const ColocationGrid g = resnet_grid();
  const auto ts = aggregate_curve(g, "timeslicing");
  ASSERT_EQ(ts.size(), 2u);
  EXPECT_DOUBLE_EQ(ts[0].value, 1.0);
  EXPECT_NEAR(ts[1].value, 1827.0 / 341, 1e-9);
  const auto mps = aggregate_curve(g, "mps");
  ASSERT_EQ(mps.size(), 2u);  // the failed K=4 cell and the neighbour cell are not on the curve
  EXPECT_NEAR(mps[1].value, 2111.0 / 340, 1e-9);
  EXPECT_NEAR(p99_curve(g, "timeslicing")[1].value, 20, 1e-9);
  EXPECT_NEAR(*aggregate_req_per_s(g.cells[1]), 1827, 1e-9);
  EXPECT_NEAR(*neighbour_fraction(g, g.cells[5]), 0.62, 1e-9);
  EXPECT_FALSE(neighbour_fraction(g, g.cells[2]));
  EXPECT_EQ(grid_modes(g), (std::vector<std::string>{"timeslicing", "mps"}));
  EXPECT_EQ(cell_label(g.cells[5]), "mps K=1 + neighbour at 50%");
  EXPECT_EQ(cell_label(g.cells[4]), "timeslicing neighbour alone");
  EXPECT_FALSE(find_cell(g, "mps", 4));  // failed
}

TEST(ColocationGrid, ProgramsThatDoNotReportHaveOnlyWallTime) {
  ColocationGrid g{"./legacy", "", 10, {}};
  CopyResult silent;
  silent.wall_s = 17.0;
  g.cells.push_back(cell("timeslicing", 1, {silent}));
  silent.wall_s = 18.6;
  g.cells.push_back(cell("timeslicing", 4, std::vector<CopyResult>(4, silent)));
  EXPECT_FALSE(latency_reported(g.cells[0]));
  EXPECT_FALSE(aggregate_req_per_s(g.cells[1]));
  EXPECT_TRUE(aggregate_curve(g, "timeslicing").empty());
  const auto wall = wall_curve(g, "timeslicing");
  ASSERT_EQ(wall.size(), 2u);
  EXPECT_NEAR(wall[1].value, 18.6 / 17.0, 1e-9);
  // A copy that reported nothing is not "reported" in JSON, and its req/s is null, not 0.
  const auto j = to_json(g);
  EXPECT_TRUE(j["cells"][0]["copies"][0]["req_per_s"].is_null());
  EXPECT_FALSE(j["cells"][0]["latency_reported"].get<bool>());
}

TEST(ColocationGrid, JsonRoundTrip) {
  const ColocationGrid g = resnet_grid();
  const auto j = to_json(g);
  EXPECT_NEAR(j["curves"]["mps"]["aggregate_vs_k1"]["8"].get<double>(), 2111.0 / 340, 1e-9);
  EXPECT_NEAR(j["curves"]["timeslicing"]["aggregate_req_per_s"]["8"].get<double>(), 1827, 1e-9);
  EXPECT_NEAR(j["cells"][5]["neighbour_fraction"].get<double>(), 0.62, 1e-9);
  // Through text, as a profile file carries it.
  const ColocationGrid back = colocation_grid_from_json(nlohmann::json::parse(j.dump()));
  EXPECT_EQ(to_json(back).dump(), j.dump());
  EXPECT_EQ(back.cells[6].error, g.cells[6].error);
  EXPECT_EQ(back.neighbour_command, "python3 gemm.py");
}

TEST(ColocationGrid, TheGpusActivityOverACellsWindowRoundTripsAndIsAShare) {
  ColocationGrid g = resnet_grid();
  g.cells[5].gpu_sm_active = 0.7;
  g.cells[5].gpu_dram_bw = 0.88;
  auto j = nlohmann::json::parse(to_json(g).dump());
  EXPECT_TRUE(j["cells"][0]["gpu_dram_bw"].is_null());
  const ColocationGrid back = colocation_grid_from_json(j);
  EXPECT_EQ(back.cells[5].gpu_dram_bw, 0.88);
  EXPECT_EQ(back.cells[5].gpu_sm_active, 0.7);
  EXPECT_FALSE(back.cells[0].gpu_dram_bw);
  j["cells"][0].erase("gpu_dram_bw");  // grids written before
  EXPECT_FALSE(colocation_grid_from_json(j).cells[0].gpu_dram_bw);
  j["cells"][5]["gpu_dram_bw"] = 1.5;
  try {
    colocation_grid_from_json(j);
    FAIL() << "accepted a DRAM share of 1.5";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "colocation.cells[5]: field 'gpu_dram_bw' must be a share from 0 to 1");
  }
}

TEST(ColocationGrid, MalformedJsonNamesTheField) {
  auto j = nlohmann::json::parse(to_json(resnet_grid()).dump());
  j["cells"][1]["copies"][3].erase("wall_s");
  try {
    colocation_grid_from_json(j);
    FAIL() << "accepted a copy without wall_s";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "colocation.cells[1].copies[3]: missing field 'wall_s'");
  }
  j = nlohmann::json::parse(to_json(resnet_grid()).dump());
  j["cells"][0]["k"] = "one";
  EXPECT_THROW(colocation_grid_from_json(j), std::runtime_error);
  EXPECT_THROW(colocation_grid_from_json(nlohmann::json::array()), std::runtime_error);
}

}  // namespace
}  // namespace gpupack::measure

namespace gpupack::measure {
namespace {

// Issue 37: how latency grows when copies share the host's cores needs the cores they used and the node's.
TEST(ColocationGridHostCpu, CellsCarryTheCopiesCoresAndPerCopyMediansAndWorsts) {
  ColocationGrid g{"exec decode", "", 10, {}};
  g.node_cores = 16;
  g.usable_cores = 12;
  std::vector<CopyResult> copies = {copy(40, 23, 40), copy(38, 25, 44), copy(36, 24, 48.8), copy(35, 30, 41)};
  for (std::size_t i = 0; i < copies.size(); ++i) copies[i].host_cpu_cores = 0.9 + 0.1 * static_cast<double>(i);
  g.cells.push_back(cell("mps", 4, copies));
  const GridCell& c = g.cells.front();
  EXPECT_DOUBLE_EQ(*median_p50_ms(c), 24.5);
  EXPECT_DOUBLE_EQ(*worst_p50_ms(c), 30);
  EXPECT_DOUBLE_EQ(*median_p99_ms(c), 42.5);
  EXPECT_DOUBLE_EQ(*worst_p99_ms(c), 48.8);
  EXPECT_NEAR(*copies_host_cpu_cores(c), 0.9 + 1.0 + 1.1 + 1.2, 1e-12);
  const auto j = to_json(g);
  EXPECT_EQ(j.at("node_cores"), 16);
  EXPECT_NEAR(j.at("cells")[0].at("host_cpu_cores").get<double>(), 4.2, 1e-12);
  EXPECT_DOUBLE_EQ(j.at("cells")[0].at("median_p99_ms").get<double>(), 42.5);
  EXPECT_NEAR(j.at("curves").at("mps").at("host_cpu_cores").at("4").get<double>(), 4.2, 1e-12);
  const ColocationGrid back = colocation_grid_from_json(nlohmann::json::parse(j.dump()));
  EXPECT_EQ(back.node_cores, 16);
  EXPECT_EQ(back.usable_cores, 12);
  EXPECT_DOUBLE_EQ(*back.cells[0].copies[3].host_cpu_cores, 1.2);
  EXPECT_EQ(to_json(back).dump(), j.dump());
  // One copy without its cores: the cell's total is unknown, not the sum of the others.
  g.cells.front().copies[1].host_cpu_cores.reset();
  EXPECT_FALSE(copies_host_cpu_cores(g.cells.front()));
}

TEST(ColocationGridHostCpu, GridsWrittenBeforeReadWithoutHostFieldsAndBadCoresAreRefused) {
  auto j = nlohmann::json::parse(to_json(resnet_grid()).dump());
  j.erase("node_cores");
  j.erase("usable_cores");
  for (auto& c : j["cells"]) {
    for (auto& copy : c["copies"]) copy.erase("host_cpu_cores");
  }
  const ColocationGrid old = colocation_grid_from_json(j);
  EXPECT_FALSE(old.node_cores);
  EXPECT_FALSE(old.cells[0].copies[0].host_cpu_cores);
  j["node_cores"] = 0;
  EXPECT_THROW(colocation_grid_from_json(j), std::runtime_error);
  j["node_cores"] = 16;
  j["cells"][0]["copies"][0]["host_cpu_cores"] = -1;
  EXPECT_THROW(colocation_grid_from_json(j), std::runtime_error);
}

}  // namespace
}  // namespace gpupack::measure
