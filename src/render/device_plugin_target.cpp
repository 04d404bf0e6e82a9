// Target `k8s-device-plugin`: NVIDIA device plugin configs (version v1) as one ConfigMap of named
// configs, and the node labels nvidia.com/device-plugin.config=<name> that select them. The plugin
// applies one sharing setting to all GPUs of a node with equal slices; what it cannot express is said in
// README.txt, pointing to the gpupack-agent target.
#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <map>
#include <set>

#include "render/node_labels.hpp"
#include "render/targets.hpp"

namespace gpupack {

namespace {

constexpr const char* kConfigMapName = "gpupack-device-plugin-configs";
constexpr const char* kNamespace = "nvidia-device-plugin";

// One node's needs in the plugin's terms: per resource name, how many replicas each device gets.
struct NodeSharing {
  std::string strategy;  // "none", "time-slicing" or "mps"
  bool mig = false;
  std::map<std::string, int> replicas;  // resource -> replicas per device (1 = not shared)
  std::vector<std::string> problems;    // what the plugin cannot express
};

NodeSharing node_sharing(const RenderPlan& plan, const std::string& node) {
  NodeSharing ns;
  ns.strategy = "none";
  std::set<std::string> strategies;
  std::set<bool> mig_modes;
  for (const auto& gpu : plan.gpus) {
    if (gpu.node != node) continue;
    mig_modes.insert(gpu.uses_mig());
    for (const auto& slice : gpu.slices) {
      const std::string resource = slice.profile ? "nvidia.com/mig-" + *slice.profile : "nvidia.com/gpu";
      const int clients = std::max<int>(1, static_cast<int>(slice.clients.size()));
      std::string strategy = "none";
      if (slice.sharing == "time-slicing" && clients > 1) strategy = "time-slicing";
      if (slice.sharing == "mps" && clients > 1) strategy = "mps";
      if (strategy != "none") strategies.insert(strategy);
      if (slice.sharing == "mps" && slice.profile) {
        ns.problems.push_back(fmt::format("GPU {} runs MPS inside MIG instance {}: the NVIDIA plugin refuses MPS on MIG",
                                          gpu.id, *slice.profile));
      }
      if (slice.sharing == "mps" && clients > 1) {
        std::set<std::optional<int>> pcts;
        std::set<std::uint64_t> mems;
        for (const auto& c : slice.clients) {
          pcts.insert(c.active_thread_percentage);
          mems.insert(c.memory_limit_bytes);
        }
        if (pcts.size() > 1 || mems.size() > 1) {
          ns.problems.push_back(fmt::format(
              "GPU {} has unequal MPS slices (thread percentages or memory limits differ); the NVIDIA plugin "
              "gives every replica memory/N and 100/N %",
              gpu.id));
        }
      }
      auto [it, inserted] = ns.replicas.emplace(resource, clients);
      if (!inserted && it->second != clients) {
        ns.problems.push_back(fmt::format("devices of {} on this node need different replica counts ({} and {}); "
                                          "the plugin applies one count per resource",
                                          resource, it->second, clients));
        it->second = std::max(it->second, clients);
      }
    }
  }
  // One line per distinct problem, in the order found.
  std::vector<std::string> unique;
  for (auto& p : ns.problems) {
    if (std::find(unique.begin(), unique.end(), p) == unique.end()) unique.push_back(std::move(p));
  }
  ns.problems = std::move(unique);
  if (strategies.size() > 1) {
    ns.problems.push_back("GPUs of this node use both time-slicing and MPS; the plugin applies one mode per node");
  }
  if (mig_modes.size() > 1) {
    ns.problems.push_back("some GPUs of this node use MIG and some do not (needs migStrategy mixed with care)");
  }
  ns.mig = mig_modes.count(true) > 0;
  if (!strategies.empty()) ns.strategy = *strategies.begin();
  return ns;
}

// A readable name from what the config says: "whole-gpu", "whole-gpu-time-slicing-gpux4",
// "mig-mixed-time-slicing-1g.10gbx4-3g.40gbx2". Falls back to gpupack-<node> beyond 63 characters.
std::string config_name(const NodeSharing& ns, const std::string& node) {
  std::string name = ns.mig ? "mig-mixed" : "whole-gpu";
  if (ns.strategy != "none") {
    name += "-" + ns.strategy;
    for (const auto& [resource, n] : ns.replicas) {
      if (n < 2) continue;
      const auto slash = resource.find('/');
      std::string item = resource.substr(slash + 1);
      if (item.rfind("mig-", 0) == 0) item = item.substr(4);
      name += "-" + item + "x" + std::to_string(n);
    }
  }
  return name.size() <= 63 ? name : "gpupack-" + node;
}

std::string config_yaml(const NodeSharing& ns) {
  YAML::Emitter y;
  y << YAML::BeginMap << YAML::Key << "version" << YAML::Value << "v1";
  y << YAML::Key << "flags" << YAML::Value << YAML::BeginMap << YAML::Key << "migStrategy" << YAML::Value
    << (ns.mig ? "mixed" : "none") << YAML::EndMap;
  if (ns.strategy != "none") {
    y << YAML::Key << "sharing" << YAML::Value << YAML::BeginMap;
    y << YAML::Key << (ns.strategy == "mps" ? "mps" : "timeSlicing") << YAML::Value << YAML::BeginMap;
    y << YAML::Key << "renameByDefault" << YAML::Value << false;
    y << YAML::Key << "failRequestsGreaterThanOne" << YAML::Value << true;
    y << YAML::Key << "resources" << YAML::Value << YAML::BeginSeq;
    for (const auto& [resource, n] : ns.replicas) {
      if (n < 2) continue;  // the plugin requires replicas >= 2; unshared devices need no entry
      y << YAML::BeginMap << YAML::Key << "name" << YAML::Value << resource << YAML::Key << "replicas"
        << YAML::Value << n << YAML::EndMap;
    }
    y << YAML::EndSeq << YAML::EndMap << YAML::EndMap;
  }
  y << YAML::EndMap;
  return std::string(y.c_str()) + "\n";
}

}  // namespace

std::vector<std::string> nvidia_plugin_problems(const RenderPlan& plan, const std::string& node) {
  return node_sharing(plan, node).problems;
}

TargetOutput render_device_plugin_target(const RenderPlan& plan) {
  TargetOutput out;
  std::map<std::string, std::string> configs;  // name -> YAML
  std::vector<NodeLabel> labels;
  std::vector<std::string> notes;
  for (const auto& node : plan.nodes) {
    const NodeSharing ns = node_sharing(plan, node);
    if (!ns.problems.empty()) {
      std::string note = "node " + node + " is not expressible with the NVIDIA device plugin:";
      for (const auto& p : ns.problems) note += "\n  - " + p;
      note += "\n  Use the gpupack-agent target (the gpupack agent's device plugin) for this node.";
      notes.push_back(note);
      continue;
    }
    const std::string name = config_name(ns, node);
    configs.emplace(name, config_yaml(ns));
    labels.push_back({node, "nvidia.com/device-plugin.config", name});
  }
  if (configs.empty() && notes.empty()) return out;

  YAML::Emitter cm;
  cm << YAML::BeginMap << YAML::Key << "apiVersion" << YAML::Value << "v1" << YAML::Key << "kind" << YAML::Value
     << "ConfigMap";
  cm << YAML::Key << "metadata" << YAML::Value << YAML::BeginMap << YAML::Key << "name" << YAML::Value
     << kConfigMapName << YAML::Key << "namespace" << YAML::Value << kNamespace << YAML::EndMap;
  cm << YAML::Key << "data" << YAML::Value << YAML::BeginMap;
  for (const auto& [name, yaml] : configs) cm << YAML::Key << name << YAML::Value << YAML::Literal << yaml;
  cm << YAML::EndMap << YAML::EndMap;
  if (!configs.empty()) {
    out.files.push_back({"k8s-device-plugin/configmap.yaml", std::string(cm.c_str()) + "\n", 0644});
    out.files.push_back({"k8s-device-plugin/node-labels.sh",
                         node_label_script("Selects each node's NVIDIA device plugin config.", labels), 0755});
  }
  std::string readme =
      configs.empty()
          ? std::string("k8s-device-plugin/: no node of this plan can be served by the NVIDIA device plugin.")
          : fmt::format(
                "k8s-device-plugin/: configmap.yaml holds {} named NVIDIA device plugin config(s) (version v1) in\n"
                "ConfigMap {}/{}; install the plugin with config.name={} (Helm) and\n"
                "run node-labels.sh to point each node at its config (nvidia.com/device-plugin.config). Apply after\n"
                "mig-parted/ and before k8s-workloads/.",
                configs.size(), kNamespace, kConfigMapName, kConfigMapName);
  for (const auto& n : notes) readme += "\n" + n;
  out.readme.push_back(readme);
  return out;
}

}  // namespace gpupack
