#pragma once
// The packing heuristic that scales (10,000 replicas on 2,000 GPUs in well under a second):
// 1. each tenant's replicas go onto whole GPUs of its own (whole_gpu_fill.hpp: filled one after the other
//    or spread over k at once, whichever is cheaper); a GPU filled less than kDissolveBelow (0.7) is
//    handed back when MIG could share it with other tenants;
// 2. what is left (remainders of tenants, replicas that need a slice of their own) goes GPU by GPU onto
//    whichever configuration holds the most: a whole GPU for one tenant, or a MIG layout (of the maximal
//    ones) whose instances each take one tenant's remainder or one isolated replica.
// Replicas that fit nowhere are returned for the caller to explain.
#include <map>
#include <vector>

#include "planner/node_cores.hpp"
#include "planner/plan_context.hpp"

namespace gpupack {

struct PackResult {
  std::vector<GpuBuild> builds;
  std::vector<ReplicaRef> left;  // replicas not placed
  // Per workload, the last of its replicas a GPU's fill gave back to its node's cores (node_cores.hpp): why
  // replicas left where their GPU had room were left.
  std::map<int, CoreBoundReplica> node_bound;
};

PackResult greedy_pack(const PlanContext& ctx);

}  // namespace gpupack
