// Whether a prediction's miss is no larger than the profile's baseline runs alone were apart.
#include "verify/run_range.hpp"

#include <gtest/gtest.h>

namespace gpupack::verify {
namespace {

TEST(RunRange, AMissWithinTheBaselinesRunsAloneIsToldApartFromTheModels) {
  // Runs alone from 0.8 to 1.25 of the median req/s: measured / predicted from 0.8 / 1.15 to 1.25 / 0.85.
  EXPECT_TRUE(within_run_range(0.10, 0.8, 1.25, 0.15));         // within the target anyway
  EXPECT_TRUE(within_run_range(1 / 0.70 - 1, 0.8, 1.25, 0.15));  // measured 0.70 of predicted: 0.8 / 1.15 = 0.696
  EXPECT_FALSE(within_run_range(1 / 0.69 - 1, 0.8, 1.25, 0.15));
  EXPECT_TRUE(within_run_range(1 / 1.47 - 1, 0.8, 1.25, 0.15));  // 1.25 / 0.85 = 1.4706
  EXPECT_FALSE(within_run_range(1 / 1.48 - 1, 0.8, 1.25, 0.15));
  EXPECT_FALSE(within_run_range(0.20, std::nullopt, std::nullopt, 0.15));  // no runs: the target alone
  EXPECT_FALSE(within_run_range(-1.0, 0.8, 1.25, 0.15));

}

TEST(RunRange, BothFiguresAtOnceAndTheRangeOfABaseline) {
  const RunRange range{0.8, 1.25, 0.9, 1.1};
  EXPECT_TRUE(within_run_range(range, 1 / 0.75 - 1, 0.15, 0.0, 0.25));
  EXPECT_FALSE(within_run_range(range, 1 / 0.75 - 1, 0.15, 1 / 1.6 - 1, 0.25));  // p99 1.6x: past 1.1 / 0.75
  ProfileBaseline b;
  b.req_low = 0.9;
  b.req_high = 1.3;
  const RunRange of = run_range_of(&b);
  EXPECT_EQ(of.req_low, 0.9);
  EXPECT_EQ(of.req_high, 1.3);
  EXPECT_FALSE(of.p99_low);
  EXPECT_FALSE(run_range_of(nullptr).req_low);
}

}  // namespace
}  // namespace gpupack::verify
