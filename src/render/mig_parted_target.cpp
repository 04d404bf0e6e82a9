// Target `mig-parted`: one mig-parted config (version v1) with a named config per node layout, and the
// node labels nvidia.com/mig.config=<name> that make mig-manager apply it.
#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <map>

#include "contract/names.hpp"
#include "render/mig_parted.hpp"
#include "render/node_labels.hpp"
#include "render/targets.hpp"

namespace gpupack {

namespace {

// Profile -> count in creation order (largest first), as mig-parted's mig-devices map.
std::vector<std::pair<std::string, int>> device_counts(const DocGpu& gpu) {
  std::vector<std::pair<std::string, int>> out;
  for (const auto& inst : gpu.mig) {
    auto it = std::find_if(out.begin(), out.end(), [&](const auto& p) { return p.first == inst.profile; });
    if (it == out.end()) {
      out.emplace_back(inst.profile, 1);
    } else {
      ++it->second;
    }
  }
  return out;
}

std::string layout_name(const std::vector<std::pair<std::string, int>>& counts) {
  std::string name;
  for (const auto& [profile, n] : counts) {
    if (!name.empty()) name += '-';
    if (n > 1) name += std::to_string(n) + "x";
    for (char c : profile) name += c == '+' ? '.' : c;
  }
  return name;
}

}  // namespace

std::string mig_parted_config_map(const std::string& config_yaml) {
  YAML::Emitter y;
  y << YAML::BeginMap << YAML::Key << "apiVersion" << YAML::Value << "v1" << YAML::Key << "kind" << YAML::Value << "ConfigMap";
  y << YAML::Key << "metadata" << YAML::Value << YAML::BeginMap << YAML::Key << "name" << YAML::Value << kMigPartedConfigMapName
    << YAML::Key << "namespace" << YAML::Value << kGpuOperatorNamespace << YAML::Key << "labels" << YAML::Value << YAML::BeginMap
    << YAML::Key << "app.kubernetes.io/managed-by" << YAML::Value << "gpupack" << YAML::EndMap << YAML::EndMap;
  y << YAML::Key << "data" << YAML::Value << YAML::BeginMap << YAML::Key << "config.yaml" << YAML::Value << YAML::Literal
    << config_yaml << YAML::EndMap << YAML::EndMap;
  return std::string(y.c_str()) + "\n";
}

TargetOutput render_mig_parted_target(const PlanDocument& plan) {
  TargetOutput out;
  bool any_mig = false;
  for (const auto& gpu : plan.gpus) any_mig = any_mig || gpu.uses_mig();
  if (!any_mig) return out;

  YAML::Emitter y;
  y << YAML::BeginMap << YAML::Key << "version" << YAML::Value << "v1";
  y << YAML::Key << "mig-configs" << YAML::Value << YAML::BeginMap;
  y << YAML::Key << "all-disabled" << YAML::Value << YAML::BeginSeq << YAML::BeginMap << YAML::Key << "devices"
    << YAML::Value << "all" << YAML::Key << "mig-enabled" << YAML::Value << false << YAML::EndMap << YAML::EndSeq;
  std::map<std::string, std::string> emitted;  // config name -> node that defined it
  std::vector<NodeLabel> labels;
  for (const auto& node : plan.nodes) {
    // Group the node's GPUs by layout: one entry per distinct layout, listing its GPU indices.
    std::vector<std::pair<std::vector<std::pair<std::string, int>>, std::vector<int>>> groups;
    for (const auto& gpu : plan.gpus) {
      if (gpu.node != node) continue;
      const auto counts = device_counts(gpu);
      auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == counts; });
      if (it == groups.end()) {
        groups.push_back({counts, {gpu.index}});
      } else {
        it->second.push_back(gpu.index);
      }
    }
    std::string name = "all-disabled";
    if (groups.size() == 1 && !groups[0].first.empty()) {
      name = layout_name(groups[0].first);
    } else if (groups.size() > 1) {
      name = "gpupack-" + node;
    }
    if (!is_label_value(name) || name.size() > 63) name = "gpupack-" + node;
    labels.push_back({node, "nvidia.com/mig.config", name});
    if (name == "all-disabled" || emitted.count(name)) continue;
    emitted[name] = node;
    y << YAML::Key << name << YAML::Value << YAML::BeginSeq;
    for (const auto& [counts, indices] : groups) {
      y << YAML::BeginMap << YAML::Key << "devices" << YAML::Value << YAML::Flow << indices;
      y << YAML::Key << "mig-enabled" << YAML::Value << !counts.empty();
      if (!counts.empty()) {
        y << YAML::Key << "mig-devices" << YAML::Value << YAML::BeginMap;
        for (const auto& [profile, n] : counts) y << YAML::Key << YAML::DoubleQuoted << profile << YAML::Value << n;
        y << YAML::EndMap;
      }
      y << YAML::EndMap;
    }
    y << YAML::EndSeq;
  }
  y << YAML::EndMap << YAML::EndMap;
  const std::string config = std::string(y.c_str()) + "\n";
  out.files.push_back({"mig-parted/config.yaml", config, 0644});
  out.files.push_back({"mig-parted/configmap.yaml", mig_parted_config_map(config), 0644});
  out.files.push_back(
      {"mig-parted/node-labels.sh", node_label_script("Selects each node's MIG layout for mig-manager.", labels), 0755});
  // mig-parted v0.12.1 knows only the "+me" attribute; "+me.all", "-me" and "+gfx" parse from v0.13.0 on
  // (its go-nvlib MIG profile parser, checked in NVIDIA/mig-parted's tags).
  std::string newer;
  for (const auto& gpu : plan.gpus) {
    for (const auto& inst : gpu.mig) {
      const bool needs_013 = inst.profile.find("+me.all") != std::string::npos ||
                             inst.profile.find("-me") != std::string::npos ||
                             inst.profile.find("+gfx") != std::string::npos;
      if (needs_013 && newer.find(inst.profile) == std::string::npos) newer += (newer.empty() ? "" : ", ") + inst.profile;
    }
  }
  out.readme.push_back(fmt::format(
      "mig-parted/: config.yaml is a mig-parted config (version v1) with one named config per node layout;\n"
      "give it to mig-manager (or `nvidia-mig-parted apply -f config.yaml -c <name>`); with the GPU Operator,\n"
      "kubectl apply -f configmap.yaml (ConfigMap {} in namespace {})\n"
      "and name it in the ClusterPolicy's migManager.config.name (docs/gpu-operator.md). Then run node-labels.sh\n"
      "(nvidia.com/mig.config=<name>) and wait for nvidia.com/mig.config.state=success. Apply first, with the\n"
      "GPUs idle: changing a layout needs the GPU free of processes. Needs mig-parted v0.12.1 or newer{}.",
      kMigPartedConfigMapName, kGpuOperatorNamespace,
      newer.empty() ? std::string()
                    : "; this plan uses " + newer + ", which mig-parted accepts only from v0.13.0 on\n"
                      "(v0.12.1 knows only +me): use mig-manager with mig-parted v0.13.0 or newer"));
  return out;
}

}  // namespace gpupack
