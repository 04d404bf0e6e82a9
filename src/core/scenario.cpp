#include "core/scenario.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <string>

#include "core/errors.hpp"

namespace gpupack {

const GpuModel& reference_model(const Scenario& scenario) {
  if (scenario.fleet.empty()) throw InputError("the scenario has no GPUs: give a fleet or --gpu MODEL");
  return scenario.fleet.front().model;
}

double host_cores_per_gpu(const FleetEntry& entry) {
  return entry.cpu_cores ? *entry.cpu_cores / std::max(1, entry.gpus_per_node) : 0.0;
}

std::string host_cores_arithmetic(const FleetEntry& entry) {
  const auto number = [](double v) {
    std::string t = std::to_string(std::round(v * 100) / 100);
    t.erase(t.find_last_not_of('0') + 1);
    if (t.back() == '.') t.pop_back();
    return t;
  };
  const int gpus = std::max(1, entry.gpus_per_node);
  return "cpu_cores " + number(entry.cpu_cores.value_or(0)) + " per node / " + std::to_string(gpus) +
         (gpus == 1 ? " GPU" : " GPUs") + " per node (gpus_per_node) = " + number(host_cores_per_gpu(entry)) +
         " cores per GPU";
}

SliceCapacity slice_capacity_on(const FleetEntry& entry, int mig_profile) {
  SliceCapacity c = slice_capacity(entry.model, mig_profile);
  c.host_cores = host_cores_per_gpu(entry);
  return c;
}

std::string node_name(const FleetEntry& entry, long gpu_index) {
  constexpr std::size_t kMaxNodeName = 63;  // RFC 1123 label, as contract/names.hpp checks at render
  const long node = gpu_index / std::max(1, entry.gpus_per_node);
  if (node < static_cast<long>(entry.node_names.size())) return entry.node_names[static_cast<size_t>(node)];
  std::string name = entry.node_prefix + "-" + std::to_string(gpu_index / std::max(1, entry.gpus_per_node));
  if (name.size() > kMaxNodeName) {
    throw InputError("node_prefix '" + entry.node_prefix + "' makes the node name '" + name + "' of " +
                     std::to_string(name.size()) + " characters; node names are at most 63: shorten node_prefix");
  }
  return name;
}

long total_replicas(const Scenario& scenario) {
  long n = 0;
  for (const auto& w : scenario.workloads) n += w.replicas;
  return n;
}

namespace {

// The nodes of a pool: its `count` GPUs, gpus_per_node a node (an `auto` pool: the first, by its prefix).
std::set<std::string> nodes_of(const FleetEntry& f, bool elastic) {
  std::set<std::string> out;
  const long count = elastic ? 1 : f.count;
  for (long i = 0; i < count; i += std::max(1, f.gpus_per_node)) out.insert(node_name(f, i));
  return out;
}

// The first node two pools share, or "".
std::string shared_node(const FleetEntry& x, const FleetEntry& y, bool elastic) {
  const std::set<std::string> a = nodes_of(x, elastic);
  for (const std::string& n : nodes_of(y, elastic)) {
    if (a.count(n)) return n;
  }
  return "";
}

}  // namespace

void assign_consumers(Scenario& scenario, Consumer consumer) {
  for (FleetEntry& f : scenario.fleet) {
    if (!f.deploy_with_given) f.deploy_with = consumer;
  }
  for (size_t a = 0; a < scenario.fleet.size(); ++a) {
    for (size_t b = a + 1; b < scenario.fleet.size(); ++b) {
      const FleetEntry& x = scenario.fleet[a];
      const FleetEntry& y = scenario.fleet[b];
      const std::string node = shared_node(x, y, scenario.elastic);
      if (node.empty()) continue;
      const std::string where = "fleet entries " + std::to_string(a + 1) + " (" + x.model.name + ") and " +
                                std::to_string(b + 1) + " (" + y.model.name + ") share node " + node;
      if (x.deploy_with != y.deploy_with) {
        throw InputError(where + " but deploy with " + std::string(to_string(x.deploy_with)) + " and " +
                         std::string(to_string(y.deploy_with)) + "; a node runs one device plugin: give them "
                         "different nodes (node_prefix, node_names) or the same deploy_with");
      }
      if (x.deploy_with == Consumer::nvidia_device_plugin) {
        throw InputError(where + " deployed with nvidia-device-plugin, which applies one sharing config to a "
                         "node's GPUs; give each pool its own nodes (node_prefix, node_names)");
      }
    }
  }
}

}  // namespace gpupack
