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

ProfiledSliceJudgement judge_profiled_slice(SliceCapacity slice, const std::vector<PredictionInput>& clients,
                                            const ModelParameters& m) {
  // Throughput of the slice only matters to the model for time-slicing and streams, not for MPS.
  const std::vector<ClientPrediction> preds = predict_slice(Sharing::mps, slice, 1.0, clients, m);
  ProfiledSliceJudgement out;
  out.inflation.reserve(clients.size());
  for (size_t i = 0; i < clients.size(); ++i) {
    const double alone = p99_alone_ms(*clients[i].workload, m);
    out.inflation.push_back(preds[i].p99_ms && alone > 0 ? *preds[i].p99_ms / alone
                                                         : clients[i].synthetic_inflation);
    out.host_cores += preds[i].host_cores.value_or(0) * clients[i].replicas;
  }
  return out;
}

bool may_oversubscribe(const std::vector<const Workload*>& clients) {
  return !clients.empty() && std::all_of(clients.begin(), clients.end(), [](const Workload* w) {
    return w && judged_by_profile(*w);
  }) && std::any_of(clients.begin(), clients.end(), [](const Workload* w) {
    return w->latency_slo_ms.has_value();
  });
}

}  // namespace gpupack
