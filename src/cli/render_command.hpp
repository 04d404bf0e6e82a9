#pragma once
// `gpupack render`, also used by `gpupack plan --render DIR`.
#include <iosfwd>
#include <string>

#include "cli/json_views.hpp"

namespace gpupack {

// Renders the plan (its JSON view, docs/plan-schema.md) for the comma-separated targets into `dir`,
// atomically, and prints what was written. Throws InputError for bad plans, targets or directories.
int render_plan_json_to_dir(std::ostream& out, const nlohmann::json& plan, const std::string& targets,
                            const std::string& dir, bool force);

}  // namespace gpupack
