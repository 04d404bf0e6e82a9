#pragma once
// The sharing vocabulary of the deployment contract: how the clients of one slice (a whole GPU or a MIG
// instance) share it, and how one GPU is run. The types and their one text form (to_string, parse_sharing,
// parse_gpu_mode) live in core/sharing.hpp, because the pure planner (below this module) produces them;
// the plan JSON, node.yaml, render, the agent and k8s include this header, which adds the node side's rules.
#include "core/sharing.hpp"

namespace gpupack {

// Sharing the node side can enforce (node.yaml, the device plugin): streams is one process on an
// otherwise exclusive slice, so it runs as exclusive there.
inline Sharing node_sharing(Sharing s) { return s == Sharing::streams ? Sharing::exclusive : s; }

// Whether a GPU mode runs MIG instances (mig, mig+mps, mig+time-slicing).
inline bool is_mig(GpuMode m) { return m.uses_mig; }

// Cast AI's sharing strategy for a node whose shared GPUs use MPS or not (MPS wins where both are used, as
// Cast AI's node template does): the value of its node template's sharing_strategy and of the
// scheduling.cast.ai/gpu-sharing-strategy label, which the rendered node template and the agent's labels
// must agree on. Cast AI's vocabulary, spelled like gpupack's but not made from to_string(Sharing).
inline std::string_view cast_ai_sharing_strategy(bool any_mps) { return any_mps ? "mps" : "time-slicing"; }

}  // namespace gpupack
