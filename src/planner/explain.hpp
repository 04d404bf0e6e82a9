#pragma once
// Explanations (gpupack plan --explain): why a GPU runs in its mode, and for each other mode what would
// break if its replicas ran that way, with the performance model's numbers.
#include "core/plan.hpp"
#include "planner/plan_context.hpp"

namespace gpupack {

// Fills gpu.why and gpu.rejected.
void explain_gpu(const PlanContext& ctx, PlanGpu& gpu);

}  // namespace gpupack
