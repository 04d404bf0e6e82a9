// Target `k8s-workloads`: the objects that run each workload's pods (a Deployment, Job or CronJob per
// workload, split per node, resource and process size where the plan puts its replicas on different
// kinds of slices), each pod asking for the resource its slice is advertised as, and the node taints.
// The resources are the ones the chosen device plugin advertises: the gpupack agent's, derived with its
// node configs in one place (contract/node_serving.hpp), or NVIDIA's plugin's (nvidia.com/gpu,
// nvidia.com/mig-<profile>) for nodes it can express.
#include <fmt/format.h>

#include <map>
#include <set>

#include "contract/names.hpp"
#include "contract/node_serving.hpp"
#include "core/errors.hpp"
#include "render/node_labels.hpp"
#include "render/pod_workload.hpp"
#include "render/targets.hpp"

namespace gpupack {

namespace {

struct ObjectKey {
  std::string workload, node, resource;
  int streams = 1;
  auto operator<=>(const ObjectKey&) const = default;
};

struct ObjectInfo {
  int pods = 0;
  std::string tenant;
  bool host_ipc = false;
};

// The taint value of a node: how its GPUs are shared ("" when every GPU is exclusive).
std::string node_sharing_value(const PlanDocument& plan, const std::string& node) {
  std::set<std::string> kinds;
  for (const auto& gpu : plan.gpus) {
    if (gpu.node == node && gpu.mode != GpuMode::exclusive) {
      kinds.insert(to_string(gpu.mode.uses_mig ? GpuMode::mig : gpu.mode));  // MIG modes all taint as "mig"
    }
  }
  if (kinds.empty()) return "";
  return kinds.size() == 1 ? *kinds.begin() : "mixed";
}

// The ids of the plan's GPUs older than Volta, where MPS clients need hostIPC.
std::set<std::string> pre_volta_gpus(const PlanDocument& plan, const GpuCatalog& catalog) {
  std::set<std::string> out;
  for (const auto& gpu : plan.gpus) {
    const GpuModel* model = catalog.find(gpu.model);
    if (model && !is_volta_or_newer(model->arch)) out.insert(gpu.id);
  }
  return out;
}

}  // namespace

std::vector<std::string> workload_namespaces(const PlanDocument& plan) {
  std::set<std::string> out;
  for (const auto& w : plan.workloads) {
    if (w.namespace_) out.insert(*w.namespace_);
  }
  return {out.begin(), out.end()};
}

TargetOutput render_workloads_target(const PlanDocument& plan, const GpuCatalog& catalog, Consumer consumer) {
  TargetOutput out;
  std::map<ObjectKey, ObjectInfo> objects;
  std::map<std::string, int> groups_per_workload;
  const std::set<std::string> pre_volta = pre_volta_gpus(plan, catalog);
  for (const NodeServing& node : gpupack_agent_serving(plan)) {
    if (consumer == Consumer::nvidia_device_plugin) {
      if (const auto problems = nvidia_plugin_problems(plan, catalog, node.node); !problems.empty()) {
        throw InputError("plan: node " + node.node + " cannot be served by the NVIDIA device plugin: " + problems.front() +
                         " (plan with --deploy-with nvidia-device-plugin, or deploy with the gpupack agent)");
      }
    }
    for (const ServedPod& pod : node.pods) {
      require_label_value("tenant of workload " + pod.workload, pod.tenant);
      const std::string resource =
          consumer == Consumer::nvidia_device_plugin ? whole_resource_name(pod.mig_profile) : pod.resource;
      auto& o = objects[{pod.workload, node.node, resource, pod.replicas}];
      ++o.pods;
      o.tenant = pod.tenant;
      o.host_ipc = o.host_ipc || (pod.sm_percent && pre_volta.count(pod.gpu_id));
    }
  }
  if (objects.empty()) return out;
  for (const auto& [key, info] : objects) ++groups_per_workload[key.workload];

  std::string yaml;
  for (const auto& ns : workload_namespaces(plan)) {
    yaml += "---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: " + ns + "\n";
  }
  std::set<std::string> names;
  for (const auto& [key, info] : objects) {
    std::string name = key.workload;
    if (groups_per_workload[key.workload] > 1) {
      const std::string res = key.resource.substr(key.resource.find('/') + 1);
      name = to_dns1123_label(key.workload + "-" + key.node + "-" + res + (key.streams > 1 ? "-x" + std::to_string(key.streams) : ""));
    }
    for (int n = 2; names.count(name); ++n) name = to_dns1123_label(name.substr(0, 58) + "-" + std::to_string(n));
    names.insert(name);
    PodWorkload w = pod_workload_of(plan, name, key.workload, info.tenant, key.node, info.pods, key.streams);
    w.resource = key.resource;
    w.host_ipc = info.host_ipc;
    w.sharing_taint_value = node_sharing_value(plan, key.node);
    yaml += pod_workload_yaml(w);
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
                       node_label_script("Labels the nodes the planned workloads run on (optional: the workloads "
                                         "select their nodes by name); with --taint also taints them to keep "
                                         "other pods off.",
                                         labels, taints),
                       0755});
  out.readme.push_back(fmt::format(
      "k8s-workloads/: deployments.yaml holds {} Deployment(s), Job(s) or CronJob(s), each pinned to its planned\n"
      "node by name (node affinity on metadata.name) and requesting one unit of the resource its slice is\n"
      "advertised as by the {} ({}). Deployments roll with maxSurge 0, so\n"
      "no rollout puts more pods on a slice than the plan. Workloads without `deploy.image` in the scenario run\n"
      "an image named after the workload: set it with `kustomize edit set image <workload>=<image>`.\n"
      "node-labels.sh (optional) labels the nodes; `node-labels.sh --taint` also taints them with {} so that\n"
      "pods that do not tolerate it stay off (the workloads tolerate it; NVIDIA's GPU Operator's DaemonSets do not).",
      objects.size(), consumer == Consumer::nvidia_device_plugin ? "NVIDIA device plugin" : "gpupack agent",
      consumer == Consumer::nvidia_device_plugin ? "nvidia.com/gpu, nvidia.com/mig-<profile>"
                                                  : "nvidia.com/gpu, nvidia.com/mig-<profile>, gpupack.io/[mig-<profile>-]mps-<pct>[-<qualifier>]",
      kSharingTaint));
  return out;
}

}  // namespace gpupack
