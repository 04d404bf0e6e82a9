#include "k8s/device_plan.hpp"

#include <gtest/gtest.h>

#include "core/errors.hpp"
#include "k8s/sample_node.hpp"
#include "contract/resource_names.hpp"

namespace gpupack::k8s {
namespace {

using testing::kGiB;

const PluginResource* find(const std::vector<PluginResource>& rs, const std::string& name) {
  for (const auto& r : rs) {
    if (r.name == name) return &r;
  }
  return nullptr;
}

TEST(DevicePlan, EveryKindOfResourceWithItsNameAndIds) {
  const auto rs = plan_resources(testing::sample_targets());
  std::vector<std::string> names;
  for (const auto& r : rs) names.push_back(r.name);
  EXPECT_EQ(names, (std::vector<std::string>{"gpupack.io/mig-1g.10gb-mps-50", "gpupack.io/mps-25", "gpupack.io/mps-50",
                                             "nvidia.com/gpu", "nvidia.com/mig-2g.20gb", "nvidia.com/mig-3g.40gb"}));
  const auto* gpu = find(rs, "nvidia.com/gpu");
  ASSERT_EQ(gpu->devices.size(), 4u);
  EXPECT_EQ(gpu->devices[0].id, testing::kGpu0);  // whole GPU: its UUID
  EXPECT_EQ(gpu->devices[1].id, testing::kGpu1 + "::0");  // time-slicing replicas
  EXPECT_EQ(gpu->devices[3].id, testing::kGpu1 + "::2");
  EXPECT_EQ(find(rs, "nvidia.com/mig-3g.40gb")->devices[0].id, testing::kMigA);
  EXPECT_EQ(find(rs, "nvidia.com/mig-2g.20gb")->devices[1].id, testing::kMigB + "::1");
}

TEST(DevicePlan, UnequalMpsSlicesCarryTheirShare) {
  const auto rs = plan_resources(testing::sample_targets());
  const auto& half = find(rs, "gpupack.io/mps-50")->devices;
  const auto& quarter = find(rs, "gpupack.io/mps-25")->devices;
  ASSERT_EQ(half.size(), 1u);
  ASSERT_EQ(quarter.size(), 2u);
  EXPECT_EQ(half[0].id, testing::kGpu2 + "::0");
  EXPECT_EQ(quarter[0].id, testing::kGpu2 + "::1");  // numbered across the GPU's slices: unique
  EXPECT_EQ(half[0].memory_bytes, 40 * kGiB);
  EXPECT_EQ(quarter[1].memory_bytes, (80 - 40) * kGiB / 2);  // no size given: an equal share of what 40 GiB leave
  EXPECT_EQ(quarter[1].sm_percent, 25);
  EXPECT_EQ(quarter[1].pipe_dir, "/run/gpupack/mps/" + testing::kGpu2 + "/pipe");
  const auto& mig = find(rs, "gpupack.io/mig-1g.10gb-mps-50")->devices;
  ASSERT_EQ(mig.size(), 2u);
  EXPECT_EQ(mig[0].memory_bytes, 5 * kGiB);  // the configured per-client limit
  EXPECT_EQ(mig[0].target_uuid, testing::kMigC);
  EXPECT_EQ(mig[0].gpu_uuid, testing::kGpu3);
}

TEST(DevicePlan, EqualMpsSlicesWithoutLimitsAreNamedAfterTheFullGpu) {
  ShareTarget t;
  t.gpu_uuid = testing::kGpu0;
  t.sharing = Sharing::mps;
  t.clients = 4;
  t.memory_total_bytes = 80 * kGiB;
  const auto rs = plan_resources({t});
  ASSERT_EQ(rs.size(), 1u);
  EXPECT_EQ(rs[0].name, "gpupack.io/mps-100");  // as `gpupack render` names it
  EXPECT_EQ(rs[0].devices.size(), 4u);
  EXPECT_EQ(rs[0].devices[3].memory_bytes, 20 * kGiB);
}

TEST(DevicePlan, GpupackOnlyDropsNvidiaResources) {
  const auto rs = plan_resources(testing::sample_targets(), true);
  for (const auto& r : rs) EXPECT_EQ(r.name.rfind("gpupack.io/", 0), 0u) << r.name;
  EXPECT_EQ(rs.size(), 3u);
}

TEST(DevicePlan, MoreSlicesThanClientsIsAnError) {
  auto targets = testing::sample_targets();
  targets[2].clients = 2;  // three slices configured
  try {
    plan_resources(targets);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(testing::kGpu2), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("3 MPS slices"), std::string::npos) << e.what();
  }
}

// Issue 16: 50%/40 GiB plus 2 x 25% without a size pinned 40960 + 2 x 27186 MiB on an 81559 MiB GPU.
TEST(DevicePlan, SizedMpsSlicesMayNotOvercommitTheGpu) {
  auto targets = testing::sample_targets();
  targets[2].memory_total_bytes = 81559ull << 20;
  std::uint64_t pinned = 0;
  for (const auto& r : plan_resources(targets)) {
    for (const auto& d : r.devices) pinned += d.gpu_uuid == testing::kGpu2 ? d.memory_bytes : 0;
  }
  EXPECT_LE(pinned, 81559ull << 20);
  targets[2].mps_slices = {{50, 60 * kGiB, 1, std::nullopt}, {25, 30 * kGiB, 1, std::nullopt}};  // 90 GiB on 80
  try {
    plan_resources(targets);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("pin 90GiB"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(testing::kGpu2), std::string::npos) << e.what();
  }
  targets[2].mps_slices = {{50, 40 * kGiB, 2, std::nullopt}, {25, std::nullopt, 1, std::nullopt}};  // nothing left for the unsized one
  EXPECT_THROW(plan_resources(targets), InputError);
}

TEST(DevicePlan, DeviceIdsLongerThanKubeletAcceptsAreAnError) {
  ShareTarget t;
  t.gpu_uuid = std::string(70, 'G');
  EXPECT_THROW(plan_resources({t}), InputError);
}

TEST(DevicePlan, SocketAndProfileNames) {
  EXPECT_EQ(socket_name("nvidia.com/mig-1g.10gb"), "gpupack-nvidia.com-mig-1g.10gb.sock");
  EXPECT_EQ(mig_resource_part("1g.10gb+me"), "1g.10gb.me");  // contract/resource_names.hpp, one rule for both
}

}  // namespace
}  // namespace gpupack::k8s
