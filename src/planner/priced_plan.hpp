#pragma once
// The plan on a fleet of priced `count: auto` GPU types (chooses_gpu_types): the cheapest mix of types that
// keeps every rule and SLO the planner applies.
// 1. Each workload starts on the type where one replica costs least when a GPU is full of it
//    (TypeTable::cheapest; what a GPU holds is counted with the packer's own slice rules).
// 2. The workloads of each type are packed by the ordinary planner (make_plan on that type alone, so every
//    memory, compute, isolation, tenancy and SLO rule is the one single-type plans keep).
// 3. A local improvement pass moves one workload at a time (smallest first) to the type where the whole
//    plan gets cheapest, re-packing the two types it touches; it stops when a round moves nothing or after
//    PlanOptions::type_search_budget replicas packed. It finds what step 1 cannot see: a workload too small
//    to fill a GPU of its cheapest type costs less beside others on a bigger GPU, or alone on a smaller one.
// 4. The result's cost is reported beside TypeTable::cost_lower_bound.
#include "core/plan.hpp"
#include "core/scenario.hpp"
#include "planner/planner.hpp"

namespace gpupack {

Plan make_priced_plan(const Scenario& scenario, const PlanOptions& options);

}  // namespace gpupack
