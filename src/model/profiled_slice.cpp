#include "model/profiled_slice.hpp"

#include <algorithm>

namespace gpupack {

bool judged_by_profile(const Workload& w) {
  return w.profile && w.profile->sm_active && *w.profile->sm_active > 0 && !w.group;
}

double p99_alone_ms(const Workload& w, const ModelParameters& m) {
  if (w.p99_alone_ms) return *w.p99_alone_ms;
  if (w.profile && w.profile->p99_ms) return *w.profile->p99_ms;
  return default_p99_alone_ms(w.latency_slo_ms.value_or(0), m);
}

bool may_oversubscribe(const std::vector<const Workload*>& clients) {
  return !clients.empty() && std::all_of(clients.begin(), clients.end(), [](const Workload* w) {
    return w && judged_by_profile(*w);
  }) && std::any_of(clients.begin(), clients.end(), [](const Workload* w) {
    return w->latency_slo_ms.has_value();
  });
}

}  // namespace gpupack
