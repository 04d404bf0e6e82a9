#include "core/scenario.hpp"

#include "core/errors.hpp"

namespace gpupack {

const GpuModel& reference_model(const Scenario& scenario) {
  if (scenario.fleet.empty()) throw InputError("the scenario has no GPUs: give a fleet or --gpu MODEL");
  return scenario.fleet.front().model;
}

long total_replicas(const Scenario& scenario) {
  long n = 0;
  for (const auto& w : scenario.workloads) n += w.replicas;
  return n;
}

}  // namespace gpupack
