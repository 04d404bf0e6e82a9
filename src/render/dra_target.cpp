// Target `dra`: the plan as Dynamic Resource Allocation objects (resource.k8s.io/v1, Kubernetes 1.34+)
// for NVIDIA's DRA driver for GPUs (kubernetes-sigs/dra-driver-nvidia-gpu, formerly
// NVIDIA/k8s-dra-driver-gpu; written for v0.4.0, its API unchanged from v25.8.0 to HEAD 22407113).
// One ResourceClaim per planned slice: a request for one device of the driver's own DeviceClass
// (gpu.nvidia.com for a whole GPU, mig.nvidia.com for a MIG instance) with CEL selectors on the
// attributes the driver publishes (productName, profile) and its memory capacity, plus the opaque
// GpuConfig / MigDeviceConfig (resource.nvidia.com/v1beta1) that gives the slice its sharing. Pods share
// a device by referencing the same claim, so every replica placed on a slice uses that slice's claim.
// What the driver cannot express (per-client MPS limits that differ inside one claim) is said per slice.
#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <map>
#include <set>

#include "core/errors.hpp"
#include "contract/names.hpp"
#include "contract/node_serving.hpp"
#include "core/units.hpp"
#include "render/node_labels.hpp"
#include "render/pod_workload.hpp"
#include "render/targets.hpp"

namespace gpupack {

namespace {

constexpr const char* kDriver = "gpu.nvidia.com";
constexpr const char* kConfigApi = "resource.nvidia.com/v1beta1";
constexpr std::uint64_t kMiB = 1024 * 1024;

// A CEL string literal: single-quoted, with backslash and quote escaped.
std::string cel_string(std::string_view s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\\' || c == '\'') out += '\\';
    out += c;
  }
  return out + "'";
}

struct SliceClaim {
  std::string name;     // the ResourceClaim
  std::string namespace_;  // its pods' (a claim is shared only within its namespace); empty: none given
  const DocGpu* gpu = nullptr;
  const DocSlice* slice = nullptr;
  const GpuModel* model = nullptr;
};

// The model of a GPU, or InputError: the selectors need its product names (and MIG profiles).
const GpuModel& model_of(const DocGpu& gpu, const GpuCatalog& catalog) {
  if (gpu.model.empty()) {
    throw InputError("plan: GPU " + gpu.id + " has no model; the dra target selects devices by product name, so "
                     "give every GPU a catalog model (gpupack catalog lists them)");
  }
  return catalog.get(gpu.model);
}

void check_profile(const DocGpu& gpu, const DocSlice& slice, const GpuModel& model) {
  if (!slice.profile) return;
  if (!model.mig || model.mig->find_profile(*slice.profile) < 0) {
    throw InputError(fmt::format("plan: GPU {} slice {}: MIG profile '{}' is not a profile of {}; accepted: {}", gpu.id,
                                 slice.id, *slice.profile, model.name,
                                 model.mig ? model.mig->profile_names() : std::string("none (no MIG on this model)")));
  }
}

// The memory the slice's processes are planned to use: one limit per process (a streams group is one
// process: its replicas share one context and one limit), not one per replica.
std::uint64_t slice_memory_need(const DocSlice& s) {
  std::uint64_t need = 0;
  if (!s.processes.empty()) {
    for (const auto& p : s.processes) need += p.memory_limit_bytes;
  } else if (s.sharing == Sharing::streams) {
    for (const auto& cl : s.clients) need = std::max(need, cl.memory_limit_bytes);
  } else {
    for (const auto& cl : s.clients) need += cl.memory_limit_bytes;
  }
  return need;
}

// The memory the driver publishes for the device, from the catalog: the MIG profile's or the GPU's.
std::uint64_t device_memory(const GpuModel& model, const DocSlice& s) {
  double gib = model.memory_gib;
  if (s.profile && model.mig) {
    const int p = model.mig->find_profile(*s.profile);
    if (p >= 0) gib = model.mig->profiles[static_cast<size_t>(p)].memory_gib;
  }
  return static_cast<std::uint64_t>(gib * 1024.0 * 1024.0 * 1024.0);
}

// The namespace the slice's pods (and so its claim) live in; empty with none given; "?" when they differ.
std::string slice_namespace(const PlanDocument& plan, const DocSlice& s) {
  std::set<std::string> namespaces;
  for (const auto& cl : s.clients) namespaces.insert(deploy_of(plan, cl.workload).namespace_.value_or(""));
  return namespaces.size() == 1 ? *namespaces.begin() : std::string("?");
}

