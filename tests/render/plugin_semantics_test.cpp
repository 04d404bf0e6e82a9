// What NVIDIA's device plugin, CDI and mig-parted will do with the rendered files equals what the plan
// means (issue 17). Facts from the consumers' sources: NVIDIA/k8s-device-plugin
// cmd/mps-control-daemon/mps/{daemon,device}.go (100/replicas %, memory/replicas MiB, at most 48 replicas,
// 16 below compute capability 7.5), api/config/v1 (replicas >= 2, per resource and node);
// cncf-tags/container-device-interface specs-go/version.go (MinimumRequiredVersion).
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include "core/gpu_catalog.hpp"
#include "contract/cdi_spec.hpp"
#include "render/render_test_support.hpp"
#include "contract/resource_names.hpp"
#include "render/targets.hpp"

namespace gpupack {
namespace {

using testing::find_file;

constexpr std::uint64_t kGiB = 1024ull * 1024 * 1024;

DocGpu whole_gpu(const std::string& id, const std::string& node, int index, const std::string& model,
                    std::uint64_t memory, const std::string& sharing, int clients, int pct, std::uint64_t client_memory) {
  DocGpu g;
  g.id = id;
  g.node = node;
  g.index = index;
  g.model = model;
  g.mode = *parse_gpu_mode(sharing);
  DocSlice s;
  s.id = "0";
  s.sharing = *parse_sharing(sharing);
  s.memory_bytes = memory;
  for (int i = 0; i < clients; ++i) {
    DocPlacement c;
    c.workload = "w";
    c.replica = i;
    c.tenant = "t";
    c.memory_limit_bytes = client_memory;
    if (sharing == "mps") c.active_thread_percentage = pct;
    s.clients.push_back(c);
  }
  g.slices.push_back(s);
  return g;
}

PlanDocument plan_of(std::vector<DocGpu> gpus) {
  PlanDocument p;
  for (auto& g : gpus) {
    if (std::find(p.nodes.begin(), p.nodes.end(), g.node) == p.nodes.end()) p.nodes.push_back(g.node);
  }
  p.gpus = std::move(gpus);
  return p;
}

std::string readme_of(const TargetOutput& o) { return o.readme.empty() ? "" : o.readme[0]; }

YAML::Node config_of(const TargetOutput& o, const std::string& name) {
  const RenderedFile* cm = find_file(o.files, "k8s-device-plugin/configmap.yaml");
  if (!cm) return {};
  const YAML::Node data = YAML::Load(cm->content)["data"];
  return data[name] ? YAML::Load(data[name].as<std::string>()) : YAML::Node();
}

const GpuCatalog& catalog() {
  static const GpuCatalog c = builtin_catalog();
  return c;
}

TEST(NvidiaPluginMps, EqualSlicesThatMatchThePluginsDivisionAreRendered) {
  // 4 clients, 25% and 20 GiB each of an 80 GiB GPU: exactly what replicas: 4 gives.
  const PlanDocument p = plan_of({whole_gpu("gpu0", "n0", 0, "H100-80GB", 80 * kGiB, "mps", 4, 25, 20 * kGiB)});
  const TargetOutput o = render_device_plugin_target(p, catalog());
  EXPECT_TRUE(nvidia_plugin_problems(p, catalog(), "n0").empty()) << readme_of(o);
  const YAML::Node c = config_of(o, "whole-gpu-mps-gpux4");
  ASSERT_TRUE(c) << readme_of(o);
  EXPECT_EQ(c["sharing"]["mps"]["resources"][0]["replicas"].as<int>(), 4);
}

TEST(NvidiaPluginMps, EqualSlicesWithOtherLimitsAreNotExpressible) {
  // The case: 8 clients wanting 20% and 4608M; replicas: 8 would give 12% and 10240M.
  const PlanDocument p = plan_of({whole_gpu("gpu0", "n0", 0, "H100-80GB", 80 * kGiB, "mps", 8, 20, 4608ull << 20)});
  const TargetOutput o = render_device_plugin_target(p, catalog());
  EXPECT_EQ(find_file(o.files, "k8s-device-plugin/configmap.yaml"), nullptr);
  EXPECT_NE(readme_of(o).find("gives each of its 8 replicas 100/8 = 12% of the threads and memory/8 = 10240M; the plan "
                              "wants 20% and 4608M per client"),
            std::string::npos)
      << readme_of(o);
  // The gpupack agent serves it: each pod asks for its own slice.
  const TargetOutput w = render_workloads_target(p, catalog(), Consumer::gpupack_agent);
  EXPECT_NE(find_file(w.files, "k8s-workloads/deployments.yaml")->content.find("gpupack.io/mps-20: 1"), std::string::npos);
}

TEST(NvidiaPluginReplication, AnUnplannedGpuOnTheNodeWouldBeSharedToo) {
  // gpu0 planned for 6 time-sliced clients, gpu1 idle: the plugin would advertise 12 nvidia.com/gpu.
  DocGpu idle = whole_gpu("gpu1", "n0", 1, "A100-80GB", 80 * kGiB, "exclusive", 0, 0, 0);
  const PlanDocument p =
      plan_of({whole_gpu("gpu0", "n0", 0, "A100-80GB", 80 * kGiB, "time-slicing", 6, 0, 8 * kGiB), idle});
  const TargetOutput o = render_device_plugin_target(p, catalog());
  EXPECT_EQ(find_file(o.files, "k8s-device-plugin/configmap.yaml"), nullptr);
  EXPECT_NE(readme_of(o).find("GPU gpu1 is planned for 0 client(s) (exclusive), not 6 shared ones, so the node would "
                              "advertise 12 nvidia.com/gpu for 6 planned"),
            std::string::npos)
      << readme_of(o);
  // A GPU the plan lists without any slice counts the same.
  PlanDocument bare = p;
  bare.gpus[1].slices.clear();
  EXPECT_FALSE(nvidia_plugin_problems(bare, catalog(), "n0").empty());
  // Two GPUs planned alike are fine: 2 x 6 advertised for 12 planned.
  const PlanDocument both = plan_of({whole_gpu("gpu0", "n0", 0, "A100-80GB", 80 * kGiB, "time-slicing", 6, 0, 8 * kGiB),
                                   whole_gpu("gpu1", "n0", 1, "A100-80GB", 80 * kGiB, "time-slicing", 6, 0, 8 * kGiB)});
  EXPECT_TRUE(nvidia_plugin_problems(both, catalog(), "n0").empty());
}

TEST(NvidiaPluginLimits, MoreThan48MpsReplicasAreRefusedWhateverTheCudaVersion) {
  // 50 clients of 2% and 1 GiB of 50 GiB: equal and exactly the plugin's division, but over its 48.
  const PlanDocument p = plan_of({whole_gpu("gpu0", "n0", 0, "H100-80GB", 50 * kGiB, "mps", 50, 2, 1 * kGiB)});
  const auto problems = nvidia_plugin_problems(p, catalog(), "n0");
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].find("plans 50 MPS clients; the plugin's MPS daemon accepts at most 48 replicas"),
            std::string::npos)
      << problems[0];
}

