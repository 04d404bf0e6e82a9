#include "model/slice_activity.hpp"

#include <algorithm>
#include <cmath>

namespace gpupack {

std::optional<double> predicted_sm_active(Sharing sharing, SliceCapacity slice, const std::vector<ModelClient>& clients) {
  if (clients.empty()) return std::nullopt;
  int processes = 0;
  for (const ModelClient& c : clients) processes += c.replicas;
  if (sharing == Sharing::time_slicing && processes > 1) return std::nullopt;
  double idle = 1;  // the chance that no client's kernel holds a given SM
  for (const ModelClient& c : clients) {
    const ProfileFacts* p = c.workload && c.workload->profile ? c.workload->profile.get() : nullptr;
    if (!p || !p->sm_active) return std::nullopt;
    const double to_slice = p->gpu_sms > 0 && slice.sms > 0 ? static_cast<double>(p->gpu_sms) / slice.sms : 1.0;
    // Under MPS its active-thread percentage bounds the SMs it may use (the GEMM capped at 30% kept 0.3 of them).
    const double cap = sharing == Sharing::mps && c.cap_pct ? *c.cap_pct / 100.0 : 1.0;
    const double a = std::clamp(std::min(cap, *p->sm_active * to_slice), 0.0, 1.0);
    idle *= std::pow(1 - a, c.replicas);
  }
  return 1 - idle;
}

}  // namespace gpupack
