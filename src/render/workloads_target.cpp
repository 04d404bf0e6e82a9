// Target `k8s-workloads`: a Deployment per workload (split per node and resource where the plan puts its
// replicas on different kinds of slices), with the resource the slice is advertised as, a nodeSelector
// and tolerations for the planned node, and hostIPC for MPS on pre-Volta GPUs; plus the node labels and
// taints to apply.
#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <map>
#include <set>

#include "core/errors.hpp"
#include "contract/names.hpp"
#include "render/node_labels.hpp"
#include "render/targets.hpp"

namespace gpupack {

namespace {

constexpr const char* kSharingTaint = "gpupack.io/sharing";

struct DeploymentKey {
  std::string workload, node, resource;
  auto operator<=>(const DeploymentKey&) const = default;
};

struct DeploymentInfo {
  int replicas = 0;
  std::string tenant;
  bool host_ipc = false;
};

// The taint value of a node: how its GPUs are shared ("" when every GPU is exclusive).
std::string node_sharing_value(const PlanDocument& plan, const std::string& node) {
  std::set<std::string> kinds;
  for (const auto& gpu : plan.gpus) {
    if (gpu.node == node && gpu.mode != GpuMode::exclusive) {
      kinds.insert(is_mig(gpu.mode) ? std::string("mig") : std::string(to_string(gpu.mode)));
    }
  }
  if (kinds.empty()) return "";
  return kinds.size() == 1 ? *kinds.begin() : "mixed";
}

}  // namespace

TargetOutput render_workloads_target(const PlanDocument& plan, const GpuCatalog& catalog) {
  TargetOutput out;
  std::map<DeploymentKey, DeploymentInfo> deployments;
  std::map<std::string, int> groups_per_workload;
  for (const auto& gpu : plan.gpus) {
    const GpuModel* model = catalog.find(gpu.model);
    const bool pre_volta = model && !is_volta_or_newer(model->arch);
    for (const auto& slice : gpu.slices) {
      for (const auto& c : slice.clients) {
        require_label_value("tenant of workload " + c.workload, c.tenant);
        auto& d = deployments[{c.workload, gpu.node, resource_name(plan, catalog, gpu, slice, c)}];
        ++d.replicas;
        d.tenant = c.tenant;
        d.host_ipc = d.host_ipc || (pre_volta && slice.sharing == Sharing::mps);
      }
    }
  }
  if (deployments.empty()) return out;
  for (const auto& [key, info] : deployments) ++groups_per_workload[key.workload];

  std::string yaml;
  std::set<std::string> names;
  // Not structured bindings: the labels lambda below captures them, which clang 14 rejects.
  for (const auto& deployment : deployments) {
    const DeploymentKey& key = deployment.first;
    const DeploymentInfo& info = deployment.second;
    std::string name = key.workload;
    if (groups_per_workload[key.workload] > 1) {
      const std::string res = key.resource.substr(key.resource.find('/') + 1);
      name = to_dns1123_label(key.workload + "-" + key.node + "-" + res);
    }
    for (int n = 2; names.count(name); ++n) name = to_dns1123_label(name.substr(0, 58) + "-" + std::to_string(n));
    names.insert(name);
    const std::string taint_value = node_sharing_value(plan, key.node);
    YAML::Emitter y;
    y << YAML::BeginMap << YAML::Key << "apiVersion" << YAML::Value << "apps/v1" << YAML::Key << "kind" << YAML::Value
      << "Deployment";
    auto labels = [&] {
      y << YAML::BeginMap << YAML::Key << "app.kubernetes.io/name" << YAML::Value << key.workload;
      y << YAML::Key << "app.kubernetes.io/instance" << YAML::Value << name;
      y << YAML::Key << "app.kubernetes.io/managed-by" << YAML::Value << "gpupack";
      y << YAML::Key << "gpupack.io/tenant" << YAML::Value << info.tenant << YAML::EndMap;
    };
    y << YAML::Key << "metadata" << YAML::Value << YAML::BeginMap << YAML::Key << "name" << YAML::Value << name;
    y << YAML::Key << "labels" << YAML::Value;
    labels();
    y << YAML::EndMap;
    y << YAML::Key << "spec" << YAML::Value << YAML::BeginMap << YAML::Key << "replicas" << YAML::Value << info.replicas;
    y << YAML::Key << "selector" << YAML::Value << YAML::BeginMap << YAML::Key << "matchLabels" << YAML::Value
      << YAML::BeginMap << YAML::Key << "app.kubernetes.io/instance" << YAML::Value << name << YAML::EndMap
      << YAML::EndMap;
    y << YAML::Key << "template" << YAML::Value << YAML::BeginMap;
    y << YAML::Key << "metadata" << YAML::Value << YAML::BeginMap << YAML::Key << "labels" << YAML::Value;
    labels();
    y << YAML::EndMap;
    y << YAML::Key << "spec" << YAML::Value << YAML::BeginMap;
    y << YAML::Key << "nodeSelector" << YAML::Value << YAML::BeginMap << YAML::Key << kPlannedNodeLabel << YAML::Value
      << key.node << YAML::EndMap;
    if (!taint_value.empty()) {
      y << YAML::Key << "tolerations" << YAML::Value << YAML::BeginSeq << YAML::BeginMap << YAML::Key << "key"
        << YAML::Value << kSharingTaint << YAML::Key << "operator" << YAML::Value << "Equal" << YAML::Key << "value"
        << YAML::Value << taint_value << YAML::Key << "effect" << YAML::Value << "NoSchedule" << YAML::EndMap
        << YAML::EndSeq;
    }
    if (info.host_ipc) y << YAML::Key << "hostIPC" << YAML::Value << true;
    y << YAML::Key << "containers" << YAML::Value << YAML::BeginSeq << YAML::BeginMap;
    y << YAML::Key << "name" << YAML::Value << key.workload;
    y << YAML::Key << "image" << YAML::Value << key.workload + ":latest";
    y << YAML::Key << "resources" << YAML::Value << YAML::BeginMap << YAML::Key << "limits" << YAML::Value
      << YAML::BeginMap << YAML::Key << key.resource << YAML::Value << 1 << YAML::EndMap << YAML::EndMap;
    y << YAML::EndMap << YAML::EndSeq;
    y << YAML::EndMap << YAML::EndMap << YAML::EndMap << YAML::EndMap;
    yaml += "---\n" + std::string(y.c_str()) + "\n";
  }
  out.files.push_back({"k8s-workloads/deployments.yaml", yaml, 0644});

  std::vector<NodeLabel> labels;
  std::vector<NodeTaint> taints;
  for (const auto& node : plan.nodes) {
    labels.push_back({node, kPlannedNodeLabel, node});
    const std::string value = node_sharing_value(plan, node);
    if (!value.empty()) taints.push_back({node, kSharingTaint, value, "NoSchedule"});
  }
  out.files.push_back({"k8s-workloads/node-labels.sh",
                       node_label_script("Labels and taints the nodes the planned Deployments select.", labels, taints),
                       0755});
  out.readme.push_back(fmt::format(
      "k8s-workloads/: deployments.yaml holds {} Deployment(s): each requests the resource its slice is\n"
      "advertised as (nvidia.com/gpu, nvidia.com/mig-<profile>, or gpupack.io/mps-<pct> and\n"
      "gpupack.io/mig-<profile>-mps-<pct>, served only by the gpupack agent), selects its planned node with\n"
      "{}=<node> and tolerates the node's {} taint. Replace each image (<workload>:latest). Run\n"
      "node-labels.sh first (labels and taints), then `kubectl apply -f deployments.yaml` last.",
      deployments.size(), kPlannedNodeLabel, kSharingTaint));
  return out;
}

}  // namespace gpupack
