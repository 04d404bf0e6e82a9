#include "core/scenario.hpp"

#include <algorithm>
#include <cmath>
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

}  // namespace gpupack
