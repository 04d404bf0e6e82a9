// The embedded default plan as rendered (tests/render/golden/default, kept equal to `gpupack render` by
// e2e.render_golden: 40 replicas of 4 tenants on one A100's MIG instances under MPS with unequal limits),
// served by the agent's device plugins over real unix sockets and allocated by the kubelet simulator pod
// by pod: every pod of deployments.yaml gets a device of the resource it requests and the MPS limits its
// workload was planned with (issue 31: before, the agent refused this node config at start).
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "agent/device_plugin_targets.hpp"
#include "agent/node_config.hpp"
#include "agent/simulated_devices.hpp"
#include "fakes/temp_dir.hpp"
#include "k8s/device_plugins.hpp"
#include "k8s/kubelet_sim.hpp"

namespace gpupack::k8s {
namespace {

std::string golden_text(const std::string& path) {
  std::ifstream in(std::string(GPUPACK_GOLDEN_DIR) + "/" + path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(RenderedPlanSim, KubeletStartsEveryPodOfTheEmbeddedDefault) {
  const GpuCatalog catalog = builtin_catalog();
  const NodeConfig config = parse_node_config(golden_text("gpupack-agent/gpu-node-0/node.yaml"), "node.yaml");
  const auto devices = simulated_devices(config, {&catalog.get("A100-80GB")});
  check_against_devices(config, devices, catalog);  // the agent refused this file before issue 31
  const DevicePluginPlan plan = plan_device_plugins(config, devices);

  gpupack::testing::TempDir dir;
  gpupack::testing::KubeletSim kubelet(dir.path());
  kubelet.start();
  DevicePluginSettings settings = config.device_plugin;
  settings.plugin_dir = dir.path();
  settings.features_file.clear();
  PosixFilesystem files;
  DevicePlugins plugins(plan.resources, settings, files);
  plugins.start();
  ASSERT_TRUE(kubelet.wait_for_registrations(plan.resources.size()));

  // The planned (percentage, MiB) of each workload (one replica each here), from the client env files the
  // mps target rendered from the same plan: mps/<daemon>/clients/<workload>-0.env.
  std::map<std::string, std::pair<int, std::uint64_t>> planned;
  for (const auto& daemon : std::filesystem::directory_iterator(std::string(GPUPACK_GOLDEN_DIR) + "/mps")) {
    for (const auto& env : std::filesystem::directory_iterator(daemon.path() / "clients")) {
      const std::string name = env.path().stem().string();
      const std::string workload = name.substr(0, name.rfind('-'));
      std::ifstream in(env.path());
      for (std::string line; std::getline(in, line);) {
        if (line.rfind("CUDA_MPS_ACTIVE_THREAD_PERCENTAGE=", 0) == 0) planned[workload].first = std::stoi(line.substr(34));
        if (line.rfind("CUDA_MPS_PINNED_DEVICE_MEM_LIMIT=0=", 0) == 0) planned[workload].second = std::stoull(line.substr(35));
      }
    }
  }
  ASSERT_EQ(planned.size(), 40u);
  std::map<std::string, std::size_t> next;  // per resource: the next free device, as kubelet hands them out
  int started = 0;
  for (const auto& d : YAML::LoadAll(golden_text("k8s-workloads/deployments.yaml"))) {
    const std::string workload = d["metadata"]["labels"]["app.kubernetes.io/name"].as<std::string>();
    const YAML::Node limits = d["spec"]["template"]["spec"]["containers"][0]["resources"]["limits"];
    const std::string resource = limits.begin()->first.as<std::string>();
    const auto r = std::find_if(plan.resources.begin(), plan.resources.end(), [&](const PluginResource& x) { return x.name == resource; });
    ASSERT_NE(r, plan.resources.end()) << workload << " requests " << resource << ", which the agent does not advertise";
    for (int pod = 0; pod < d["spec"]["replicas"].as<int>(); ++pod) {
      const std::size_t i = next[resource]++;
      ASSERT_LT(i, r->devices.size()) << "Pending: no free " << resource << " for a pod of " << workload;
      const auto start = kubelet.start_container(workload + "-" + std::to_string(pod), "default", workload, {{resource, {r->devices[i].id}}});
      ASSERT_TRUE(start.status.ok()) << workload << ": " << start.status.error_message();
      EXPECT_EQ(start.envs.at("CUDA_MPS_ACTIVE_THREAD_PERCENTAGE"), std::to_string(planned.at(workload).first)) << workload;
      const std::uint64_t mib = std::stoull(start.envs.at("CUDA_MPS_PINNED_DEVICE_MEM_LIMIT").substr(2));  // "0=<MiB>M"
      EXPECT_GE(mib, planned.at(workload).second) << workload;
      ++started;
    }
  }
  EXPECT_EQ(started, 40);
  for (const auto& r : plan.resources) EXPECT_EQ(next[r.name], r.devices.size()) << r.name << ": advertised beyond the plan";
  plugins.stop();
}

}  // namespace
}  // namespace gpupack::k8s
