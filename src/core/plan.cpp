#include "core/plan.hpp"

namespace gpupack {

std::string_view to_string(Sharing sharing) {
  switch (sharing) {
    case Sharing::exclusive: return "exclusive";
    case Sharing::time_slicing: return "time-slicing";
    case Sharing::mps: return "mps";
    case Sharing::streams: return "streams";
  }
  return "exclusive";
}

std::string_view to_string(GpuMode mode) {
  switch (mode) {
    case GpuMode::exclusive: return "exclusive";
    case GpuMode::time_slicing: return "time-slicing";
    case GpuMode::mps: return "mps";
    case GpuMode::mig: return "mig";
    case GpuMode::mig_mps: return "mig+mps";
    case GpuMode::mig_time_slicing: return "mig+time-slicing";
  }
  return "exclusive";
}

}  // namespace gpupack
