// The render targets on a plan of every mode: file set, contents that matter, and what the NVIDIA
// device plugin cannot express.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <map>
#include <regex>

#include "core/errors.hpp"
#include "render/render_targets.hpp"
#include "render/render_test_support.hpp"
#include "render/targets.hpp"

namespace gpupack {

using testing::find_file;
using testing::mixed_plan;

TEST(MpsTarget, OneDaemonPerMpsSliceWithScriptsUnitAndClientEnv) {
  const TargetOutput o = render_mps_target(mixed_plan());
  // gpu0 (whole GPU), gpu1's 3g instance, gpu3 (P100): three daemons.
  for (const char* d : {"node-0-gpu0", "node-0-gpu1-mig0", "node-2-gpu3"}) {
    const std::string dir = std::string("mps/") + d + "/";
    ASSERT_NE(find_file(o.files, dir + "start.sh"), nullptr) << d;
    EXPECT_EQ(find_file(o.files, dir + "start.sh")->mode, 0755);
    ASSERT_NE(find_file(o.files, dir + "stop.sh"), nullptr) << d;
    ASSERT_NE(find_file(o.files, dir + "gpupack-mps-" + d + ".service"), nullptr) << d;
  }
  const std::string start = find_file(o.files, "mps/node-0-gpu0/start.sh")->content;
  EXPECT_NE(start.find("DAEMON='node-0-gpu0'\n"), std::string::npos);
  EXPECT_NE(start.find("export CUDA_MPS_PIPE_DIRECTORY=\"${GPUPACK_MPS_ROOT:-/var/run/gpupack/mps}/$DAEMON\""), std::string::npos);
  EXPECT_NE(start.find("DEFAULT_ACTIVE_THREAD_PERCENTAGE=50"), std::string::npos);  // the largest client's
  EXPECT_NE(start.find("DEFAULT_PINNED_MEM_LIMIT=8192M"), std::string::npos);
  EXPECT_NE(start.find("nvidia-cuda-mps-control -d"), std::string::npos);
  EXPECT_NE(start.find("export CUDA_VISIBLE_DEVICES=\"$uuid\""), std::string::npos);
  EXPECT_NE(start.find("# nvidia-smi -i \"$uuid\" -c EXCLUSIVE_PROCESS"), std::string::npos) << "opt-in, commented";
  const std::string mig_start = find_file(o.files, "mps/node-0-gpu1-mig0/start.sh")->content;
  EXPECT_NE(mig_start.find("MIG_PROFILE='3g.40gb'"), std::string::npos);
  const std::string env = find_file(o.files, "mps/node-0-gpu0/clients/chat-1.env")->content;
  EXPECT_NE(env.find("CUDA_MPS_ACTIVE_THREAD_PERCENTAGE=25\n"), std::string::npos);
  EXPECT_NE(env.find("CUDA_MPS_PINNED_DEVICE_MEM_LIMIT=0=2560M\n"), std::string::npos);
  EXPECT_EQ(find_file(o.files, "mps/node-1-gpu2/start.sh"), nullptr) << "time-slicing needs no daemon";
  const std::string unit = find_file(o.files, "mps/node-0-gpu0/gpupack-mps-node-0-gpu0.service")->content;
  EXPECT_NE(unit.find("ExecStart=/etc/gpupack/mps/node-0-gpu0/start.sh"), std::string::npos);
  EXPECT_NE(unit.find("ExecStop=/etc/gpupack/mps/node-0-gpu0/stop.sh"), std::string::npos);
}

TEST(DevicePluginTarget, ExpressibleNodesGetConfigsOthersAreExplained) {
  const TargetOutput o = render_device_plugin_target(mixed_plan(), builtin_catalog());
  const RenderedFile* cm = find_file(o.files, "k8s-device-plugin/configmap.yaml");
  ASSERT_NE(cm, nullptr);
  const YAML::Node doc = YAML::Load(cm->content);
  EXPECT_EQ(doc["kind"].as<std::string>(), "ConfigMap");
  // node-1: time-slicing with 3 clients, the only config.
  const YAML::Node ts = YAML::Load(doc["data"]["whole-gpu-time-slicing-gpux3"].as<std::string>());
  EXPECT_EQ(ts["version"].as<std::string>(), "v1");
  EXPECT_EQ(ts["sharing"]["timeSlicing"]["resources"][0]["name"].as<std::string>(), "nvidia.com/gpu");
  EXPECT_EQ(ts["sharing"]["timeSlicing"]["resources"][0]["replicas"].as<int>(), 3);
  EXPECT_EQ(doc["data"].size(), 1u);
  // node-0 has unequal MPS slices and MPS on MIG; node-2's two equal MPS clients want 50% and 2 GiB, where
  // the plugin would give 50% and 16 GiB / 2: none is expressible.
  ASSERT_EQ(o.readme.size(), 1u);
  EXPECT_NE(o.readme[0].find("node node-0 is not expressible"), std::string::npos);
  EXPECT_NE(o.readme[0].find("the plan wants 25% and 2560M, 50% and 8192M per client"), std::string::npos) << o.readme[0];
  EXPECT_NE(o.readme[0].find("refuses MPS on MIG"), std::string::npos);
  EXPECT_NE(o.readme[0].find("node node-2 is not expressible"), std::string::npos);
  EXPECT_NE(o.readme[0].find("2 replicas 100/2 = 50% of the threads and memory/2 = 8192M; the plan wants 50% and 2048M"),
            std::string::npos) << o.readme[0];
  EXPECT_NE(o.readme[0].find("gpupack-agent target"), std::string::npos);
  const std::string labels = find_file(o.files, "k8s-device-plugin/node-labels.sh")->content;
  EXPECT_NE(labels.find("'nvidia.com/device-plugin.config=whole-gpu-time-slicing-gpux3'"), std::string::npos);
  EXPECT_EQ(labels.find("GPUPACK_NODE_node_0\" '"), std::string::npos) << "node-0 gets no NVIDIA config label";
}

TEST(MigPartedTarget, NodeLayoutAndLabels) {
  const TargetOutput o = render_mig_parted_target(mixed_plan());
  const YAML::Node doc = YAML::Load(find_file(o.files, "mig-parted/config.yaml")->content);
  EXPECT_EQ(doc["version"].as<std::string>(), "v1");
  const YAML::Node node0 = doc["mig-configs"]["gpupack-node-0"];  // gpu0 whole, gpu1 MIG: two groups
  ASSERT_TRUE(node0.IsSequence());
  ASSERT_EQ(node0.size(), 2u);
  EXPECT_FALSE(node0[0]["mig-enabled"].as<bool>());
  EXPECT_EQ(node0[0]["devices"][0].as<int>(), 0);
  EXPECT_TRUE(node0[1]["mig-enabled"].as<bool>());
  EXPECT_EQ(node0[1]["devices"][0].as<int>(), 1);
  EXPECT_EQ(node0[1]["mig-devices"]["1g.10gb"].as<int>(), 2);
  EXPECT_EQ(node0[1]["mig-devices"]["3g.40gb"].as<int>(), 1);
  const std::string labels = find_file(o.files, "mig-parted/node-labels.sh")->content;
  EXPECT_NE(labels.find("'nvidia.com/mig.config=gpupack-node-0'"), std::string::npos);
  EXPECT_NE(labels.find("'nvidia.com/mig.config=all-disabled'"), std::string::npos);
}

// The GPU Operator's mig-manager reads its config from a ConfigMap's config.yaml: the same text, byte for
// byte, as mig-parted/config.yaml, so the node labels above select the same layouts there.
TEST(MigPartedTarget, ConfigMapForMigManagerHoldsTheSameConfig) {
  const TargetOutput o = render_mig_parted_target(mixed_plan());
  const std::string config = find_file(o.files, "mig-parted/config.yaml")->content;
  const YAML::Node cm = YAML::Load(find_file(o.files, "mig-parted/configmap.yaml")->content);
  EXPECT_EQ(cm["apiVersion"].as<std::string>(), "v1");
  EXPECT_EQ(cm["kind"].as<std::string>(), "ConfigMap");
  EXPECT_EQ(cm["metadata"]["name"].as<std::string>(), "gpupack-mig-parted-config");
  EXPECT_EQ(cm["metadata"]["namespace"].as<std::string>(), "gpu-operator");
  ASSERT_EQ(cm["data"].size(), 1u);
  EXPECT_EQ(cm["data"]["config.yaml"].as<std::string>(), config);
  EXPECT_TRUE(YAML::Load(cm["data"]["config.yaml"].as<std::string>())["mig-configs"]["gpupack-node-0"].IsSequence());
  EXPECT_NE(o.readme[0].find("migManager.config.name"), std::string::npos);
}

TEST(WorkloadsTarget, ResourcesSelectorsTolerationsAndHostIpc) {
  const GpuCatalog catalog = builtin_catalog();
  const TargetOutput o = render_workloads_target(mixed_plan(), catalog, Consumer::gpupack_agent);
  const std::vector<YAML::Node> docs = YAML::LoadAll(find_file(o.files, "k8s-workloads/deployments.yaml")->content);
  std::map<std::string, YAML::Node> by_name;
  for (const auto& d : docs) by_name[d["metadata"]["name"].as<std::string>()] = d;
  auto limit = [&](const std::string& name) {
    const auto limits = by_name.at(name)["spec"]["template"]["spec"]["containers"][0]["resources"]["limits"];
    return limits.begin()->first.as<std::string>();
  };
  // chat and batch share gpu0 with unequal MPS slices: only the gpupack agent serves them.
  EXPECT_EQ(limit("chat"), "gpupack.io/mps-25");
  EXPECT_EQ(limit("batch"), "gpupack.io/mps-50");
  EXPECT_EQ(limit("embed"), "gpupack.io/mig-3g.40gb-mps-50");
  EXPECT_EQ(limit("notebook"), "nvidia.com/mig-1g.10gb");
  EXPECT_EQ(limit("dev"), "nvidia.com/gpu");
  EXPECT_EQ(limit("legacy"), "gpupack.io/mps-50");  // the plugin would give 8 GiB each, the plan 2 GiB
  EXPECT_EQ(by_name.at("dev")["spec"]["replicas"].as<int>(), 3);
  // secure has one replica on the 2g and one on a 1g instance: two Deployments.
  EXPECT_EQ(by_name.count("secure"), 0u);
  EXPECT_EQ(by_name.count("secure-node-0-mig-2g-20gb"), 1u);
  EXPECT_EQ(by_name.count("secure-node-0-mig-1g-10gb"), 1u);
  EXPECT_TRUE(by_name.at("legacy")["spec"]["template"]["spec"]["hostIPC"].as<bool>()) << "MPS on pre-Volta";
  EXPECT_FALSE(by_name.at("chat")["spec"]["template"]["spec"]["hostIPC"]);
  const auto pod = by_name.at("dev")["spec"]["template"]["spec"];
  // Pinned to its node by name: no label has to be set on the node first.
  EXPECT_EQ(pod["affinity"]["nodeAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"]["nodeSelectorTerms"][0]
               ["matchFields"][0]["values"][0].as<std::string>(),
            "node-1");
  // A rollout never puts a surge pod on a full slice.
  EXPECT_EQ(by_name.at("dev")["spec"]["strategy"]["rollingUpdate"]["maxSurge"].as<int>(), 0);
  EXPECT_EQ(pod["tolerations"][0]["value"].as<std::string>(), "time-slicing");
  const std::string labels = find_file(o.files, "k8s-workloads/node-labels.sh")->content;
  // The taint only with --taint (issue 33: operators' DaemonSets do not tolerate it).
  const auto taint = labels.find("  kubectl taint node \"$GPUPACK_NODE_node_1\" 'gpupack.io/sharing=time-slicing:NoSchedule'");
  ASSERT_NE(taint, std::string::npos);
  EXPECT_LT(labels.find("if $taint; then\n"), taint);
}

TEST(NodeTemplateTarget, StrategyClientsAndCapacity) {
  const TargetOutput o = render_node_template_target(mixed_plan(), builtin_catalog());
  const auto api = nlohmann::json::parse(find_file(o.files, "node-template/node-template.json")->content);
  EXPECT_EQ(api["gpu"]["sharingStrategy"], "GPU_SHARING_STRATEGY_MPS");
  EXPECT_EQ(api["gpu"]["sharingConfiguration"]["nvidia-a100-80gb"]["sharedClientsPerGpu"], 6);  // gpu1: 2+1+2+1 clients
  EXPECT_EQ(api["gpu"]["sharingConfiguration"]["nvidia-tesla-p100"]["sharedClientsPerGpu"], 2);
  EXPECT_EQ(api["gpu"]["defaultSharedClientsPerGpu"], 6);
  const std::string tf = find_file(o.files, "node-template/gpu.tf")->content;
  EXPECT_NE(tf.find("sharing_strategy               = \"mps\""), std::string::npos);
  EXPECT_NE(tf.find("\"nvidia-tesla-p100\" = {\n      shared_clients_per_gpu = 2"), std::string::npos);
  ASSERT_EQ(o.readme.size(), 1u);
  EXPECT_NE(o.readme[0].find("node-0: 2 GPU(s) x 6 = 12 nvidia.com/gpu"), std::string::npos);
  EXPECT_NE(o.readme[0].find("scheduling.cast.ai/gpu-sharing-strategy=mps"), std::string::npos);
}

TEST(CdiTarget, DevicesPerSliceAndPerMpsClient) {
  const TargetOutput o = render_cdi_target(mixed_plan(), builtin_catalog());
  const auto spec = nlohmann::json::parse(find_file(o.files, "cdi/node-0/gpupack.io-gpu.json")->content);
  EXPECT_EQ(spec["cdiVersion"], "0.3.0");  // nothing newer needed: CDI v0.8.1 (NVIDIA plugin v0.17) loads it
  EXPECT_EQ(spec["kind"], "gpupack.io/gpu");
  std::map<std::string, nlohmann::json> devices;
  for (const auto& d : spec["devices"]) devices[d["name"].get<std::string>()] = d;
  ASSERT_TRUE(devices.count("gpu0-chat-0"));
  const auto env = devices["gpu0-chat-0"]["containerEdits"]["env"];
  EXPECT_NE(std::find(env.begin(), env.end(), "CUDA_MPS_ACTIVE_THREAD_PERCENTAGE=25"), env.end());
  EXPECT_NE(std::find(env.begin(), env.end(), "CUDA_MPS_PINNED_DEVICE_MEM_LIMIT=0=2560M"), env.end());
  EXPECT_NE(std::find(env.begin(), env.end(), "CUDA_MPS_PIPE_DIRECTORY=/var/run/gpupack/mps/node-0-gpu0"), env.end());
  ASSERT_TRUE(devices.count("gpu1-mig1"));
  const auto mig_env = devices["gpu1-mig1"]["containerEdits"]["env"];
  EXPECT_NE(std::find(mig_env.begin(), mig_env.end(), "NVIDIA_VISIBLE_DEVICES=1:1"), mig_env.end());
  // gpu1 (minor 1) mig1 is a 2g.20gb at start 0: GI 3, CI 0 -> caps 3 + 135 + 27 = 165 and 166.
  const auto nodes = devices["gpu1-mig1"]["containerEdits"]["deviceNodes"];
  ASSERT_EQ(nodes.size(), 3u);
  EXPECT_EQ(nodes[0]["path"], "/dev/nvidia1");
  EXPECT_EQ(nodes[1]["path"], "/dev/nvidia-caps/nvidia-cap165");
  EXPECT_EQ(nodes[2]["path"], "/dev/nvidia-caps/nvidia-cap166");
  // Every MPS client on the 3g instance (start 4: GI 2) carries the instance's nodes too.
  const auto embed = devices["gpu1-mig0-embed-0"]["containerEdits"]["deviceNodes"];
  ASSERT_EQ(embed.size(), 3u);
  EXPECT_EQ(embed[1]["path"], "/dev/nvidia-caps/nvidia-cap156");
  const std::regex name_re("^[A-Za-z0-9][A-Za-z0-9_.:-]*$");
  for (const auto& [name, d] : devices) EXPECT_TRUE(std::regex_match(name, name_re)) << name;
}

TEST(RenderTargets, ParsesListsInApplyOrderAndRejectsUnknown) {
  EXPECT_EQ(parse_render_targets("cdi,mps"), (std::vector<RenderTarget>{RenderTarget::mps, RenderTarget::cdi}));
  EXPECT_EQ(parse_render_targets("all").size(), 8u);
  EXPECT_EQ(parse_render_targets("all").front(), RenderTarget::mig_parted);
  EXPECT_THROW(parse_render_targets("mps,helm"), InputError);
  EXPECT_THROW(parse_render_targets(""), InputError);
  EXPECT_THROW(parse_render_targets("mps,"), InputError);
}

TEST(RenderTargets, ReadmeListsEveryTargetInOrder) {
  const GpuCatalog catalog = builtin_catalog();
  const FileTree files = render_targets(mixed_plan(), parse_render_targets("all"), catalog);
  const std::string readme = find_file(files, "README.txt")->content;
  size_t last = 0;
  for (const char* t : {"1. mig-parted", "2. mps", "3. cdi", "4. gpupack-agent", "5. k8s-device-plugin",
                        "6. node-template", "7. k8s-workloads"}) {
    const size_t at = readme.find(t);
    ASSERT_NE(at, std::string::npos) << t;
    EXPECT_GT(at, last);
    last = at;
  }
}

}  // namespace gpupack
