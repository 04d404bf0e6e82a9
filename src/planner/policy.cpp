#include "planner/policy.hpp"

namespace gpupack {

ModePolicy policy_for(std::optional<GpuMode> forced) {
  ModePolicy p;
  p.forced = forced;
  if (!forced) return p;
  p.mig = forced->uses_mig;
  p.whole_gpu = !forced->uses_mig;
  p.mps = forced->sharing == Sharing::mps;
  p.time_slicing = forced->sharing == Sharing::time_slicing;
  p.streams = false;  // a forced mode shows that mode alone
  return p;
}

}  // namespace gpupack
