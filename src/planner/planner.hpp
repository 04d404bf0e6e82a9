#pragma once
// gpupack's planner: choose per GPU the mode, MIG layout and limits, pack the replicas, explain the
// choice. Pure: a Scenario in, a Plan out.
#include <optional>
#include <string>
#include <vector>

#include "core/plan.hpp"
#include "core/scenario.hpp"
#include "planner/calibration.hpp"

namespace gpupack {

struct PlanOptions {
  Calibration calibration;
  std::optional<GpuMode> forced;  // plan with this mode only (the comparison of modes)
  bool exact = true;              // exhaustive search when the instance is small
  long exact_budget = 200'000;  // search nodes (about 0.1 s)
  bool explain = true;            // fill PlanGpu::why and ::rejected
};

Plan make_plan(const Scenario& scenario, const PlanOptions& options);

// What one mode alone does with the scenario, for the comparison `gpupack plan` prints.
struct ModeOutcome {
  std::optional<GpuMode> mode;  // none: the chosen (mixed) plan
  int gpus_used = 0;
  int placed = 0;
  int unplaced = 0;
  int slo_misses = 0;                  // replicas unplaced because no slice keeps their SLO
  std::optional<int> gpus_needed;      // with as many GPUs of the first model as needed; none if some never fit
  double worst_p99_inflation = 1.0;    // over the placed replicas that have an SLO
  double throughput = 1.0;             // placed compute x per-client throughput / placed compute
  std::string breaks;                  // what goes wrong with this mode, in one line
};

std::vector<ModeOutcome> compare_modes(const Scenario& scenario, const PlanOptions& options);

// The GPU modes in the order they are compared.
const std::vector<GpuMode>& all_gpu_modes();

}  // namespace gpupack
