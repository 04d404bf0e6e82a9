#pragma once
// Phase 1 of the greedy packer (greedy_packer.hpp): one tenant's replicas on whole GPUs of its own.
// Two ways are tried and the cheaper kept (GPUs plus what is left over for phase 2):
// - one GPU after the other, each filled before the next is opened (few GPUs when the tenant's replicas
//   pack well, but the last GPUs get what is left, often all memory-heavy or all compute-heavy);
// - k GPUs at once (k = the sequential count, and one less), each replica going to the GPU where it fits
//   best, so every GPU gets a balanced mix and the tenant often needs no GPU in phase 2.
// Either way a replica goes where its (memory, compute, MPS client slot) vector best matches what the GPU
// has left, weighted by how scarce each resource is for the tenant (the dot-product heuristic for vector
// bin packing). A sequential GPU filled less than kDissolveBelow is handed back for phase 2 when MIG could
// share it with other tenants.
#include <vector>

#include "planner/plan_context.hpp"

namespace gpupack {

// A whole GPU filled less than this (the larger of its memory and compute shares) after the sequential
// fill is handed back, its replicas packed with other tenants' remainders into MIG instances instead.
constexpr double kDissolveBelow = 0.7;

// One tenant's replicas still to place: per workload (largest first) its demand and the replica numbers
// left, taken from the back.
struct TenantReplicas {
  std::vector<const WorkloadDemand*> demands;
  std::vector<std::vector<int>> pending;
};

// Whole GPUs filled for one tenant, and its replicas left for phase 2 (same order as TenantReplicas).
struct WholeGpuFill {
  std::vector<int> gpus;
  std::vector<SliceState> bins;
  std::vector<std::vector<int>> pending;
};

// `free`: the GPUs not used yet, in the order to open them (not empty).
WholeGpuFill fill_whole_gpus(const PlanContext& ctx, const TenantReplicas& tenant, const std::vector<int>& free);

}  // namespace gpupack