TEST(NvidiaPluginLimits, V100IsCappedAt16BecauseThePluginComparesWith75) {
  // 20 clients of 5% and 800 MiB of a 16000 MiB V100 (compute capability 7.0).
  const PlanDocument p = plan_of({whole_gpu("gpu0", "n0", 0, "V100", 16000ull << 20, "mps", 20, 5, 800ull << 20)});
  const auto problems = nvidia_plugin_problems(p, catalog(), "n0");
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].find("accepts at most 16 replicas on V100"), std::string::npos) << problems[0];
  // 16 such clients (6% of 100/16, 1000 MiB) are accepted.
  const PlanDocument ok = plan_of({whole_gpu("gpu0", "n0", 0, "V100", 16000ull << 20, "mps", 16, 6, 1000ull << 20)});
  EXPECT_TRUE(nvidia_plugin_problems(ok, catalog(), "n0").empty());
}

TEST(ResourceNames, MigProfilesReplacePlusWithDotAsNvidiaDoes) {
  EXPECT_EQ(mig_resource_name("1g.10gb+me"), "nvidia.com/mig-1g.10gb.me");
  EXPECT_EQ(mig_resource_name("1g.24gb+me.all"), "nvidia.com/mig-1g.24gb.me.all");
  EXPECT_EQ(mig_resource_part("3g.40gb"), "3g.40gb");
  // The device plugin target names a +me instance the same way.
  DocGpu g = whole_gpu("gpu0", "n0", 0, "H100-80GB", 80 * kGiB, "exclusive", 1, 0, 8 * kGiB);
  g.mode = GpuMode::mig;
  g.mig = {{"1g.10gb+me", 0, 1}};
  g.slices[0].id = "mig0";
  g.slices[0].profile = "1g.10gb+me";
  g.slices[0].mig_start = 0;
  const PlanDocument p = plan_of({g});
  const TargetOutput w = render_workloads_target(p, catalog(), Consumer::nvidia_device_plugin);
  EXPECT_NE(find_file(w.files, "k8s-workloads/deployments.yaml")->content.find("nvidia.com/mig-1g.10gb.me: 1"),
            std::string::npos);
  const TargetOutput o = render_device_plugin_target(p, catalog());
  EXPECT_TRUE(config_of(o, "mig-mixed")) << readme_of(o);
}