// The selector expressions: the product (any of the NVML names of the model), the MIG profile, and at
// least the memory the slice's clients are planned to use.
std::vector<std::string> selectors(const SliceClaim& c) {
  std::vector<std::string> out;
  const std::string attrs = fmt::format("device.attributes[{}]", cel_string(kDriver));
  std::string names;
  for (const auto& n : c.model->nvml_names) names += (names.empty() ? "" : ", ") + cel_string(n);
  if (c.model->nvml_names.size() == 1) {
    out.push_back(attrs + ".productName == " + names);
  } else if (!c.model->nvml_names.empty()) {
    out.push_back(attrs + ".productName in [" + names + "]");
  }
  if (c.slice->profile) out.push_back(attrs + ".profile == " + cel_string(*c.slice->profile));
  const std::uint64_t need = slice_memory_need(*c.slice);
  if (need > 0) {
    out.push_back(fmt::format("device.capacity[{}].memory.compareTo(quantity('{}Mi')) >= 0", cel_string(kDriver),
                              (need + kMiB - 1) / kMiB));
  }
  return out;
}

// Why the driver cannot give this slice what the plan says; empty when it can.
std::string not_expressible(const DocSlice& s) {
  if (s.sharing != Sharing::mps || s.clients.size() < 2) return "";
  std::set<std::pair<int, std::uint64_t>> limits;
  for (const auto& c : s.clients) limits.insert({c.active_thread_percentage.value_or(100), c.memory_limit_bytes});
  if (limits.size() == 1) return "";
  return "its MPS clients have different limits; the driver's MpsConfig sets one defaultActiveThreadPercentage and "
         "one defaultPinnedDeviceMemoryLimit for every client of a claim";
}

// The opaque sharing config of the slice, or nothing (an exclusive slice, or one process of streams).
void emit_config(YAML::Emitter& y, const SliceClaim& c) {
  const DocSlice& s = *c.slice;
  const bool mig = s.profile.has_value();
  if ((s.sharing != Sharing::mps && s.sharing != Sharing::time_slicing) || s.clients.size() < 2) return;
  y << YAML::Key << "config" << YAML::Value << YAML::BeginSeq << YAML::BeginMap;
  y << YAML::Key << "requests" << YAML::Value << YAML::Flow << YAML::BeginSeq << "gpu" << YAML::EndSeq;
  y << YAML::Key << "opaque" << YAML::Value << YAML::BeginMap << YAML::Key << "driver" << YAML::Value << kDriver;
  y << YAML::Key << "parameters" << YAML::Value << YAML::BeginMap;
  y << YAML::Key << "apiVersion" << YAML::Value << kConfigApi;
  y << YAML::Key << "kind" << YAML::Value << (mig ? "MigDeviceConfig" : "GpuConfig");
  y << YAML::Key << "sharing" << YAML::Value << YAML::BeginMap;
  if (s.sharing == Sharing::time_slicing) {
    y << YAML::Key << "strategy" << YAML::Value << "TimeSlicing";
    // MigDeviceSharing has no timeSlicingConfig; a GPU gets the driver's default interval.
    if (!mig) {
      y << YAML::Key << "timeSlicingConfig" << YAML::Value << YAML::BeginMap << YAML::Key << "interval" << YAML::Value
        << "Default" << YAML::EndMap;
    }
  } else {
    const DocPlacement& first = s.clients.front();
    y << YAML::Key << "strategy" << YAML::Value << "MPS";
    y << YAML::Key << "mpsConfig" << YAML::Value << YAML::BeginMap;
    if (first.active_thread_percentage) {
      y << YAML::Key << "defaultActiveThreadPercentage" << YAML::Value << *first.active_thread_percentage;
    }
    if (first.memory_limit_bytes > 0) {
      y << YAML::Key << "defaultPinnedDeviceMemoryLimit" << YAML::Value
        << std::to_string((first.memory_limit_bytes + kMiB - 1) / kMiB) + "Mi";
    }
    y << YAML::EndMap;
  }
  y << YAML::EndMap << YAML::EndMap << YAML::EndMap << YAML::EndMap << YAML::EndSeq;
}

