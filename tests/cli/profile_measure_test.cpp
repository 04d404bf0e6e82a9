// The short co-location grid `profile --sweep` runs without --grid (cli/profile_measure.hpp): how many copies.
#include "cli/profile_measure.hpp"

#include <gtest/gtest.h>

namespace gpupack {
namespace {

constexpr std::uint64_t kGiB = 1ull << 30;

TEST(ShortGrid, FourCopiesWhereHalfTheCoresAndTheFreeMemoryHoldThem) {
  EXPECT_EQ(default_grid_k(1 * kGiB, 78 * kGiB, 16), 4);
  EXPECT_EQ(default_grid_k(1 * kGiB, std::nullopt, 16), 4);  // free memory unknown: not bounded by it
  EXPECT_EQ(default_grid_k(0, 78 * kGiB, 16), 4);             // no peak measured: not bounded by it
}

TEST(ShortGrid, FewerWhereTheCoresOrTheMemoryHoldFewerAndNoneBelowTwo) {
  EXPECT_EQ(default_grid_k(1 * kGiB, 78 * kGiB, 6), 3);    // half of 6 cores
  EXPECT_EQ(default_grid_k(1 * kGiB, 78 * kGiB, 4), 2);
  EXPECT_EQ(default_grid_k(1 * kGiB, 78 * kGiB, 3), 0);    // one copy is no grid
  EXPECT_EQ(default_grid_k(1 * kGiB, 78 * kGiB, 2), 0);    // CI's machines
  EXPECT_EQ(default_grid_k(30 * kGiB, 70 * kGiB, 16), 2);  // 0.9 x 70 GiB holds two copies at 30 GiB
  EXPECT_EQ(default_grid_k(40 * kGiB, 70 * kGiB, 16), 0);  // and one at 40 GiB: an LLM is not copied
}

}  // namespace
}  // namespace gpupack
