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

void assign_consumers(Scenario& scenario, Consumer consumer) {
  for (FleetEntry& f : scenario.fleet) {
    if (!f.deploy_with_given) f.deploy_with = consumer;
  }
  for (size_t a = 0; a < scenario.fleet.size(); ++a) {
    for (size_t b = a + 1; b < scenario.fleet.size(); ++b) {
      const FleetEntry& x = scenario.fleet[a];
      const FleetEntry& y = scenario.fleet[b];
      if (x.node_prefix != y.node_prefix) continue;
      const std::string where = "fleet entries " + std::to_string(a + 1) + " (" + x.model.name + ") and " +
                                std::to_string(b + 1) + " (" + y.model.name + ") share nodes " + x.node_prefix + "-*";
      if (x.deploy_with != y.deploy_with) {
        throw InputError(where + " but deploy with " + std::string(to_string(x.deploy_with)) + " and " +
                         std::string(to_string(y.deploy_with)) + "; a node runs one device plugin: give them "
                         "different node_prefix or the same deploy_with");
      }
      if (x.deploy_with == Consumer::nvidia_device_plugin) {
        throw InputError(where + " deployed with nvidia-device-plugin, which applies one sharing config to a "
                         "node's GPUs; give each pool its own node_prefix");
      }
    }
  }
}

}  // namespace gpupack
