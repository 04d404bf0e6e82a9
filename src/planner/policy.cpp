#include "planner/policy.hpp"

namespace gpupack {

ModePolicy policy_for(std::optional<GpuMode> forced) {
  ModePolicy p;
  p.forced = forced;
  if (!forced) return p;
  const GpuMode m = *forced;
  const bool mig = m == GpuMode::mig || m == GpuMode::mig_mps || m == GpuMode::mig_time_slicing;
  p.mig = mig;
  p.whole_gpu = !mig;
  p.mps = m == GpuMode::mps || m == GpuMode::mig_mps;
  p.time_slicing = m == GpuMode::time_slicing || m == GpuMode::mig_time_slicing;
  p.streams = false;  // a forced mode shows that mode alone
  return p;
}

}  // namespace gpupack
