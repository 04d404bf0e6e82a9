#pragma once
// gpupack's planner: choose per GPU the mode, MIG layout and limits, pack the replicas, explain the
// choice. Pure: a Scenario in, a Plan out.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/plan.hpp"
#include "core/scenario.hpp"
#include "model/model_parameters.hpp"

namespace gpupack {

struct PlanOptions {
  ModelParameters parameters;
  std::optional<GpuMode> forced;  // plan with this mode only (the comparison of modes)
  bool exact = true;              // exhaustive search when the instance is small
  long exact_budget = 200'000;  // search nodes (about 0.1 s)
  bool explain = true;            // fill PlanGpu::why and ::rejected
  // On a fleet of priced `count: auto` types: replicas the improvement pass may pack while it looks for a
  // cheaper mix (priced_plan.hpp); about 10,000 replicas pack in 40 ms.
  long type_search_budget = 200'000;
  // Called as each plan of compare_modes starts (`done` of `total` finished): the CLI shows progress on
  // long runs. The planner stays pure: it never looks at a clock.
  std::function<void(const std::string& what, int done, int total)> progress;
};

Plan make_plan(const Scenario& scenario, const PlanOptions& options);
// make_plan with the NVIDIA plugin configs the pools have (planner/consumer_search.hpp chooses them).
Plan make_plan_as_configured(const Scenario& scenario, const PlanOptions& options);

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
  std::optional<double> cost_per_hour;  // of the GPUs it uses, when they all have a price
  // On a fleet of priced GPU types: a row with every workload on this one type (index into Scenario::fleet).
  std::optional<int> only_entry;
};

// On a fleet of priced GPU types (chooses_gpu_types) the rows are each mode on the mix and then each type
// alone, every row on as many GPUs as it needs.
// `chosen` is make_plan(scenario, options): the comparison's "chosen" row is computed from it rather than
// planned again, so that the row and the plan agree (the exhaustive search may improve on the greedy
// plan) and the largest plan is not made twice.
std::vector<ModeOutcome> compare_modes(const Scenario& scenario, const Plan& chosen, const PlanOptions& options);

}  // namespace gpupack
