#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "core/errors.hpp"
#include "fakes/temp_dir.hpp"
#include "k8s/health.hpp"
#include "k8s/node_labels.hpp"
#include "k8s/sample_node.hpp"

namespace gpupack::k8s {
namespace {

TEST(NodeLabels, ProductCountAndSharingPerResource) {
  const auto labels = node_labels(testing::sample_targets(), plan_resources(testing::sample_targets()), false);
  EXPECT_EQ(labels.at("gpupack.io/gpu.product"), "NVIDIA-H100-80GB-HBM3");
  EXPECT_EQ(labels.at("gpupack.io/gpu.count"), "4");                 // physical GPUs, never a resource's count
  EXPECT_EQ(labels.at("gpupack.io/resource.gpu.count"), "4");        // 1 exclusive + 3 time-sliced devices
  EXPECT_EQ(labels.at("gpupack.io/resource.gpu.sharing-strategy"), "mixed");  // one exclusive, one time-sliced GPU
  EXPECT_EQ(labels.at("gpupack.io/resource.gpu.replicas"), "3");
  EXPECT_EQ(labels.at("gpupack.io/resource.mps-25.sharing-strategy"), "mps");
  EXPECT_EQ(labels.at("gpupack.io/resource.mps-25.replicas"), "2");
  EXPECT_EQ(labels.at("gpupack.io/resource.mig-3g.40gb.sharing-strategy"), "none");
  EXPECT_EQ(labels.at("gpupack.io/resource.mig-2g.20gb.sharing-strategy"), "time-slicing");
  EXPECT_EQ(labels.at("gpupack.io/resource.mig-1g.10gb-mps-50.replicas"), "2");
  EXPECT_FALSE(labels.count("scheduling.cast.ai/gpu-shared"));
}

// Issue 17: a 4-GPU node whose nvidia.com/gpu resource has 5 devices printed gpu.count=5. One name, one
// meaning: gpu.count is the physical GPUs, the resource's devices are resource.gpu.count.
TEST(NodeLabels, GpuCountIsNeverOverwrittenByTheGpuResource) {
  auto targets = testing::sample_targets();
  targets[1].clients = 4;  // gpu1 time-sliced 4 ways: 1 + 4 = 5 nvidia.com/gpu devices on 4 GPUs
  const auto labels = node_labels(targets, plan_resources(targets), false);
  EXPECT_EQ(labels.at("gpupack.io/gpu.count"), "4");
  EXPECT_EQ(labels.at("gpupack.io/resource.gpu.count"), "5");
}

TEST(NodeLabels, CastAiLabelsWhenAsked) {
  const auto labels = node_labels(testing::sample_targets(), plan_resources(testing::sample_targets()), true);
  EXPECT_EQ(labels.at("scheduling.cast.ai/gpu-sharing-strategy"), "mps");
  // The most pods one physical GPU serves: the MIG GPU, 1 + 2 + 2 devices.
  EXPECT_EQ(labels.at("scheduling.cast.ai/gpu-shared"), "5");
}

TEST(NodeLabels, LabelValuesAreValid) {
  EXPECT_EQ(label_value("NVIDIA A100-SXM4-80GB"), "NVIDIA-A100-SXM4-80GB");
  EXPECT_EQ(label_value(" (x) "), "x");
  EXPECT_EQ(label_value(std::string(80, 'a')).size(), 63u);
}

TEST(NodeLabels, FeatureFileIsWrittenWhole) {
  testing::TempDir dir;
  const std::string path = dir / "features.d/gpupack";
  PosixFilesystem fs;
  write_features_file(fs, path, {{"gpupack.io/gpu.count", "2"}, {"a/b", "c"}});
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  EXPECT_NE(s.str().find("\na/b=c\ngpupack.io/gpu.count=2\n"), std::string::npos) << s.str();
  EXPECT_EQ(fs.list_dir(dir / "features.d"), std::vector<std::string>{"gpupack"});  // no temporary file left
}

TEST(Health, XidIsStickyLostComesBackApplicationXidsIgnored) {
  HealthTracker t({testing::kGpu0, testing::kGpu3}, {testing::kMigA});
  auto devices = testing::sample_devices();
  EXPECT_TRUE(t.update(devices, {}).empty());
  EXPECT_TRUE(t.update(devices, {{testing::kGpu0, 13}, {testing::kGpu0, 43}}).empty());  // the application's fault
  EXPECT_TRUE(t.update(devices, {{"GPU-not-ours", 79}}).empty());
  auto bad = t.update(devices, {{testing::kGpu0, 79}});
  EXPECT_EQ(bad, (std::map<std::string, std::string>{{testing::kGpu0, "XID 79"}}));
  EXPECT_EQ(t.update(devices, {}), bad);  // sticky
  auto without_mig = devices;
  without_mig[3].mig_instances.erase(without_mig[3].mig_instances.begin());  // MIG A gone
  without_mig.erase(without_mig.begin() + 0);  // and GPU 0 fell off the bus
  bad = t.update(without_mig, {});
  EXPECT_EQ(bad.at(testing::kMigA), "lost");
  EXPECT_EQ(bad.at(testing::kGpu0), "XID 79");  // the first reason stays
  EXPECT_EQ(t.update(devices, {}).count(testing::kMigA), 0u);  // back
}

}  // namespace
}  // namespace gpupack::k8s
