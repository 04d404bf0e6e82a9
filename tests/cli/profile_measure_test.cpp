// What `profile --sweep` adds by itself (cli/profile_measure.hpp): the short co-location grid's copies, and
// the standard neighbour's command and where it is left out.
#include "cli/profile_measure.hpp"

#include <gtest/gtest.h>

#include "core/errors.hpp"

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

TEST(ShortGrid, OneCopyAndItsCopiesWithoutMpsFirstThenUnderTheDaemon) {
  ProfileArgs a;
  a.sweep = "100,50,25,12";
  const std::vector<GridCellKey> both{{"timeslicing", 1}, {"timeslicing", 4}, {"mps", 1}, {"mps", 4}};
  EXPECT_EQ(short_grid_cells(a, 4), both);
  a.no_grid_timeslicing = true;  // --no-grid-timeslicing: under MPS only
  EXPECT_EQ(short_grid_cells(a, 3), (std::vector<GridCellKey>{{"mps", 1}, {"mps", 3}}));
  a.no_grid_timeslicing = false;
  EXPECT_TRUE(short_grid_cells(a, 0).empty());  // below two copies: no grid
  a.no_grid = true;
  EXPECT_TRUE(short_grid_cells(a, 4).empty());
  a.no_grid = false;
  a.grid = "2,4";  // --grid gives the copies (and --grid-timeslicing the cells without MPS)
  EXPECT_TRUE(short_grid_cells(a, 4).empty());
  ProfileArgs no_sweep;
  EXPECT_TRUE(short_grid_cells(no_sweep, 4).empty());
}

TEST(ShortGrid, NoGridTimeslicingCannotGoWithGridTimeslicing) {
  ProfileArgs a;
  a.sweep = "100";
  a.grid = "2,4";
  a.grid_timeslicing = true;
  a.no_grid_timeslicing = true;
  try {
    check_profile_args(a);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("--no-grid-timeslicing: "), std::string::npos) << e.what();
  }
}

TEST(StandardNeighbour, RunsGpupackItselfWhereNvmlCudaAndTheMemoryAllowIt) {
  std::string why_not = "stale";
  EXPECT_EQ(standard_neighbour_command("/usr/bin/gpupack", "nvml", true, 4 * kGiB, 70 * kGiB, why_not),
            "exec /usr/bin/gpupack neighbour");
  EXPECT_EQ(why_not, "");
  // A path a shell would split is quoted; free memory unknown does not stop it.
  EXPECT_EQ(standard_neighbour_command("/opt/my tools/gpupack", "nvml", true, 4 * kGiB, std::nullopt, why_not),
            "exec '/opt/my tools/gpupack' neighbour");
}

TEST(StandardNeighbour, LeftOutWithTheReasonWhereItCannotRun) {
  std::string why_not;
  EXPECT_EQ(standard_neighbour_command("/usr/bin/gpupack", "fake", true, 4 * kGiB, 70 * kGiB, why_not), "");
  EXPECT_EQ(why_not, "the GPU backend is fake, not NVML");
  EXPECT_EQ(standard_neighbour_command("/usr/bin/gpupack", "nvml", false, 4 * kGiB, 70 * kGiB, why_not), "");
  EXPECT_EQ(why_not, "this gpupack was built without CUDA");
  // 4 GiB of peak and the neighbour's 2 do not fit in 5 GiB free; in 6 they do.
  EXPECT_EQ(standard_neighbour_command("/usr/bin/gpupack", "nvml", true, 4 * kGiB, 5 * kGiB, why_not), "");
  EXPECT_EQ(why_not, "it needs 2 GiB of GPU memory free beside the program's peak");
  EXPECT_NE(standard_neighbour_command("/usr/bin/gpupack", "nvml", true, 4 * kGiB, 6 * kGiB, why_not), "");
}

}  // namespace
}  // namespace gpupack
