#pragma once
// The plan for the consumer each pool is deployed with (`--deploy-with`, a fleet entry's `deploy_with:`;
// docs/consumers.md): NVIDIA's device plugin applies one sharing config to every GPU of a node, so the
// planner chooses one per pool (PluginSharing) by planning each candidate, and settles each node's MPS
// replicas; and the comparison of what each consumer places for the same scenario.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/consumer.hpp"
#include "core/scenario.hpp"
#include "planner/plan_context.hpp"
#include "planner/planner.hpp"

namespace gpupack {

// Whether a config suits the mode a plan is forced to (the comparison of modes): MIG modes need a MIG config.
bool plugin_config_suits(const PluginSharing& config, std::optional<GpuMode> forced);
// Whether some pool deployed with NVIDIA's plugin has no config yet, or one that does not suit `forced`.
bool needs_plugin_configs(const Scenario& scenario, std::optional<GpuMode> forced = std::nullopt);
// The scenario with a config for every pool the NVIDIA plugin serves (that suits options.forced): per pool
// in fleet order, the candidate that places most replicas, then for least cost, then on fewest GPUs, the
// other pools' configs kept. Candidates: unshared whole GPUs or MIG instances, time-slicing on either, or
// MPS with each replica count at which some workload's replica still fits the equal share (100/N % and
// memory/N), fewest first.
Scenario with_plugin_configs(const Scenario& scenario, const PlanOptions& options);
// The candidate configs of one pool, in the order they are tried.
std::vector<PluginSharing> plugin_config_candidates(const PlanContext& ctx, int entry);

// The plan of a scenario whose plugin pools have their configs, where no node's shared devices serve two
// tenants: the plugin gives any pod of a node any replica of them, so tenants planned on different GPUs of
// one node could share one. A node found with two is locked to the tenant with most replicas there
// (FleetEntry::plugin_node_tenants) and the scenario planned again, until none is (each round locks a node).
Plan plan_keeping_node_tenants(Scenario scenario, const PlanOptions& options);
// Per node of a shared plugin pool that serves more than one tenant in `plan`: the tenant to keep.
std::map<std::string, std::string> plugin_tenant_conflicts(const Scenario& scenario, const Plan& plan);

// The plugin's replicas are one count per resource of a node: an MPS GPU's clients get the shares of the
// node's most shared GPU (at most the pool's count, so every client still fits).
void settle_plugin_replicas(const PlanContext& ctx, std::vector<GpuBuild>& builds);

// What one consumer does with the scenario ($.consumers[]): every pool deployed with it.
struct ConsumerOutcome {
  Consumer consumer = Consumer::gpupack_agent;
  int gpus_used = 0;
  int placed = 0;
  int unplaced = 0;
  std::optional<int> gpus_needed;  // on as many GPUs of the first model as needed; none if some never fit
  std::optional<double> cost_per_hour;
};
// The rows in kConsumerNames order; `scenario` is the one planned (its consumers are replaced per row).
// `chosen`, when given, is make_plan(scenario): the row of the consumer every pool has is taken from it.
std::vector<ConsumerOutcome> compare_consumers(const Scenario& scenario, const PlanOptions& options,
                                               const Plan* chosen = nullptr);

}  // namespace gpupack
