// Runs only on a machine with an NVIDIA GPU and driver (label gpu): NVML loads through dlopen and sees
// devices with plausible values. The device script compares the values with nvidia-smi.
#include "gpu/nvml_gpu_backend.hpp"

#include <gtest/gtest.h>

namespace gpupack {
namespace {

TEST(NvmlGpuBackend, SeesTheDevicesOfThisMachine) {
  NvmlGpuBackend b;
  EXPECT_TRUE(b.driver_version());
  const auto devs = b.devices();
  ASSERT_FALSE(devs.empty());
  for (const auto& d : devs) {
    EXPECT_EQ(d.uuid.rfind("GPU-", 0), 0u) << d.uuid;
    EXPECT_FALSE(d.name.empty());
    ASSERT_TRUE(d.memory_total_bytes);
    EXPECT_GT(*d.memory_total_bytes, 1ull << 30);
    if (d.utilization_gpu) {
      EXPECT_GE(*d.utilization_gpu, 0.0);
      EXPECT_LE(*d.utilization_gpu, 1.0);
    }
  }
  b.poll_xid_events();
}

}  // namespace
}  // namespace gpupack
