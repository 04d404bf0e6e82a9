#pragma once
// What the packers share: the scenario's demands, the GPUs of the fleet one by one, the policy and the
// model constants; and the step that turns filled slices into a Plan.
#include <optional>
#include <string>
#include <vector>

#include "core/mig_enumerate.hpp"
#include "core/plan.hpp"
#include "core/scenario.hpp"
#include "model/model_parameters.hpp"
#include "planner/demand.hpp"
#include "planner/policy.hpp"
#include "planner/slice_state.hpp"

namespace gpupack {

// The MIG layouts the planner may give a GPU of fleet entry `f` (its `mig:`, docs/workloads.md): maximal
// layouts without variant profiles where MIG is allowed, the configured layout alone where it is fixed,
// none where it is off or the policy forbids MIG.
std::vector<MigLayout> fleet_mig_layouts(const FleetEntry& f, const ModePolicy& policy);
// Whether a GPU of `f` may be one whole slice: not when its MIG layout is fixed.
bool whole_gpu_allowed(const FleetEntry& f, const ModePolicy& policy);

struct FleetGpu {
  int entry = 0;  // index into Scenario::fleet
  int index = 0;  // position in the fleet as written (the number of its id): the plan lists GPUs so
  std::string id;
  long index_in_entry = 0;  // its number among its entry's GPUs: its node is node_name(entry, index_in_entry)
};

class PlanContext {
 public:
  // The order in which packers take the fleet's GPUs: largest first (fewest GPUs), or cheapest first (a
  // fixed fleet with prices, issue 32: the plan that costs least), largest first within one price.
  enum class GpuOrder { largest_first, cheapest_first };
  PlanContext(const Scenario& scenario, ModePolicy policy, ModelParameters parameters,
              GpuOrder order = GpuOrder::largest_first);

  const Scenario& scenario() const { return *scenario_; }
  // The node GPU `gpu` is on (core/scenario.hpp node_name).
  std::string node_of(int gpu) const {
    const FleetGpu& g = gpus_[static_cast<size_t>(gpu)];
    return node_name(scenario_->fleet[static_cast<size_t>(g.entry)], g.index_in_entry);
  }
  const Demands& demands() const { return demands_; }
  const ModePolicy& policy() const { return policy_; }
  const ModelParameters& parameters() const { return parameters_; }
  GpuOrder order() const { return order_; }
  // The fleet's GPUs in the context's order (largest: memory, then SMs); an elastic fleet has one per replica.
  const std::vector<FleetGpu>& gpus() const { return gpus_; }
  const GpuModel& model(int gpu) const;
  SliceSpec whole(int gpu) const;
  SliceSpec instance(int gpu, int profile) const;
  // Maximal MIG layouts without variant profiles of the GPU's model (empty without MIG or when the policy
  // forbids MIG): a plan leaves unused instances out, so maximal layouts cover every smaller one.
  const std::vector<MigLayout>& layouts(int gpu) const;
  // Per GPU, what the policy and its fleet entry's `mig:` allow.
  bool whole_allowed(int gpu) const;
  bool mig_allowed(int gpu) const { return !layouts(gpu).empty(); }
  const FleetEntry& entry(int gpu) const;
  // The one tenant (Demands::tenants) the GPU's node serves under the NVIDIA plugin's sharing; -1: any.
  int node_tenant(int gpu) const;
  // Memory (with one context) and compute of one replica, as fractions of a whole GPU `gpu`.
  double dominant_share(const WorkloadDemand& d, int gpu) const;

 private:
  const Scenario* scenario_;
  Demands demands_;
  ModePolicy policy_;
  ModelParameters parameters_;
  GpuOrder order_;
  std::vector<FleetGpu> gpus_;
  std::vector<std::vector<MigLayout>> layouts_by_entry_;
};

// One GPU as the packer filled it.
struct GpuBuild {
  int gpu = 0;  // index into PlanContext::gpus()
  bool mig = false;
  std::vector<SliceState> slices;
};

// MIG counts of a build's slices.
MigCounts build_counts(const PlanContext& ctx, const GpuBuild& build);

// The plan of filled GPUs (empty slices dropped, unused GPUs left out) and the replicas left over;
// `lower_bound` is lower_bound_gpus(ctx), which the caller has already computed.
// "One pod, one GPU" priced: each replica alone on a GPU of the cheapest fleet type that holds it (issue
// 32: not every replica at the first type's rate); none when some fleet type has no price.
std::optional<double> one_per_gpu_cost(const PlanContext& ctx);

Plan assemble_plan(const PlanContext& ctx, std::vector<GpuBuild> builds, std::vector<Unplaced> unplaced,
                   int lower_bound);

}  // namespace gpupack
