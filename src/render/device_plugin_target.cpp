// Target `k8s-device-plugin`: NVIDIA device plugin configs (version v1) as one ConfigMap of named
// configs, and the node labels nvidia.com/device-plugin.config=<name> that select them. A config is
// rendered only where the plugin's own behaviour equals the plan (checked against NVIDIA's plugin
// v0.17.4 and HEAD, docs/render.md): it replicates every device of a resource on the node alike, its MPS
// daemon gives every replica 100/replicas % of the threads and memory/replicas, at most 48 replicas
// (16 below compute capability 7.5), and it refuses MPS beside MIG. Other nodes are named in README.txt
// with the reason, pointing to the gpupack-agent target.
#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <map>
#include <set>

#include "contract/resource_names.hpp"
#include "core/consumer.hpp"
#include "render/node_labels.hpp"
#include "render/targets.hpp"

namespace gpupack {

namespace {

constexpr const char* kConfigMapName = "gpupack-device-plugin-configs";
constexpr const char* kNamespace = "nvidia-device-plugin";
constexpr std::uint64_t kMiB = 1024 * 1024;

// One device the plugin advertises under a resource: a whole GPU or a MIG instance.
struct PluginDeviceView {
  const DocGpu* gpu = nullptr;
  const DocSlice* slice = nullptr;  // null for a GPU the plan leaves without slices
  int clients() const { return slice ? static_cast<int>(slice->clients.size()) : 0; }
  bool shared() const { return slice && is_shared_by_processes(slice->sharing) && clients() > 1; }
};

// One node's needs in the plugin's terms: per resource name, how many replicas each device gets.
struct NodeSharing {
  Sharing strategy = Sharing::exclusive;  // the plugin's: exclusive ("none"), time_slicing or mps
  bool mig = false;
  std::map<std::string, int> replicas;  // resource -> replicas per device (1 = not shared)
  std::vector<std::string> problems;    // what the plugin cannot express
  std::map<std::string, std::pair<int, int>> idle_replicas;  // resource -> (advertised, planned) where more
};

void add_problem(NodeSharing& ns, std::string p) {
  if (std::find(ns.problems.begin(), ns.problems.end(), p) == ns.problems.end()) ns.problems.push_back(std::move(p));
}

std::string device_label(const PluginDeviceView& d) {
  return d.slice && d.slice->profile ? fmt::format("MIG {} ({}) of GPU {}", d.slice->id, *d.slice->profile, d.gpu->id)
                                     : "GPU " + d.gpu->id;
}

// The plugin's MPS daemon: replicas <= 48, or 16 where the compute capability is below 7.5 (its
// "Volta" check compares with 7.5, so a V100 at 7.0 gets 16).
int plugin_mps_max_replicas(const DocGpu& gpu, const GpuCatalog& catalog) {
  const GpuModel* model = catalog.find(gpu.model);
  return model ? nvidia_plugin_mps_max_replicas(*model) : 16;  // unknown model: the stricter limit
}

// What the plugin gives each of `replicas` MPS clients on this device, against what the plan wants.
void check_mps_limits(NodeSharing& ns, const PluginDeviceView& d, int replicas, const GpuCatalog& catalog) {
  const int max = plugin_mps_max_replicas(*d.gpu, catalog);
  if (replicas > max) {
    add_problem(ns, fmt::format("{} plans {} MPS clients; the plugin's MPS daemon accepts at most {} replicas on {} "
                                "(48, or 16 below compute capability 7.5), whatever the CUDA version",
                                device_label(d), replicas, max, d.gpu->model));
  }
  const int plugin_pct = 100 / replicas;
  const std::uint64_t plugin_mib = d.slice->memory_bytes / static_cast<std::uint64_t>(replicas) / kMiB;
  std::set<std::string> wanted;
  for (const auto& c : d.slice->clients) {
    const int pct = c.active_thread_percentage.value_or(100);
    const std::uint64_t mib = (c.memory_limit_bytes + kMiB - 1) / kMiB;
    if (pct != plugin_pct || mib != plugin_mib) wanted.insert(fmt::format("{}% and {}M", pct, mib));
  }
  if (!wanted.empty()) {
    std::string list;
    for (const auto& w : wanted) list += (list.empty() ? "" : ", ") + w;
    add_problem(ns, fmt::format("{}: the plugin's MPS daemon gives each of its {} replicas 100/{} = {}% of the threads "
                                "and memory/{} = {}M; the plan wants {} per client",
                                device_label(d), replicas, replicas, plugin_pct, replicas, plugin_mib, list));
  }
}

NodeSharing node_sharing(const PlanDocument& plan, const GpuCatalog& catalog, const std::string& node) {
  NodeSharing ns;
  std::set<Sharing> strategies;
  std::set<bool> mig_modes;
  std::map<std::string, std::vector<PluginDeviceView>> resources;  // what the plugin advertises per name
  for (const auto& gpu : plan.gpus) {
    if (gpu.node != node) continue;
    mig_modes.insert(gpu.uses_mig());
    if (gpu.slices.empty()) resources[whole_resource_name(std::nullopt)].push_back({&gpu, nullptr});
    for (const auto& slice : gpu.slices) {
      resources[whole_resource_name(slice.profile)].push_back({&gpu, &slice});
      if (slice.sharing == Sharing::mps && slice.profile) {
        add_problem(ns, fmt::format("GPU {} runs MPS inside MIG instance {}: the NVIDIA plugin refuses MPS on MIG",
                                    gpu.id, *slice.profile));
      }
    }
  }
  for (const auto& [resource, devices] : resources) {
    int replicas = 1;
    for (const auto& d : devices) {
      if (!d.shared()) continue;
      strategies.insert(d.slice->sharing);
      replicas = std::max(replicas, d.clients());
    }
    ns.replicas[resource] = replicas;
    if (replicas < 2) continue;
    // The plugin shares every device of the resource on the node alike: a device planned for fewer clients
    // advertises free replicas (README.txt says how many), which is what the plan means only where those
    // clients get the same sharing and limits as the fullest device's.
    int planned = 0;
    for (const auto& d : devices) planned += d.clients();
    const int advertised = replicas * static_cast<int>(devices.size());
    if (advertised > planned) ns.idle_replicas[resource] = {advertised, planned};
    const bool mps = std::any_of(devices.begin(), devices.end(),
                                 [](const PluginDeviceView& d) { return d.shared() && d.slice->sharing == Sharing::mps; });
    for (const auto& d : devices) {
      const bool alike = d.slice && d.clients() > 0 && (d.slice->sharing == Sharing::mps) == mps;
      if (!alike) {
        add_problem(ns, fmt::format("the plugin shares every device of {} on a node alike: {} is planned for {} "
                                    "client(s){}, not {} shared ones, so the node would advertise {} {} for {} planned",
                                    resource, device_label(d), d.clients(),
                                    d.slice ? " (" + std::string(to_string(d.slice->sharing)) + ")" : std::string(" (no slice)"), replicas,
                                    advertised, resource, planned));
      }
      if (alike && mps) check_mps_limits(ns, d, replicas, catalog);
    }
  }
  if (strategies.size() > 1) {
    add_problem(ns, "GPUs of this node use both time-slicing and MPS; the plugin applies one mode per node");
  }
  if (mig_modes.size() > 1) {
    add_problem(ns, "some GPUs of this node use MIG and some do not (needs migStrategy mixed with care)");
  }
  ns.mig = mig_modes.count(true) > 0;
  if (!strategies.empty()) ns.strategy = strategies.count(Sharing::mps) > 0 ? Sharing::mps : Sharing::time_slicing;
  if (ns.strategy == Sharing::mps && ns.mig) {
    add_problem(ns, "the plugin runs MPS only with migStrategy none, and this node uses MIG");
  }
  return ns;
}

// A readable name from what the config says: "whole-gpu", "whole-gpu-time-slicing-gpux4",
// "mig-mixed-time-slicing-1g.10gbx4-3g.40gbx2". Falls back to gpupack-<node> beyond 63 characters.
std::string config_name(const NodeSharing& ns, const std::string& node) {
  std::string name = ns.mig ? "mig-mixed" : "whole-gpu";
  if (ns.strategy != Sharing::exclusive) {
    name += "-" + std::string(to_string(ns.strategy));
    for (const auto& [resource, n] : ns.replicas) {
      if (n < 2) continue;
      std::string item(resource_name_part(resource));
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
  if (ns.strategy != Sharing::exclusive) {
    y << YAML::Key << "sharing" << YAML::Value << YAML::BeginMap;
    y << YAML::Key << (ns.strategy == Sharing::mps ? "mps" : "timeSlicing") << YAML::Value << YAML::BeginMap;
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

std::vector<std::string> nvidia_plugin_problems(const PlanDocument& plan, const GpuCatalog& catalog, const std::string& node) {
  return node_sharing(plan, catalog, node).problems;
}

TargetOutput render_device_plugin_target(const PlanDocument& plan, const GpuCatalog& catalog) {
  TargetOutput out;
  std::map<std::string, std::string> configs;  // name -> YAML
  std::vector<NodeLabel> labels;
  std::vector<NodeGuard> guards;
  std::vector<std::string> notes;
  for (const auto& node : plan.nodes) {
    const NodeSharing ns = node_sharing(plan, catalog, node);
    int gpus = 0;
    for (const auto& gpu : plan.gpus) gpus += gpu.node == node ? 1 : 0;
    if (!ns.problems.empty()) {
      std::string note = "node " + node + " is not expressible with the NVIDIA device plugin:";
      for (const auto& p : ns.problems) note += "\n  - " + p;
      note += "\n  Use the gpupack-agent target (the gpupack agent's device plugin) for this node.";
      notes.push_back(note);
      continue;
    }
    const std::string name = config_name(ns, node);
    configs.emplace(name, config_yaml(ns));
    for (const auto& [resource, counts] : ns.idle_replicas) {
      notes.push_back(fmt::format("node {} advertises {} {} for {} planned pods: its less shared devices keep {} free "
                                  "replica(s) with the same limits, which the plugin may give any pod on the node",
                                  node, counts.first, resource, counts.second, counts.first - counts.second));
    }
    labels.push_back({node, "nvidia.com/device-plugin.config", name});
    // The plan lists only the GPUs it uses; the plugin would share any other GPU of the node too.
    guards.push_back({node, "nvidia.com/gpu.count", std::to_string(gpus)});
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
                         node_label_script("Selects each node's NVIDIA device plugin config.", labels, {}, guards), 0755});
  }
  std::string readme =
      configs.empty()
          ? std::string("k8s-device-plugin/: no node of this plan can be served by the NVIDIA device plugin.")
          : fmt::format(
                "k8s-device-plugin/: configmap.yaml holds {} named NVIDIA device plugin config(s) (version v1;\n"
                "checked against the plugin v0.17.4) in ConfigMap {}/{};\n"
                "install the plugin with config.name={} (Helm) and run node-labels.sh to point each node at its config\n"
                "(nvidia.com/device-plugin.config). A config is rendered only where the plugin does what the plan\n"
                "says: every device of a resource on the node shared alike, and MPS replicas whose 100/replicas %\n"
                "and memory/replicas equal the plan's limits. The plan knows only the GPUs it uses and the plugin\n"
                "shares every GPU of a node, so node-labels.sh first checks GPU feature discovery's\n"
                "nvidia.com/gpu.count on each node and labels nothing if a node has other GPUs than planned.\n"
                "Apply after mig-parted/ and before k8s-workloads/.",
                configs.size(), kNamespace, kConfigMapName, kConfigMapName);
  for (const auto& n : notes) readme += "\n" + n;
  out.readme.push_back(readme);
  return out;
}

}  // namespace gpupack
