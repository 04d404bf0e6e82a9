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
#include "render/node_labels.hpp"
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
  std::uint64_t need = 0;
  for (const auto& cl : c.slice->clients) need += cl.memory_limit_bytes;
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

std::string deployment_yaml(const std::string& name, const std::string& workload, const std::string& tenant, int replicas,
                            const SliceClaim& c, bool host_ipc) {
  YAML::Emitter y;
  auto labels = [&] {
    y << YAML::BeginMap << YAML::Key << "app.kubernetes.io/name" << YAML::Value << workload;
    y << YAML::Key << "app.kubernetes.io/instance" << YAML::Value << name;
    y << YAML::Key << "app.kubernetes.io/managed-by" << YAML::Value << "gpupack";
    y << YAML::Key << "gpupack.io/tenant" << YAML::Value << tenant << YAML::EndMap;
  };
  y << YAML::BeginMap << YAML::Key << "apiVersion" << YAML::Value << "apps/v1" << YAML::Key << "kind" << YAML::Value
    << "Deployment";
  y << YAML::Key << "metadata" << YAML::Value << YAML::BeginMap << YAML::Key << "name" << YAML::Value << name;
  y << YAML::Key << "labels" << YAML::Value;
  labels();
  y << YAML::EndMap;
  y << YAML::Key << "spec" << YAML::Value << YAML::BeginMap << YAML::Key << "replicas" << YAML::Value << replicas;
  y << YAML::Key << "selector" << YAML::Value << YAML::BeginMap << YAML::Key << "matchLabels" << YAML::Value
    << YAML::BeginMap << YAML::Key << "app.kubernetes.io/instance" << YAML::Value << name << YAML::EndMap << YAML::EndMap;
  y << YAML::Key << "template" << YAML::Value << YAML::BeginMap << YAML::Key << "metadata" << YAML::Value
    << YAML::BeginMap << YAML::Key << "labels" << YAML::Value;
  labels();
  y << YAML::EndMap << YAML::Key << "spec" << YAML::Value << YAML::BeginMap;
  y << YAML::Key << "nodeSelector" << YAML::Value << YAML::BeginMap << YAML::Key << kPlannedNodeLabel << YAML::Value
    << c.gpu->node << YAML::EndMap;
  if (host_ipc) y << YAML::Key << "hostIPC" << YAML::Value << true;
  y << YAML::Key << "resourceClaims" << YAML::Value << YAML::BeginSeq << YAML::BeginMap << YAML::Key << "name"
    << YAML::Value << "gpu" << YAML::Key << "resourceClaimName" << YAML::Value << c.name << YAML::EndMap << YAML::EndSeq;
  y << YAML::Key << "containers" << YAML::Value << YAML::BeginSeq << YAML::BeginMap;
  y << YAML::Key << "name" << YAML::Value << workload << YAML::Key << "image" << YAML::Value << workload + ":latest";
  y << YAML::Key << "resources" << YAML::Value << YAML::BeginMap << YAML::Key << "claims" << YAML::Value
    << YAML::BeginSeq << YAML::BeginMap << YAML::Key << "name" << YAML::Value << "gpu" << YAML::EndMap << YAML::EndSeq
    << YAML::EndMap;
  y << YAML::EndMap << YAML::EndSeq << YAML::EndMap << YAML::EndMap << YAML::EndMap << YAML::EndMap;
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
      SliceClaim c{unique_name(to_dns1123_label(gpu.node + "-" + gpu.id + (slice.profile ? "-" + slice.id : "")),
                               claim_names),
                   &gpu, &slice, &model};
      claims += claim_yaml(c);
      ++claim_count;
      nodes_used.insert(gpu.node);
      uses_mps = uses_mps || (slice.sharing == Sharing::mps && slice.clients.size() > 1);
      uses_time_slicing = uses_time_slicing || (slice.sharing == Sharing::time_slicing && slice.clients.size() > 1);
      // One Deployment per workload on the slice: all its replicas there reference this one claim.
      std::map<std::string, std::pair<std::string, int>> per_workload;  // workload -> tenant, replicas
      for (const auto& cl : slice.clients) {
        auto& [tenant, n] = per_workload[cl.workload];
        tenant = cl.tenant;
        ++n;
      }
      const bool host_ipc = slice.sharing == Sharing::mps && !is_volta_or_newer(model.arch);
      for (const auto& [workload, info] : per_workload) {
        require_label_value("tenant of workload " + workload, info.first);
        const std::string name = unique_name(to_dns1123_label(workload + "-" + c.name), deployment_names);
        deployments += deployment_yaml(name, workload, info.first, info.second, c, host_ipc);
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
      "Install the driver{}; run node-labels.sh\n"
      "({}=<node>), then apply resourceclaims.yaml and deployments.yaml. MIG layouts come from mig-parted/\n"
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