std::string claim_yaml(const SliceClaim& c) {
  YAML::Emitter y;
  y << YAML::BeginMap << YAML::Key << "apiVersion" << YAML::Value << "resource.k8s.io/v1";
  y << YAML::Key << "kind" << YAML::Value << "ResourceClaim";
  y << YAML::Key << "metadata" << YAML::Value << YAML::BeginMap << YAML::Key << "name" << YAML::Value << c.name;
  if (!c.namespace_.empty()) y << YAML::Key << "namespace" << YAML::Value << c.namespace_;
  y << YAML::Key << "labels" << YAML::Value << YAML::BeginMap << YAML::Key << "app.kubernetes.io/managed-by"
    << YAML::Value << "gpupack" << YAML::Key << kPlannedNodeLabel << YAML::Value << c.gpu->node << YAML::EndMap << YAML::EndMap;
  y << YAML::Key << "spec" << YAML::Value << YAML::BeginMap << YAML::Key << "devices" << YAML::Value << YAML::BeginMap;
  y << YAML::Key << "requests" << YAML::Value << YAML::BeginSeq << YAML::BeginMap;
  y << YAML::Key << "name" << YAML::Value << "gpu";
  y << YAML::Key << "exactly" << YAML::Value << YAML::BeginMap;
  y << YAML::Key << "deviceClassName" << YAML::Value << (c.slice->profile ? "mig.nvidia.com" : "gpu.nvidia.com");
  y << YAML::Key << "selectors" << YAML::Value << YAML::BeginSeq;
  for (const auto& e : selectors(c)) {
    y << YAML::BeginMap << YAML::Key << "cel" << YAML::Value << YAML::BeginMap << YAML::Key << "expression"
      << YAML::Value << e << YAML::EndMap << YAML::EndMap;
  }
  y << YAML::EndSeq << YAML::EndMap << YAML::EndMap << YAML::EndSeq;
  emit_config(y, c);
  y << YAML::EndMap << YAML::EndMap << YAML::EndMap;
  return "---\n" + std::string(y.c_str()) + "\n";
}

std::string unique_name(std::string name, std::set<std::string>& used) {
  for (int n = 2; used.count(name); ++n) name = to_dns1123_label(name.substr(0, 58) + "-" + std::to_string(n));
  used.insert(name);
  return name;
}

}  // namespace

