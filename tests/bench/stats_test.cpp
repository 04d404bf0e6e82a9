#include "bench/stats.hpp"

#include <gtest/gtest.h>

namespace gpupack::bench {
namespace {

TEST(Stats, QuantileInterpolatesBetweenRanks) {
  const std::vector<double> s{4, 1, 3, 2, 5};  // unsorted on purpose
  EXPECT_DOUBLE_EQ(quantile(s, 0.0), 1);
  EXPECT_DOUBLE_EQ(quantile(s, 0.5), 3);
  EXPECT_DOUBLE_EQ(quantile(s, 1.0), 5);
  EXPECT_DOUBLE_EQ(quantile(s, 0.125), 1.5);  // position 0.5 between 1 and 2
}

TEST(Stats, MedianOfEvenCountAveragesTheMiddle) { EXPECT_DOUBLE_EQ(median({1, 2, 3, 10}), 2.5); }

TEST(Stats, EmptySamplesGiveZero) {
  EXPECT_EQ(quantile({}, 0.99), 0);
  EXPECT_EQ(mean({}), 0);
  EXPECT_EQ(summarize({}).count, 0);
}

TEST(Stats, TailPercentilesSeeOnePercentTail) {
  std::vector<double> s(1000, 100);
  for (int i = 0; i < 20; ++i) s[static_cast<size_t>(i * 50)] = 1000;  // 2% tail
  const LatencySummary sum = summarize(s);
  EXPECT_DOUBLE_EQ(sum.p50, 100);
  EXPECT_DOUBLE_EQ(sum.p99, 1000);
  EXPECT_DOUBLE_EQ(sum.p999, 1000);
  EXPECT_DOUBLE_EQ(sum.max, 1000);
  EXPECT_DOUBLE_EQ(sum.mean, 118);
}

TEST(Stats, P999NeedsTheTopTenthPercent) {
  std::vector<double> s(1000);
  for (size_t i = 0; i < s.size(); ++i) s[i] = static_cast<double>(i + 1);  // 1..1000
  EXPECT_NEAR(quantile(s, 0.99), 990.01, 1e-9);
  EXPECT_NEAR(quantile(s, 0.999), 999.001, 1e-9);
}

}  // namespace
}  // namespace gpupack::bench
