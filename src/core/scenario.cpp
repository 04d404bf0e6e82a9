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

long total_replicas(const Scenario& scenario) {
  long n = 0;
  for (const auto& w : scenario.workloads) n += w.replicas;
  return n;
}

}  // namespace gpupack
