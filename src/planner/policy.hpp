#pragma once
// Which GPU modes and sharings a plan may use: all of them (auto), or one mode forced for the comparison
// of modes (`gpupack plan` shows what each mode alone would do).
#include <optional>

#include "core/plan.hpp"

namespace gpupack {

struct ModePolicy {
  std::optional<GpuMode> forced;  // none: choose per GPU
  bool whole_gpu = true;  // a whole GPU as one slice
  bool mig = true;        // MIG instances as slices
  bool mps = true;        // MPS among the clients of a slice
  bool time_slicing = true;
  bool streams = true;    // replicas of a group merged into one process

  // Whether a slice may hold more than one client (or a group's replicas in one process).
  bool shares_slices() const { return mps || time_slicing || streams; }
};

ModePolicy policy_for(std::optional<GpuMode> forced);

}  // namespace gpupack
