// CUDA_MPS_ACTIVE_THREAD_PERCENTAGE read from a client's environment as its share of the SMs
// (gpupack_process_sm_allocated_ratio and the slice's SM allotment).
#include <gtest/gtest.h>

#include "agent/agent.hpp"

namespace gpupack {
namespace {

TEST(ActiveThreadRatio, ReadsPercentagesAndRefusesTheRest) {
  EXPECT_EQ(active_thread_ratio("50"), 0.5);
  EXPECT_EQ(active_thread_ratio("12.5"), 0.125);
  EXPECT_EQ(active_thread_ratio("100"), 1.0);
  for (const char* bad : {"", "0", "101", "-5", "50%", "abc", "50 "}) EXPECT_EQ(active_thread_ratio(bad), std::nullopt) << bad;
}

}  // namespace
}  // namespace gpupack
