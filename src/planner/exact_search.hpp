#pragma once
// Exhaustive search for small instances: branch and bound over every assignment of replicas to slices
// (an existing slice, a new MIG instance whose layout stays valid, or a new GPU as one slice or as MIG),
// opening new GPUs only while the count stays below the best known.
#include <optional>
#include <vector>

#include "planner/plan_context.hpp"

namespace gpupack {

struct ExactResult {
  std::optional<std::vector<GpuBuild>> builds;  // a plan with fewer GPUs than the bound given, if any
  bool complete = false;                        // the search ended within its budget (the answer is proven)
};

// Places every replica on fewer than `below` GPUs if possible. `node_budget` bounds the work.
ExactResult exact_pack(const PlanContext& ctx, int below, long node_budget);

// Instances small enough for exact_pack to run by default.
inline constexpr int kExactMaxReplicas = 12;

}  // namespace gpupack
