#pragma once
// The names the plan reader had when it lived in render, kept only for cli/verify_command.cpp while
// another change edits that file; everything else uses contract/plan_json.hpp. Remove with that use.
#include "contract/plan_json.hpp"

namespace gpupack {

using RenderPlan = PlanDocument;
inline PlanDocument render_plan_from_json(const nlohmann::json& plan) { return read_plan_json(plan, builtin_catalog()); }

}  // namespace gpupack
