#include "core/scenario.hpp"

#include <algorithm>

#include "core/errors.hpp"

namespace gpupack {

const GpuModel& reference_model(const Scenario& scenario) {
  if (scenario.fleet.empty()) throw InputError("the scenario has no GPUs: give a fleet or --gpu MODEL");
  return scenario.fleet.front().model;
}

double host_cores_per_gpu(const FleetEntry& entry) {
  return entry.cpu_cores ? *entry.cpu_cores / std::max(1, entry.gpus_per_node) : 0.0;
}

SliceCapacity slice_capacity_on(const FleetEntry& entry, int mig_profile) {
  SliceCapacity c = slice_capacity(entry.model, mig_profile);
  const double share =
      mig_profile >= 0 && entry.model.mig && entry.model.sm_count > 0
          ? static_cast<double>(entry.model.mig->profiles[static_cast<size_t>(mig_profile)].sms) /
                entry.model.sm_count
          : 1.0;
  c.host_cores = share * host_cores_per_gpu(entry);
  return c;
}

std::string node_name(const FleetEntry& entry, long gpu_index) {
  constexpr std::size_t kMaxNodeName = 63;  // RFC 1123 label, as contract/names.hpp checks at render
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
