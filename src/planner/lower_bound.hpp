#pragma once
// A lower bound on the GPUs any valid plan needs, the largest of:
// - for memory, compute and replicas that need a slice of their own, the fewest of the fleet's GPUs
//   (largest first) whose summed capacity covers the demand;
// - the trust bound: tenants never share a slice, so each tenant's memory and compute are covered by
//   slices of its own; counted in GPU equivalents (see lower_bound.cpp), it sees that a memory-bound
//   tenant cannot lend its idle compute to a compute-bound one.
namespace gpupack {

class PlanContext;

int lower_bound_gpus(const PlanContext& ctx);

}  // namespace gpupack
