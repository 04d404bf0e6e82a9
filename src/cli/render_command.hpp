#pragma once
// `gpupack render`, also used by `gpupack plan --render DIR`.
#include <iosfwd>
#include <string>

#include "contract/plan_document.hpp"

namespace gpupack {

// Renders the plan, checked (check_plan_document), for the comma-separated targets into `dir`,
// atomically, and prints what was written. Throws InputError for bad targets or directories.
int render_plan_to_dir(std::ostream& out, const PlanDocument& plan, const std::string& targets, const std::string& dir,
                       bool force);

}  // namespace gpupack
