// The PodResources client against a fake kubelet PodResourcesLister on a unix socket.
#include "k8s/pod_resources.hpp"

#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>

#include "fakes/temp_dir.hpp"
#include "k8s/sample_node.hpp"
#include "podresources_v1.grpc.pb.h"

namespace gpupack::k8s {
namespace {

class FakeLister final : public v1::PodResourcesLister::Service {
 public:
  grpc::Status List(grpc::ServerContext*, const v1::ListPodResourcesRequest*, v1::ListPodResourcesResponse* out) override {
    *out = response;
    return grpc::Status::OK;
  }
  v1::ListPodResourcesResponse response;
};

void add(v1::ListPodResourcesResponse& r, const std::string& pod, const std::string& ns, const std::string& container,
         const std::string& resource, const std::vector<std::string>& ids) {
  auto* p = r.add_pod_resources();
  p->set_name(pod);
  p->set_namespace_(ns);
  auto* c = p->add_containers();
  c->set_name(container);
  auto* d = c->add_devices();
  d->set_resource_name(resource);
  for (const auto& id : ids) d->add_device_ids(id);
}

TEST(PodResources, MapsAllocatedDevicesToPodsPerGpu) {
  gpupack::testing::TempDir dir;
  FakeLister lister;
  add(lister.response, "infer-0", "search", "model", "gpupack.io/mps-25", {gpupack::testing::kGpu2 + "::1"});
  add(lister.response, "infer-1", "search", "model", "gpupack.io/mps-50", {gpupack::testing::kGpu2 + "::0"});
  add(lister.response, "train", "ml", "main", "nvidia.com/gpu", {gpupack::testing::kGpu0});
  add(lister.response, "other", "x", "c", "example.com/fpga", {"fpga-0"});
  grpc::ServerBuilder b;
  b.AddListeningPort("unix://" + (dir / "kubelet.sock"), grpc::InsecureServerCredentials());
  b.RegisterService(&lister);
  auto server = b.BuildAndStart();
  ASSERT_TRUE(server);

  const auto allocations = PodResourcesClient(dir / "kubelet.sock").list();
  ASSERT_EQ(allocations.size(), 4u);
  EXPECT_EQ(allocations.at(gpupack::testing::kGpu0), (PodContainer{"train", "ml", "main", "nvidia.com/gpu"}));

  const auto pods = pods_by_target(allocations, plan_resources(gpupack::testing::sample_targets()));
  ASSERT_EQ(pods.size(), 2u);  // the FPGA is not ours
  ASSERT_EQ(pods.at(gpupack::testing::kGpu2).size(), 2u);
  EXPECT_EQ(pods.at(gpupack::testing::kGpu2)[0].pod, "infer-0");  // in resource order: mps-25 before mps-50
  EXPECT_EQ(pods.at(gpupack::testing::kGpu0)[0].pod_namespace, "ml");
  // An MPS client's environment names its slice: the pod behind a process NVML shows under the server.
  const auto pod = pod_of_client("GPU-elsewhere::9," + gpupack::testing::kGpu2 + "::0", allocations);
  ASSERT_TRUE(pod.has_value());
  EXPECT_EQ(pod->pod, "infer-1");
  EXPECT_FALSE(pod_of_client("", allocations).has_value());
  EXPECT_FALSE(pod_of_client("GPU-elsewhere::9", allocations).has_value());
  server->Shutdown();
}

TEST(PodResources, NoKubeletIsAnErrorNamingTheSocket) {
  gpupack::testing::TempDir dir;
  try {
    PodResourcesClient(dir / "none.sock").list(std::chrono::milliseconds(500));
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("none.sock"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace gpupack::k8s
