#pragma once
// The sharing vocabulary of the deployment contract: how the clients of one slice (a whole GPU or a MIG
// instance) share it, and how one GPU is run. The enums themselves live in core/plan.hpp, because the
// pure planner (below this module) produces them; this header is what the plan JSON, node.yaml, render,
// the agent and k8s use to write and read them, so one text form ("time-slicing", "mig+mps") exists.
#include <optional>
#include <string_view>

#include "core/plan.hpp"

namespace gpupack {

// "exclusive" | "time-slicing" | "mps" | "streams"; none for anything else.
std::optional<Sharing> parse_sharing(std::string_view text);
// "exclusive" | "time-slicing" | "mps" | "mig" | "mig+mps" | "mig+time-slicing"; none for anything else.
std::optional<GpuMode> parse_gpu_mode(std::string_view text);

// The accepted spellings, for error messages ("one of exclusive, time-slicing, mps, streams").
inline constexpr std::string_view kSharingNames = "exclusive, time-slicing, mps, streams";
inline constexpr std::string_view kGpuModeNames = "exclusive, time-slicing, mps, mig, mig+mps, mig+time-slicing";

// Sharing the node side can enforce (node.yaml, the device plugin): streams is one process on an
// otherwise exclusive slice, so it runs as exclusive there.
inline Sharing node_sharing(Sharing s) { return s == Sharing::streams ? Sharing::exclusive : s; }

// Whether a GPU mode runs MIG instances (mig, mig+mps, mig+time-slicing).
inline bool is_mig(GpuMode m) { return m == GpuMode::mig || m == GpuMode::mig_mps || m == GpuMode::mig_time_slicing; }

// Whether the slice's clients are separate processes that take turns or run together on it.
inline bool is_shared_by_processes(Sharing s) { return s == Sharing::mps || s == Sharing::time_slicing; }

}  // namespace gpupack
