// Client limits in their one text form: written by render, the agent and the device plugin, read back by
// the agent from a client's environment (gpupack_process_sm_allocated_ratio, the slice's allotments).
#include <gtest/gtest.h>

#include "contract/client_limits.hpp"

namespace gpupack {
namespace {

constexpr std::uint64_t kMiB = std::uint64_t{1024} * 1024;

TEST(MpsMemoryText, WholeMebibytesRoundedUp) {
  EXPECT_EQ(mps_memory_text(8192 * kMiB), "8192M");
  EXPECT_EQ(mps_memory_text(1536 * kMiB + 1), "1537M");  // never below what the plan computed
  EXPECT_EQ(mps_memory_text(1), "1M");                    // a small limit never becomes "0M"
  EXPECT_EQ(pinned_limit_env(20ull << 30), "0=20480M");
}

TEST(MpsMemoryText, RoundTripsThroughTheParser) {
  for (const std::uint64_t bytes : {kMiB, 512 * kMiB, std::uint64_t{80} << 30, (std::uint64_t{5} << 30) + 3}) {
    const auto back = pinned_limit_device0(pinned_limit_env(bytes));
    ASSERT_TRUE(back) << bytes;
    EXPECT_EQ(*back, (bytes + kMiB - 1) / kMiB * kMiB);  // exact on whole MiB, else the next MiB up
    EXPECT_EQ(pinned_limit_env(*back), pinned_limit_env(bytes));
  }
}

TEST(PinnedLimit, ReadsDeviceZerosLimit) {
  EXPECT_EQ(pinned_limit_device0("0=1G,1=512M"), 1ull << 30);
  EXPECT_EQ(pinned_limit_device0("512M"), 512ull << 20);
  EXPECT_EQ(pinned_limit_device0("0=3g"), 3ull << 30);
  EXPECT_EQ(pinned_limit_device0("1=512M"), std::nullopt);
  EXPECT_EQ(pinned_limit_device0("0=lots"), std::nullopt);
  EXPECT_EQ(pinned_limit_device0(""), std::nullopt);
  EXPECT_EQ(pinned_limit_device0("0=M"), std::nullopt);
}

TEST(ActiveThreadRatio, ReadsPercentagesAndRefusesTheRest) {
  EXPECT_EQ(active_thread_ratio("50"), 0.5);
  EXPECT_EQ(active_thread_ratio("12.5"), 0.125);
  EXPECT_EQ(active_thread_ratio("100"), 1.0);
  for (const char* bad : {"", "0", "101", "-5", "50%", "abc", "50 "}) EXPECT_EQ(active_thread_ratio(bad), std::nullopt) << bad;
}

}  // namespace
}  // namespace gpupack
