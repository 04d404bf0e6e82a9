#include "planner/perf_model.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace gpupack {

TEST(PerfModel, ReproducesTheMeasurementsItIsCalibratedOn) {
  const Calibration c;
  // One saturating neighbour: time-slicing 8.4x, MPS 1.74x, MPS with the neighbour at 50% 1.09x.
  const std::vector<double> saturating{1.0};
  EXPECT_NEAR(timeslicing_p99_inflation(c, saturating), 8.4, 1e-9);
  EXPECT_NEAR(mps_p99_inflation(c, 100), 1.74, 1e-9);
  EXPECT_NEAR(mps_p99_inflation(c, 50), 1.09, 1e-9);
  EXPECT_NEAR(mps_p99_inflation(c, 0), 1.0, 1e-9);
  EXPECT_NEAR(timeslicing_slowdown(c, 2), 2.0, 1e-9);
  EXPECT_NEAR(timeslicing_slowdown(c, 4), 3.1, 1e-9);
  EXPECT_NEAR(mps_slowdown(c, 8), 1.1, 1e-9);
  EXPECT_NEAR(mps_slowdown(c, 1), 1.0, 1e-9);
}

TEST(PerfModel, MoreLoadNeverPredictsABetterP99) {
  Calibration c;
  c.mps_capped_p99_inflation = {1.5, 1.2, 1.3};  // a noisy calibration that is not monotone
  double last = 0;
  for (int pct = 0; pct <= 100; pct += 5) {
    const double v = mps_p99_inflation(c, pct);
    EXPECT_GE(v, last);
    last = v;
  }
  std::vector<double> load;
  last = 1.0;
  for (int k = 0; k < 20; ++k) {
    load.push_back(0.05);
    const double v = timeslicing_p99_inflation(c, load);
    EXPECT_GE(v, last);
    last = v;
  }
  // Many lightly loaded neighbours still hurt the tail: 20 x 5% busy gives more than 2 busy at p99.
  EXPECT_GT(last, 1 + 7.4 * 2);
  EXPECT_GT(timeslicing_slowdown(c, 16), timeslicing_slowdown(c, 8));
}

}  // namespace gpupack
