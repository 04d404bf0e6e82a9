// Runs only on a machine with an NVIDIA GPU and driver (label gpu): NVML loads through dlopen and sees
// devices with plausible values. The device script compares the values with nvidia-smi.
#include "gpu/nvml_gpu_backend.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <thread>

namespace gpupack {
namespace {

const GpuCatalog kCatalog = builtin_catalog();

TEST(NvmlGpuBackend, SeesTheDevicesOfThisMachine) {
  NvmlGpuBackend b(kCatalog);
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

std::string text(const std::optional<double>& v) { return v ? std::to_string(*v) : "absent"; }

void expect_ratio(const std::optional<double>& v) {
  if (v) {
    EXPECT_GE(*v, 0.0);
    EXPECT_LE(*v, 1.0);
  }
}

// GPM and per-process utilisation over a real interval (printed: tests/e2e-gpu/gpm_real.sh runs this
// beside a known workload). GPM needs two reads; on Hopper and newer it must be there after the second.
TEST(NvmlGpuBackend, GpmAfterTwoReadsOnHopperAndRatiosEverywhere) {
  NvmlGpuBackend b(kCatalog);
  for (const auto& d : b.devices()) EXPECT_FALSE(d.gpm) << "GPM needs two samples";
  std::this_thread::sleep_for(std::chrono::milliseconds(1000));  // a real interval on a real GPU
  for (const auto& d : b.devices()) {
    const bool hopper_or_newer = d.name.find("H100") != std::string::npos || d.name.find("H200") != std::string::npos ||
                                 d.name.find("H20") != std::string::npos || d.name.find("B200") != std::string::npos;
    std::printf("GPU %u %s: NVML util %s\n", d.index, d.name.c_str(), text(d.utilization_gpu).c_str());
    if (d.gpm) {
      std::printf("  GPM over %.3f s: sm_active %s sm_occupancy %s tensor_active %s dram_bw %s\n", d.gpm->interval_seconds,
                  text(d.gpm->sm_active).c_str(), text(d.gpm->sm_occupancy).c_str(), text(d.gpm->tensor_active).c_str(),
                  text(d.gpm->dram_bw).c_str());
      EXPECT_NEAR(d.gpm->interval_seconds, 1.0, 0.5);
      expect_ratio(d.gpm->sm_active);
      expect_ratio(d.gpm->sm_occupancy);
      expect_ratio(d.gpm->tensor_active);
      expect_ratio(d.gpm->dram_bw);
    } else {
      std::printf("  no GPM\n");
      EXPECT_FALSE(hopper_or_newer && !d.mig_enabled.value_or(false)) << d.name << ": Hopper or newer without GPM";
    }
    for (const auto& m : d.mig_instances) {
      std::printf("  MIG %s (GI %u): GPM sm_active %s\n", m.uuid.c_str(), m.gpu_instance_id,
                  m.gpm ? text(m.gpm->sm_active).c_str() : "absent");
    }
    for (const auto& p : d.processes) {
      std::printf("  pid %u%s: sm %s memory %s\n", p.pid, p.mps_client ? " (MPS client)" : "", text(p.sm_utilization).c_str(),
                  text(p.memory_utilization).c_str());
      expect_ratio(p.sm_utilization);
      expect_ratio(p.memory_utilization);
    }
  }
}

}  // namespace
}  // namespace gpupack
