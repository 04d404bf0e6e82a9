#pragma once
// The host cores of a node bound what its profiled replicas use, summed over every GPU and MIG instance of
// the node (issue 37: two MIG instances each given "their share" of 16 cores held 30 decode loops of about
// one core each; the cores do not grow with the number of instances). Each replica counts its profile's host
// cores at its predicted request rate (model/prediction.hpp, `host_cores`); a slice that the
// profile model did not judge counts its replicas' cores alone. The packers bound each slice by its GPU's
// even share of the node's cores; this pass then takes replicas off the node until the sum fits, the ones
// using most cores first, so that no plan puts more CPU demand on a node than its cores.
#include <map>
#include <string>
#include <vector>

#include "planner/plan_context.hpp"

namespace gpupack {

// The host cores a filled slice's replicas use: at their predicted req/s where the profile model judged the
// slice, else their cores alone.
double slice_host_cores(const PlanContext& ctx, const SliceState& slice);

// A replica taken off a node whose cores its slices' replicas exceeded.
struct CoreBoundReplica {
  ReplicaRef replica;
  std::string node;
  // Taken off because a slice of the node broke an SLO with the node's `processes` client processes (the
  // wait for its cores), not because their cores at the replicas' rates exceeded them.
  bool slo = false;
  int processes = 0;
};

// Takes replicas off `builds` (empty slices and GPUs stay, assemble_plan drops them) until every node with
// stated cpu_cores holds no more host-core demand than its cores and every slice of it keeps its SLOs with
// the node's client processes counted (each slice is then judged with them: SliceState::set_node); returns
// them. Only builds from `first_trimmed` on give up replicas (the greedy packer trims the GPU it just
// filled, the ones before stay as committed).
std::vector<CoreBoundReplica> fit_node_cores(const PlanContext& ctx, std::vector<GpuBuild>& builds,
                                             size_t first_trimmed = 0);

// A node the replica found full: its used GPUs' replicas leave less than the replica's cores alone of its
// cpu_cores; "" when none (the GPUs, not the cores, ran out).
std::string node_without_cores_for(const PlanContext& ctx, const std::vector<GpuBuild>& builds,
                                   const ReplicaRef& replica);

// The GPUs of a node in the fleet (each given its even share of the node's cores by the packers).
int gpus_of_node(const PlanContext& ctx, const std::string& node);

// Why such a replica is unplaced, naming the node's cores as the bound: "bound by 16 host cores of node-0
// (cpu_cores): at most 16 of decode-b1 ...".
Unplaced node_cores_unplaced(const PlanContext& ctx, const std::vector<GpuBuild>& builds,
                             const CoreBoundReplica& r);

// How one replica of `w` counts host cores, for the reasons above: "measured: ..." where its profile's MPS
// grid found the knee of the host's cores (model/host_cpu_grid.hpp), else its profile's cores alone
// (`alone`) at its predicted rate.
std::string replica_cores_text(const Workload& w, double alone);

}  // namespace gpupack
