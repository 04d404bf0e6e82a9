#include "core/mig_capacity.hpp"

#include <gtest/gtest.h>

#include "core/gpu_catalog.hpp"
#include "core/mig_request.hpp"

namespace gpupack {

namespace {
MigCapacity capacity_of(const char* gpu, std::vector<std::string> tokens, Sharing s, int n,
                        CudaVersion cuda = {13, 0}) {
  static const GpuCatalog c = builtin_catalog();
  const GpuModel& m = c.get(gpu);
  return mig_capacity(m, parse_mig_request(m, tokens), s, n, cuda);
}
}  // namespace

TEST(MigCapacity, SevenOneGWithFourWayTimeSlicingServes28) {
  EXPECT_EQ(capacity_of("A100-80GB", {"7x1g.10gb"}, Sharing::time_slicing, 4).total, 28);
  EXPECT_EQ(capacity_of("A100-80GB", {"7x1g.10gb"}, Sharing::exclusive, 1).total, 7);
}

TEST(MigCapacity, MpsLimitScalesWithInstanceSize) {
  // 48 clients per GPU up to CUDA 13.0: a 1g instance (1/7) allows 6, a 3g 20, a 7g 48.
  const MigCapacity cap = capacity_of("A100-80GB", {"3g.40gb", "2g.20gb", "2x1g.10gb"}, Sharing::mps, 100);
  ASSERT_EQ(cap.rows.size(), 3u);
  int total = 0;
  for (const auto& r : cap.rows) {
    total += r.total;
    EXPECT_EQ(r.clients_per_instance, r.mps_limit_per_instance);
  }
  EXPECT_TRUE(cap.clamped);
  EXPECT_EQ(total, cap.total);
  EXPECT_EQ(cap.total, 20 + 13 + 2 * 6);
  EXPECT_EQ(capacity_of("A100-80GB", {"7g.80gb"}, Sharing::mps, 100).total, 48);
  EXPECT_EQ(capacity_of("A100-80GB", {"7g.80gb"}, Sharing::mps, 100, {13, 1}).total, 60);
  // On A30 (4 compute slices) a 1g instance gets a quarter of 48.
  EXPECT_EQ(capacity_of("A30", {"4x1g.6gb"}, Sharing::mps, 100).total, 4 * 12);
}

TEST(MigCapacity, MpsBelowTheLimitIsNotClamped) {
  const MigCapacity cap = capacity_of("H100-80GB", {"7x1g.10gb"}, Sharing::mps, 4);
  EXPECT_FALSE(cap.clamped);
  EXPECT_EQ(cap.total, 28);
}

}  // namespace gpupack
