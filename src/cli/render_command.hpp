#pragma once
// `gpupack render`, also used by `gpupack plan --render DIR`.
#include <iosfwd>
#include <string>
#include <vector>

#include "contract/plan_document.hpp"

namespace gpupack {

struct CommandContext;

// Renders the plan, checked (check_plan_document), for the comma-separated targets into `dir`,
// atomically through the context's Env, and prints what was written to `out` (ctx.out, or stderr when
// stdout carries a JSON or YAML plan). Throws InputError for bad targets or directories
// (render/tree_writer.hpp: never one that holds an input, the current directory, or, with `force`, one no
// render wrote). `inputs`: the files the command read.
int render_plan_to_dir(const CommandContext& ctx, const PlanDocument& plan, const std::string& targets,
                       const std::string& dir, bool force, std::ostream& out, const std::vector<std::string>& inputs);

}  // namespace gpupack
