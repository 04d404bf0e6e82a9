#include "agent/profiler.hpp"

#include <gtest/gtest.h>

#include "gpu/fake_gpu_backend.hpp"
#include "os/clock.hpp"

namespace gpupack {
namespace {

// A machine whose device memory grows while the program runs (samples: baseline 1 GiB, then 3, 5, 4 GiB).
nlohmann::json machine() {
  return {{"devices",
           nlohmann::json::array({{{"uuid", "GPU-1"},
                                   {"name", "NVIDIA H100 80GB HBM3"},
                                   {"memory_total_bytes", 85520809984ull},
                                   {"memory_used_samples", {1ull << 30, 3ull << 30, 5ull << 30, 4ull << 30}},
                                   {"utilization_gpu", {0.0, 0.4, 0.6, 0.5}}}})}};
}

TEST(Profiler, TurnsPeakMemoryAndMeanUtilisationIntoAWorkloadEntry) {
  FakeGpuBackend gpu(machine());
  PosixProcessRunner runner;
  LinuxProcReader proc;
  SystemClock clock;
  ProfileOptions o;
  o.command = {"sh", "-c", "sleep 5"};
  o.name = "ranker";
  o.interval = std::chrono::milliseconds(50);
  o.duration = std::chrono::milliseconds(300);
  const ProfileResult r = profile_program(o, runner, gpu, proc, clock);
  EXPECT_TRUE(r.stopped_at_duration);
  ASSERT_GE(r.samples.size(), 3u);
  EXPECT_EQ(r.peak_memory_bytes, 4ull << 30);  // 5 GiB at the peak minus the 1 GiB baseline
  EXPECT_FALSE(r.per_process);
  ASSERT_TRUE(r.mean_utilization);
  EXPECT_GT(*r.mean_utilization, 0.4);
  EXPECT_LT(*r.mean_utilization, 0.61);
  const std::string y = workload_yaml(r);
  EXPECT_NE(y.find("  - name: ranker\n"), std::string::npos) << y;
  EXPECT_NE(y.find("    memory: 4.6GiB\n"), std::string::npos) << y;  // 4 GiB + 15%
  EXPECT_NE(y.find("on H100-SXM5-80GB"), std::string::npos) << y;
}

TEST(Profiler, ReportsTheExitCodeOfAProgramThatEndsByItself) {
  FakeGpuBackend gpu(machine());
  PosixProcessRunner runner;
  LinuxProcReader proc;
  SystemClock clock;
  ProfileOptions o;
  o.command = {"sh", "-c", "exit 4"};
  o.interval = std::chrono::milliseconds(20);
  const ProfileResult r = profile_program(o, runner, gpu, proc, clock);
  EXPECT_EQ(r.exit_code, 4);
  EXPECT_FALSE(r.stopped_at_duration);
  EXPECT_EQ(r.name, "sh");
}

}  // namespace
}  // namespace gpupack
