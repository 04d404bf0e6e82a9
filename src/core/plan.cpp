#include "core/plan.hpp"

namespace gpupack {

GpuMode gpu_mode_of(bool uses_mig, const std::vector<PlanSlice>& slices) {
  Sharing inside = Sharing::exclusive;
  for (const PlanSlice& s : slices) {
    if (s.sharing == Sharing::mps || (s.sharing == Sharing::time_slicing && inside != Sharing::mps)) inside = s.sharing;
  }
  return gpu_mode(uses_mig, inside);
}

}  // namespace gpupack
