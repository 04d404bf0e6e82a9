#pragma once
// `gpupack render`, also used by `gpupack plan --render DIR`.
#include <iosfwd>
#include <string>

#include "contract/plan_document.hpp"

namespace gpupack {

struct CommandContext;

// Renders the plan, checked (check_plan_document), for the comma-separated targets into `dir`,
// atomically through the context's Env, and prints what was written to `out` (ctx.out, or stderr when
// stdout carries a JSON or YAML plan). Throws InputError for bad targets or directories.
int render_plan_to_dir(const CommandContext& ctx, const PlanDocument& plan, const std::string& targets,
                       const std::string& dir, bool force, std::ostream& out);

}  // namespace gpupack
