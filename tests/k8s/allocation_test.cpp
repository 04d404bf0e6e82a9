#include "k8s/allocation.hpp"

#include <gtest/gtest.h>

#include "k8s/sample_node.hpp"

namespace gpupack::k8s {
namespace {

using testing::kGiB;

PluginResource resource(const std::string& name) {
  for (auto& r : plan_resources(testing::sample_targets())) {
    if (r.name == name) return r;
  }
  throw std::runtime_error("no resource " + name);
}

const auto all_healthy = [](const std::string&) { return true; };

std::string error_of(const PluginResource& r, const std::vector<std::vector<std::string>>& req,
                     AllocationError::Kind kind, const std::function<bool(const std::string&)>& healthy = all_healthy) {
  try {
    allocate(r, healthy, req, false);
  } catch (const AllocationError& e) {
    EXPECT_EQ(e.kind(), kind) << e.what();
    return e.what();
  }
  ADD_FAILURE() << "no error";
  return "";
}

TEST(Allocate, WholeGpusByUuidOnePerContainer) {
  const auto r = resource("nvidia.com/gpu");
  const auto a = allocate(r, all_healthy, {{testing::kGpu0}, {testing::kGpu1 + "::0", testing::kGpu1 + "::2"}}, false);
  ASSERT_EQ(a.size(), 2u);
  EXPECT_EQ(a[0].envs.at("NVIDIA_VISIBLE_DEVICES"), testing::kGpu0);
  EXPECT_EQ(a[1].envs.at("NVIDIA_VISIBLE_DEVICES"), testing::kGpu1);  // two replicas, one GPU
  EXPECT_EQ(a[1].envs.at("GPUPACK_DEVICE_IDS"), testing::kGpu1 + "::0," + testing::kGpu1 + "::2");
  EXPECT_TRUE(a[0].mounts.empty());
  EXPECT_FALSE(a[0].envs.count("CUDA_MPS_PIPE_DIRECTORY"));
  EXPECT_TRUE(a[0].cdi_devices.empty());
}

TEST(Allocate, MpsSliceGetsItsLimitsPipeAndShm) {
  const auto r = resource("gpupack.io/mps-25");
  const auto a = allocate(r, all_healthy, {{testing::kGpu2 + "::1"}}, false);
  const std::string pipe = "/run/gpupack/mps/" + testing::kGpu2 + "/pipe";
  EXPECT_EQ(a[0].envs.at("CUDA_MPS_PIPE_DIRECTORY"), pipe);
  EXPECT_EQ(a[0].envs.at("CUDA_MPS_ACTIVE_THREAD_PERCENTAGE"), "25");
  EXPECT_EQ(a[0].envs.at("CUDA_MPS_PINNED_DEVICE_MEM_LIMIT"), "0=20480M");  // (80 GiB - 40 GiB of the mps-50 slice) / 2
  ASSERT_EQ(a[0].mounts.size(), 2u);
  EXPECT_EQ(a[0].mounts[0].host_path, pipe);
  EXPECT_EQ(a[0].mounts[0].container_path, pipe);
  EXPECT_EQ(a[0].mounts[1].host_path, "/dev/shm");
}

TEST(Allocate, TwoSlicesOfOneGpuMakeOneBiggerClient) {
  const auto a = allocate(resource("gpupack.io/mps-25"), all_healthy, {{testing::kGpu2 + "::1", testing::kGpu2 + "::2"}}, false);
  EXPECT_EQ(a[0].envs.at("CUDA_MPS_ACTIVE_THREAD_PERCENTAGE"), "50");
}

TEST(Allocate, MigMpsAndCdiNames) {
  const auto a = allocate(resource("gpupack.io/mig-1g.10gb-mps-50"), all_healthy, {{testing::kMigC + "::1"}}, true);
  EXPECT_EQ(a[0].envs.at("NVIDIA_VISIBLE_DEVICES"), testing::kMigC);
  EXPECT_EQ(a[0].envs.at("CUDA_MPS_PINNED_DEVICE_MEM_LIMIT"), "0=5120M");
  EXPECT_EQ(a[0].cdi_devices, std::vector<std::string>{"gpupack.io/gpu=" + testing::kMigC + "-1"});
}

TEST(Allocate, BadRequestsNameWhatIsWrong) {
  const auto r = resource("nvidia.com/gpu");
  EXPECT_NE(error_of(r, {}, AllocationError::Kind::invalid).find("no containers"), std::string::npos);
  EXPECT_NE(error_of(r, {{}}, AllocationError::Kind::invalid).find("container 0 requests no device IDs"), std::string::npos);
  EXPECT_NE(error_of(r, {{"GPU-nope", testing::kGpu0}}, AllocationError::Kind::invalid).find("'GPU-nope'"), std::string::npos);
  EXPECT_NE(error_of(r, {{testing::kGpu0}, {testing::kGpu0}}, AllocationError::Kind::invalid).find("twice for nvidia.com/gpu: '" + testing::kGpu0 + "'"),
            std::string::npos);
  const auto msg = error_of(r, {{testing::kGpu1 + "::0", testing::kGpu1 + "::1", testing::kGpu1 + "::1"}},
                            AllocationError::Kind::invalid);
  EXPECT_NE(msg.find("twice"), std::string::npos) << msg;
  const auto sick = [](const std::string& id) { return id != testing::kGpu0; };
  EXPECT_NE(error_of(r, {{testing::kGpu0}}, AllocationError::Kind::unhealthy, sick).find("unhealthy devices of nvidia.com/gpu: '" + testing::kGpu0 + "'"),
            std::string::npos);
}

TEST(Allocate, MoreDevicesThanTheResourceHasIsExhausted) {
  const auto r = resource("nvidia.com/mig-2g.20gb");  // two replicas
  const auto msg = error_of(r, {{testing::kMigB + "::0", testing::kMigB + "::1"}, {testing::kMigB + "::0"}},
                            AllocationError::Kind::exhausted);
  EXPECT_NE(msg.find("3 devices of nvidia.com/mig-2g.20gb requested, the node has 2"), std::string::npos) << msg;
}

TEST(Allocate, MpsSlicesOfOneContainerMustShareTheirGpu) {
  PluginResource r = resource("gpupack.io/mps-25");
  r.devices[1].target_uuid = testing::kGpu0;  // pretend the second slice lives elsewhere
  EXPECT_NE(error_of(r, {{r.devices[0].id, r.devices[1].id}}, AllocationError::Kind::invalid).find("one GPU or MIG instance"),
            std::string::npos);
}

TEST(PreferredAllocation, PackedFillsTheMostUsedGpuDistributedTheLeast) {
  PluginResource r;
  r.name = "nvidia.com/gpu";
  for (const std::string g : {"GPU-a", "GPU-b"}) {
    for (int n = 0; n < 3; ++n) {
      PluginDevice d;
      d.id = g + "::" + std::to_string(n);
      d.gpu_uuid = d.target_uuid = g;
      r.devices.push_back(d);
    }
  }
  // GPU-b already has one replica in use.
  const std::vector<std::string> available = {"GPU-a::0", "GPU-a::1", "GPU-a::2", "GPU-b::1", "GPU-b::2"};
  EXPECT_EQ(preferred_allocation(r, AllocationPolicy::packed, available, {}, 2), (std::vector<std::string>{"GPU-b::1", "GPU-b::2"}));
  EXPECT_EQ(preferred_allocation(r, AllocationPolicy::distributed, available, {}, 2), (std::vector<std::string>{"GPU-a::0", "GPU-a::1"}));
  EXPECT_EQ(preferred_allocation(r, AllocationPolicy::distributed, available, {}, 3),
            (std::vector<std::string>{"GPU-a::0", "GPU-a::1", "GPU-b::1"}));
  // must-include first, unknown IDs ignored, never more than asked.
  EXPECT_EQ(preferred_allocation(r, AllocationPolicy::packed, available, {"GPU-a::2", "GPU-x::0"}, 2),
            (std::vector<std::string>{"GPU-a::2", "GPU-a::0"}));
}

TEST(CdiName, DoubleColonsAndSlashesBecomeDashes) {
  EXPECT_EQ(cdi_device_name("GPU-1::3"), "GPU-1-3");
  EXPECT_EQ(cdi_device_name("MIG-GPU-1/7/0::2"), "MIG-GPU-1-7-0-2");
}

}  // namespace
}  // namespace gpupack::k8s
