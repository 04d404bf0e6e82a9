#pragma once
// Why a replica found no place: too large for any slice, its SLO out of reach, no MIG GPU for a MIG-only
// mode, or simply no GPU left. A result for the user, not an error.
#include <vector>

#include "planner/plan_context.hpp"

namespace gpupack {

Unplaced explain_unplaced(const PlanContext& ctx, const std::vector<GpuBuild>& builds, const ReplicaRef& replica);

}  // namespace gpupack
