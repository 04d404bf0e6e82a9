#include "bench/metrics.hpp"

#include <gtest/gtest.h>

#include "bench/recorded_results.hpp"
#include "bench/verdicts.hpp"

namespace gpupack::bench {
namespace {

using testing::recorded_results;

TEST(Metrics, StreamSpeedupIsMedianSerialOverMedianConcurrent) {
  const BenchResults r = recorded_results();
  EXPECT_DOUBLE_EQ(*stream_speedup(r, 2), 2.0);
  EXPECT_NEAR(*copy_overlap_speedup(r), 10.1 / 6.0, 1e-12);
  EXPECT_FALSE(stream_speedup(r, 3).has_value());
}

TEST(Metrics, SlowdownAndAggregateThroughputAreRelativeToOneClient) {
  const BenchResults r = recorded_results();
  EXPECT_NEAR(*slowdown(r, "timeslicing", 2), 2.0, 1e-12);
  EXPECT_NEAR(*slowdown(r, "mps", 2), 1.05, 1e-12);
  EXPECT_NEAR(*aggregate_throughput(r, "mps", 8), 8 * 0.30 / 0.33, 1e-12);
  EXPECT_NEAR(*aggregate_throughput(r, "timeslicing", 2), 1.0, 1e-12);
  EXPECT_FALSE(slowdown(r, "mig", 2).has_value());
}

TEST(Metrics, P99InflationAndNeighbourFraction) {
  const BenchResults r = recorded_results();
  EXPECT_NEAR(*p99_inflation(r, "timeslicing"), 2100.0 / 250, 1e-9);
  EXPECT_NEAR(*p99_inflation(r, "mps"), 435.0 / 250, 1e-9);
  EXPECT_NEAR(*neighbour_fraction(r, "mps_cap50"), 0.52, 1e-12);
  EXPECT_FALSE(neighbour_fraction(r, "alone").has_value());
}

TEST(Metrics, ExpectedFractionFollowsTheSmsSeen) {
  EXPECT_NEAR(expected_fraction({25, 32, 132, 0, 0}), 32.0 / 132, 1e-12);
  // A device that reports all SMs under the cap: the percentage itself is the expectation.
  EXPECT_NEAR(expected_fraction({25, 132, 132, 0, 0}), 0.25, 1e-12);
}

TEST(Metrics, CalibrationHasEveryContractField) {
  const Calibration c = calibration(recorded_results());
  EXPECT_NEAR(*c.timeslicing_p99_inflation, 8.4, 1e-9);
  EXPECT_NEAR(*c.mps_p99_inflation, 1.74, 1e-9);
  EXPECT_NEAR(c.mps_capped_p99_inflation.at(50), 1.09, 1e-9);
  EXPECT_NEAR(c.mps_capped_neighbour_throughput.at(25), 0.25, 1e-12);
  EXPECT_NEAR(c.timeslicing_slowdown.at(8), 1.77 / 0.30, 1e-9);
  EXPECT_NEAR(c.mps_slowdown.at(4), 1.06, 1e-9);
  EXPECT_EQ(c.mps_slowdown.count(1), 0u);
}

TEST(Verdicts, RecordedRunReproducesTheLab) {
  for (const auto& v : verdicts(recorded_results())) EXPECT_EQ(v.outcome, Outcome::pass) << v.id << ": " << v.measured;
}

TEST(Verdicts, EachFindingCanFail) {
  BenchResults r = recorded_results();
  r.streams->kernels[0].concurrent_ms = {2.0, 2.0, 2.0};                 // no stream concurrency
  r.clients[1].seconds = {1.2, 1.2};                                     // 4x: above the lab's 3.5x cap
  r.clients[5].seconds = {1.0, 1.0};                                     // MPS keeps most of the 4x
  r.thread_limits[1].gflops = 60;                                        // 50% cap lets 60% through
  r.memory_limit->beyond_failed = false;                                 // limit not enforced
  for (const auto& v : verdicts(r)) EXPECT_EQ(v.outcome, Outcome::fail) << v.id;
  EXPECT_TRUE(any_failed(verdicts(r)));
}

TEST(Verdicts, MissingPartsAreSkippedNotPassed) {
  BenchResults r;
  for (const auto& v : verdicts(r)) EXPECT_EQ(v.outcome, Outcome::skipped) << v.id;
  EXPECT_FALSE(any_failed(verdicts(r)));
}

TEST(Verdicts, ContentionBelowTheLabsFloorFails) {
  BenchResults r = recorded_results();
  r.clients[1].seconds = {0.33, 0.33};  // 1.1x: two processes barely slowed
  EXPECT_EQ(verdicts(r)[1].outcome, Outcome::fail);
}

}  // namespace
}  // namespace gpupack::bench
