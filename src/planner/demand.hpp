#pragma once
// What one replica of each workload asks of a slice, with tenants and groups numbered for fast checks.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/scenario.hpp"
#include "model/model_parameters.hpp"

namespace gpupack {

struct WorkloadDemand {
  int workload = 0;                  // index into Scenario::workloads
  int replicas = 1;
  int tenant = 0;                    // index into Demands::tenants
  int group = -1;                    // index into Demands::groups; -1 when the workload has none
  std::uint64_t memory_bytes = 0;    // one replica, without the CUDA context
  double compute = 0;                // one replica, fraction of the reference GPU's SMs
  Isolation isolation = Isolation::none;
  bool intermittent = false;
  std::optional<double> max_p99_inflation;
  double host_cpu = 0;               // one replica's host CPU cores (its profile's); 0 without a profile
  const Workload* profiled = nullptr;  // the workload, when its profile judges it (model/profiled_slice.hpp)
  const Workload* entry = nullptr;     // the workload (Scenario::workloads[workload]): what the model predicts
  bool not_judged = false;  // never placed: its profile cannot judge it (Workload::not_judged)
};

struct Demands {
  std::vector<WorkloadDemand> workloads;  // same order as Scenario::workloads
  std::vector<std::string> tenants;
  std::vector<std::string> groups;
  int reference_sms = 0;                  // SMs of the GPU `compute` fractions refer to
};

Demands make_demands(const Scenario& scenario, const ModelParameters& parameters);

}  // namespace gpupack
