#pragma once
// A lower bound on the GPUs any valid plan needs: for memory, compute and replicas that need a slice of
// their own, the fewest of the fleet's GPUs (largest first) whose summed capacity covers the demand.
namespace gpupack {

class PlanContext;

int lower_bound_gpus(const PlanContext& ctx);

}  // namespace gpupack
