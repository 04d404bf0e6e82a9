// The launch pressure: the reporter's mean request alone and beside the program, from its own grid.
#include "measure/launch_pressure.hpp"

#include <gtest/gtest.h>

namespace gpupack::measure {
namespace {

CopyResult reporter(double req_per_s) {
  CopyResult c;
  c.stopped = true;
  c.exit_code = 143;
  c.reported = true;
  c.requests = static_cast<long>(req_per_s * 5);
  c.req_per_s = req_per_s;
  return c;
}

GridCell cell(int k, double reporter_req_per_s, std::optional<int> cap = std::nullopt) {
  GridCell c;
  c.mode = "mps";
  c.k = k;
  c.window_s = 5;
  c.with_neighbour = true;
  c.neighbour_cap = cap;
  c.neighbour = reporter(reporter_req_per_s);
  if (k > 0) c.copies.push_back(reporter(250));  // the program (its figures do not count here)
  return c;
}

// run76's resnet50-b32 on an H200: the reporter 0.165 ms a request alone, 0.386 ms beside it.
TEST(LaunchPressure, IsTheReportersRequestBesideTheProgramLessAlone) {
  ColocationGrid g{"python3 resnet50_b32.py", "gpupack neighbour --kind reporter", 5, {}};
  g.cells = {cell(0, 1000 / 0.165), cell(1, 1000 / 0.386)};
  const auto p = launch_pressure(g);
  ASSERT_TRUE(p);
  EXPECT_NEAR(p->alone_ms, 0.165, 1e-9);
  EXPECT_NEAR(p->beside_ms, 0.386, 1e-9);
  EXPECT_NEAR(p->added_ms(), 0.221, 1e-9);
}

TEST(LaunchPressure, NoneWithoutBothCellsOrWithAFailedOneOrACappedOne) {
  ColocationGrid g{"client", "reporter", 5, {}};
  g.cells = {cell(0, 6000)};
  EXPECT_FALSE(launch_pressure(g));
  g.cells = {cell(0, 6000), cell(1, 3000)};
  g.cells[1].error = "the program exited 1 before its window";
  EXPECT_FALSE(launch_pressure(g));
  g.cells = {cell(0, 6000), cell(1, 3000, 50)};  // a capped reporter is not what the pressure compares
  EXPECT_FALSE(launch_pressure(g));
  g.cells = {cell(0, 6000), cell(1, 3000)};
  g.cells[0].neighbour->req_per_s.reset();  // it reported no requests
  EXPECT_FALSE(launch_pressure(g));
}

TEST(LaunchPressure, CanComeOutBelowZeroByNoise) {
  ColocationGrid g{"client", "reporter", 5, {}};
  g.cells = {cell(0, 1000 / 0.168), cell(1, 1000 / 0.161)};  // run77's "none" twice: no neighbour at all
  const auto p = launch_pressure(g);
  ASSERT_TRUE(p);
  EXPECT_LT(p->added_ms(), 0);
}

}  // namespace
}  // namespace gpupack::measure
