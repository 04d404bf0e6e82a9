// Two GPU resources in one container (issue 16): kubelet allocates each resource apart and keeps one
// reply's environment at random, so the plugins refuse such a container at PreStartContainer, from what
// PodResources lists. Checked against the kubelet simulator, which admits a container as kubelet does.
#include "k8s/container_check.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "fakes/temp_dir.hpp"
#include "k8s/device_plugins.hpp"
#include "k8s/kubelet_sim.hpp"
#include "k8s/sample_node.hpp"

namespace gpupack::k8s {
namespace {

using gpupack::testing::kGpu0;
using gpupack::testing::kGpu2;
using gpupack::testing::kMigB;

TEST(ContainerCheck, RefusesAContainerHoldingTwoGpuResources) {
  const std::map<std::string, PodContainer> allocations = {
      {kGpu2 + "::0", {"infer", "search", "model", "gpupack.io/mps-50"}},
      {kGpu2 + "::1", {"infer", "search", "model", "gpupack.io/mps-25"}},
      {kGpu2 + "::2", {"infer", "search", "sidecar", "gpupack.io/mps-25"}},
      {"fpga-0", {"infer", "search", "sidecar", "example.com/fpga"}},
  };
  const std::string refusal = mixed_resources_error("gpupack.io/mps-25", {kGpu2 + "::1"}, allocations);
  EXPECT_NE(refusal.find("container model of pod search/infer requests gpupack.io/mps-25 and gpupack.io/mps-50"),
            std::string::npos) << refusal;
  EXPECT_NE(refusal.find("one GPU resource per container"), std::string::npos);
  // Another container of the same pod, and a non-GPU resource beside a GPU one, are fine.
  EXPECT_EQ(mixed_resources_error("gpupack.io/mps-25", {kGpu2 + "::2"}, allocations), "");
  // A container PodResources does not list yet cannot be judged: let it start.
  EXPECT_EQ(mixed_resources_error("gpupack.io/mps-25", {kGpu2 + "::3"}, allocations), "");
  EXPECT_TRUE(is_gpu_resource("nvidia.com/mig-2g.20gb"));
  EXPECT_FALSE(is_gpu_resource("example.com/fpga"));
}

class TwoResourcesSim : public ::testing::Test {
 protected:
  gpupack::PosixFilesystem files_;
  void SetUp() override {
    kubelet.start();
    DevicePluginSettings s;
    s.plugin_dir = dir.path();
    s.pod_resources_socket = kubelet.pod_resources_socket();
    plugins = std::make_unique<DevicePlugins>(plan_resources(gpupack::testing::sample_targets()), s, files_);
    plugins->start();
    ASSERT_TRUE(kubelet.wait_for_registrations(plugins->resources().size()));
    for (const auto& r : kubelet.registrations()) EXPECT_TRUE(r.options().pre_start_required()) << r.resource_name();
  }

  gpupack::testing::TempDir dir;
  gpupack::testing::KubeletSim kubelet{dir.path()};
  std::unique_ptr<DevicePlugins> plugins;
};

TEST_F(TwoResourcesSim, MpsSlicesOfTwoSizesInOneContainerAreRefusedWithAMessageKubeletShows) {
  const auto start = kubelet.start_container("infer", "search", "model",
                                             {{"gpupack.io/mps-50", {kGpu2 + "::0"}}, {"gpupack.io/mps-25", {kGpu2 + "::1"}}});
  // What kubelet would have done without the check: one of 50 and 25, never 75.
  EXPECT_NE(std::find(start.conflicts.begin(), start.conflicts.end(), "CUDA_MPS_ACTIVE_THREAD_PERCENTAGE"), start.conflicts.end());
  EXPECT_EQ(start.status.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_NE(start.status.error_message().find("requests gpupack.io/mps-25 and gpupack.io/mps-50"), std::string::npos)
      << start.status.error_message();
}

TEST_F(TwoResourcesSim, AWholeGpuAndAMigInstanceInOneContainerAreRefused) {
  const auto start = kubelet.start_container("train", "ml", "main", {{"nvidia.com/gpu", {kGpu0}}, {"nvidia.com/mig-2g.20gb", {kMigB + "::0"}}});
  EXPECT_EQ(start.status.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_NE(start.status.error_message().find("nvidia.com/gpu"), std::string::npos) << start.status.error_message();
}

TEST_F(TwoResourcesSim, SlicesOfOneSizeAddUpAndContainersOfOnePodMayDiffer) {
  auto start = kubelet.start_container("infer", "search", "model", {{"gpupack.io/mps-25", {kGpu2 + "::1", kGpu2 + "::2"}}});
  ASSERT_TRUE(start.status.ok()) << start.status.error_message();
  EXPECT_EQ(start.envs.at("CUDA_MPS_ACTIVE_THREAD_PERCENTAGE"), "50");
  EXPECT_TRUE(start.conflicts.empty());
  start = kubelet.start_container("infer", "search", "sidecar", {{"gpupack.io/mps-50", {kGpu2 + "::0"}}});
  EXPECT_TRUE(start.status.ok()) << start.status.error_message();
}

}  // namespace
}  // namespace gpupack::k8s
