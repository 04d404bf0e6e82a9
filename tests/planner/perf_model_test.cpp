#include "model/perf_model.hpp"

#include "planner/slice_state.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace gpupack {

TEST(PerfModel, ReproducesTheMeasurementsItIsCalibratedOn) {
  const ModelParameters c;
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
  ModelParameters c;
  c.calibration.mps_capped_p99_inflation = {1.5, 1.2, 1.3};  // a noisy calibration that is not monotone
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

TEST(PerfModel, ActiveThreadCapsCostThroughputOnlyWhereTheCalibrationSaysSo) {
  ModelParameters c;
  // Measured: a saturating neighbour capped at 50 % keeps 52 % of its throughput alone.
  EXPECT_NEAR(mps_capped_throughput(c, 50, 1.0), 0.52, 1e-9);
  // A client that needs 40 % of the SMs, capped at 40 % or more, keeps all of it.
  EXPECT_NEAR(mps_capped_throughput(c, 40, 0.4), 1.0, 1e-9);
  EXPECT_NEAR(mps_capped_throughput(c, 80, 0.4), 1.0, 1e-9);
  EXPECT_NEAR(mps_capped_throughput(c, 100, 1.0), 1.0, 1e-9);
  // A GPU where a 50 % cap leaves only 30 %: the same client keeps (0.2 + 0.1 x 15/25) / 0.4 = 0.65.
  c.calibration.mps_capped_neighbour_throughput = {0.2, 0.3, 0.6};
  EXPECT_NEAR(mps_capped_throughput(c, 40, 0.4), 0.65, 1e-9);
  EXPECT_NEAR(mps_capped_throughput(c, 0, 0.4), 0.0, 1e-9);
}

TEST(PerfModel, SliceThroughputUnderMpsReadsTheCappedThroughputCalibration) {
  SliceSpec spec;  // a whole GPU
  ClientLoad client;
  client.compute = 0.4;  // no SLO: capped at its demand, 40 %
  const std::vector<ClientLoad> clients{client, client};
  ModelParameters c;
  const double measured = evaluate_sharing(Sharing::mps, spec, clients, c).throughput;
  EXPECT_NEAR(measured, 1.0 / mps_slowdown(c, 1.4), 1e-9);  // caps at the demand cost nothing
  c.calibration.mps_capped_neighbour_throughput = {0.2, 0.3, 0.6};
  const SliceEvaluation e = evaluate_sharing(Sharing::mps, spec, clients, c);
  EXPECT_EQ(e.mps_caps, (std::vector<int>{40, 40}));
  EXPECT_NEAR(e.throughput, 0.65 * measured, 1e-9);
}

}  // namespace gpupack
