// The CPU probe on this machine's own cores: the fixed work takes time on every core in turn, and the
// calling thread keeps its own affinity afterwards.
#include "os/cpu_work_probe.hpp"

#include <gtest/gtest.h>
#include <pthread.h>
#include <sched.h>

namespace gpupack {
namespace {

TEST(CpuWorkProbe, TimesTheWorkOnEachCoreAndGivesTheThreadItsAffinityBack) {
  cpu_set_t before;
  CPU_ZERO(&before);
  ASSERT_EQ(::pthread_getaffinity_np(::pthread_self(), sizeof before, &before), 0);
  PinnedCpuWorkProbe probe;
  for (int i = 0; i < 2 * CPU_COUNT(&before); ++i) {
    const auto ms = probe.time_next_core();
    ASSERT_TRUE(ms);
    EXPECT_GT(*ms, 0.0);
    EXPECT_LT(*ms, 10000.0);
  }
  cpu_set_t after;
  CPU_ZERO(&after);
  ASSERT_EQ(::pthread_getaffinity_np(::pthread_self(), sizeof after, &after), 0);
  EXPECT_TRUE(CPU_EQUAL(&before, &after));
}

TEST(CpuWorkProbe, TheWorkItselfTakesTime) {
  // A chain of 2^20 dependent multiply-adds: at least a few hundred microseconds on any core.
  EXPECT_GT(time_fixed_cpu_work_ms(), 0.1);
}

}  // namespace
}  // namespace gpupack