TargetOutput render_dra_target(const PlanDocument& plan, const GpuCatalog& catalog) {
  TargetOutput out;
  std::string claims, deployments;
  std::vector<std::string> notes;
  std::set<std::string> claim_names, deployment_names;
  std::set<std::string> nodes_used;
  int claim_count = 0, deployment_count = 0;
  bool uses_mps = false, uses_time_slicing = false;
  for (const auto& gpu : plan.gpus) {
    const GpuModel& model = model_of(gpu, catalog);
    for (const auto& slice : gpu.slices) check_profile(gpu, slice, model);
  }
  // The plan's processes, one pod each (contract/node_serving.hpp), by (GPU, slice).
  std::map<std::pair<std::string, std::string>, std::vector<ServedPod>> pods_by_slice;
  for (NodeServing& node : gpupack_agent_serving(plan)) {
    for (ServedPod& pod : node.pods) pods_by_slice[{pod.gpu_id, pod.slice_id}].push_back(std::move(pod));
  }
  for (const auto& gpu : plan.gpus) {
    const GpuModel& model = model_of(gpu, catalog);
    for (const auto& slice : gpu.slices) {
      if (slice.clients.empty()) continue;
      const std::string where = slice.profile ? fmt::format("GPU {} MIG {} ({})", gpu.id, slice.id, *slice.profile)
                                              : "GPU " + gpu.id;
      if (const std::string why = not_expressible(slice); !why.empty()) {
        notes.push_back(fmt::format("  - node {}, {}: not rendered: {}. Serve it with the gpupack-agent target (the "
                                    "gpupack agent's device plugin gives each client its own limits).",
                                    gpu.node, where, why));
        continue;
      }
      const std::string ns = slice_namespace(plan, slice);
      if (ns == "?") {
        notes.push_back(fmt::format("  - node {}, {}: not rendered: its workloads are in different namespaces, and a "
                                    "ResourceClaim is shared only by pods of its own namespace.",
                                    gpu.node, where));
        continue;
      }
      if (const std::uint64_t need = slice_memory_need(slice), has = device_memory(model, slice); need > has) {
        notes.push_back(fmt::format("  - node {}, {}: not rendered: its processes are planned to use {} of memory, more "
                                    "than the {} the device has ({}), so no device would match the claim.",
                                    gpu.node, where, format_size(need), format_size(has), model.name));
        continue;
      }
      SliceClaim c{unique_name(to_dns1123_label(gpu.node + "-" + gpu.id + (slice.profile ? "-" + slice.id : "")),
                               claim_names),
                   ns, &gpu, &slice, &model};
      claims += claim_yaml(c);
      ++claim_count;
      nodes_used.insert(gpu.node);
      uses_mps = uses_mps || (slice.sharing == Sharing::mps && slice.clients.size() > 1);
      uses_time_slicing = uses_time_slicing || (slice.sharing == Sharing::time_slicing && slice.clients.size() > 1);
      // One Deployment (or Job, CronJob) per workload and process size on the slice: all its pods there
      // reference this one claim; a streams group is one pod.
      std::map<std::pair<std::string, int>, std::pair<std::string, int>> per_workload;  // (workload, streams) -> tenant, pods
      for (const ServedPod& pod : pods_by_slice[{gpu.id, slice.id}]) {
        auto& [tenant, n] = per_workload[{pod.workload, pod.replicas}];
        tenant = pod.tenant;
        ++n;
      }
      const bool host_ipc = slice.sharing == Sharing::mps && !is_volta_or_newer(model.arch);
      for (const auto& [key, info] : per_workload) {
        require_label_value("tenant of workload " + key.first, info.first);
        PodWorkload w = pod_workload_of(
            plan,
            unique_name(to_dns1123_label(key.first + "-" + c.name + (key.second > 1 ? "-x" + std::to_string(key.second) : "")),
                        deployment_names),
            key.first, info.first, gpu.node, info.second, key.second);
        w.claim = c.name;
        w.host_ipc = host_ipc;
        deployments += pod_workload_yaml(w);
        ++deployment_count;
      }
      if (slice.sharing == Sharing::streams && slice.clients.size() > 1) {
        notes.push_back(fmt::format("  - node {}, {}: streams: its {} replicas are meant to run as one process; the "
                                    "claim carries no sharing config, so separate pods would time-slice it.",
                                    gpu.node, where, slice.clients.size()));
      }
    }
  }
  if (claim_count == 0 && notes.empty()) return out;
  if (claim_count > 0) {
    out.files.push_back({"dra/resourceclaims.yaml", claims, 0644});
    out.files.push_back({"dra/deployments.yaml", deployments, 0644});
    std::vector<NodeLabel> labels;
    for (const auto& node : plan.nodes) {
      if (nodes_used.count(node)) labels.push_back({node, kPlannedNodeLabel, node});
    }
    out.files.push_back({"dra/node-labels.sh", node_label_script("Labels the nodes the DRA Deployments select.", labels), 0755});
  }
  std::string readme = fmt::format(
      "dra/: Dynamic Resource Allocation (resource.k8s.io/v1, Kubernetes 1.34 or newer) for NVIDIA's DRA\n"
      "driver for GPUs (kubernetes-sigs/dra-driver-nvidia-gpu v0.4.0; sharing configs resource.nvidia.com/v1beta1).\n"
      "resourceclaims.yaml holds {} ResourceClaim(s), one per planned slice: one device of the driver's own\n"
      "DeviceClass (gpu.nvidia.com, or mig.nvidia.com for a MIG instance) chosen by CEL on productName,\n"
      "profile and memory, with the slice's GpuConfig/MigDeviceConfig (MPS limits, or time-slicing).\n"
      "deployments.yaml holds {} Deployment(s) whose replicas on one slice all reference that slice's claim.\n"
      "Install the driver{}, then apply resourceclaims.yaml and deployments.yaml (`kubectl apply -k` with\n"
      "--deploy-with dra); pods select their nodes by name (node-labels.sh, optional, sets {}=<node>). Claims\n"
      "ask for the memory of the slice's processes (a streams group once). MIG layouts come from mig-parted/\n"
      "(the driver publishes the instances that exist). Use this target or k8s-device-plugin/ +\n"
      "k8s-workloads/, not both.",
      claim_count, deployment_count,
      uses_mps || uses_time_slicing
          ? fmt::format(" with the feature gate(s) {}",
                        std::string(uses_mps ? "MPSSupport" : "") + (uses_mps && uses_time_slicing ? " and " : "") +
                            (uses_time_slicing ? "TimeSlicingSettings" : ""))
          : std::string(),
      kPlannedNodeLabel);
  if (!notes.empty()) {
    readme += "\n  What the DRA driver cannot express, per slice:";
    for (const auto& n : notes) readme += "\n" + n;
  }
  out.readme.push_back(readme);
  return out;
}

}  // namespace gpupack