TEST(CdiSpec, MinimumVersionFollowsTheCdiLibrarysRules) {
  CdiDevice plain{"gpu0", {}, {"NVIDIA_VISIBLE_DEVICES=0"}, {"/dev/nvidia0"}, {}};
  EXPECT_EQ(cdi_minimum_version("gpupack.io/gpu", {plain}), "0.3.0");
  CdiDevice digit = plain;
  digit.name = "0-chat";
  EXPECT_EQ(cdi_minimum_version("gpupack.io/gpu", {plain, digit}), "0.5.0");  // name not starting with a letter
  CdiDevice annotated = plain;
  annotated.annotations = {{"gpupack.io/uuid", "GPU-1"}};
  EXPECT_EQ(cdi_minimum_version("gpupack.io/gpu", {digit, annotated}), "0.6.0");  // annotations
  EXPECT_EQ(cdi_minimum_version("gpupack.io/gpu.shared", {plain}), "0.6.0");     // a '.' in the class
  const auto spec = nlohmann::json::parse(cdi_spec_json({annotated}));
  EXPECT_EQ(spec["cdiVersion"], "0.6.0");
  EXPECT_EQ(spec["devices"][0]["annotations"]["gpupack.io/uuid"], "GPU-1");
}

TEST(CdiSpec, MigDeviceNodesFollowTheDriversMinorTable) {
  // /proc/driver/nvidia-caps/mig-minors: gpu0/gi0/access 3, gpu0/gi0/ci0/access 4, gpu3/gi3/ci3/access 439,
  // gpu6/gi11/ci7/access 920.
  EXPECT_EQ(mig_device_nodes({0, 0, 0}),
            (std::vector<std::string>{"/dev/nvidia0", "/dev/nvidia-caps/nvidia-cap3", "/dev/nvidia-caps/nvidia-cap4"}));
  EXPECT_EQ(mig_device_nodes({3, 3, 3})[2], "/dev/nvidia-caps/nvidia-cap439");
  EXPECT_EQ(mig_device_nodes({6, 11, 7})[2], "/dev/nvidia-caps/nvidia-cap920");
  EXPECT_EQ(mig_device_nodes({6, 11, 7})[0], "/dev/nvidia6");
}

TEST(CdiSpec, GpuInstanceIdsFollowThePlacementTree) {
  EXPECT_EQ(gpu_instance_id_for_placement(8, 0, 8), 0u);  // 7g
  EXPECT_EQ(gpu_instance_id_for_placement(8, 0, 4), 1u);  // 4g / 3g at 0
  EXPECT_EQ(gpu_instance_id_for_placement(8, 4, 4), 2u);  // 3g at 4
  EXPECT_EQ(gpu_instance_id_for_placement(8, 2, 2), 4u);  // 2g at 2
  EXPECT_EQ(gpu_instance_id_for_placement(8, 6, 1), 13u); // 1g at 6
  EXPECT_EQ(gpu_instance_id_for_placement(4, 3, 1), 6u);  // A30 1g at 3
  EXPECT_FALSE(gpu_instance_id_for_placement(12, 0, 3));  // RTX PRO 6000's axis is not a binary tree
  EXPECT_FALSE(gpu_instance_id_for_placement(8, 1, 2));   // misaligned
}

TEST(CdiTarget, EveryMigDeviceCarriesItsParentAndCapabilityNodes) {
  const TargetOutput o = render_cdi_target(testing::mixed_plan(), catalog());
  for (const auto& f : o.files) {
    const auto spec = nlohmann::json::parse(f.content);
    for (const auto& d : spec["devices"]) {
      const auto& env = d["containerEdits"]["env"];
      const bool mig = env[0].get<std::string>().find(':') != std::string::npos;
      const auto& nodes = d["containerEdits"]["deviceNodes"];
      ASSERT_EQ(nodes.size(), mig ? 3u : 1u) << d.dump();
      EXPECT_EQ(nodes[0]["path"].get<std::string>().rfind("/dev/nvidia", 0), 0u);
      if (mig) {
        EXPECT_EQ(nodes[1]["path"].get<std::string>().rfind("/dev/nvidia-caps/nvidia-cap", 0), 0u);
      }
    }
  }
}

}  // namespace
}  // namespace gpupack
