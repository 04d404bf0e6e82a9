#pragma once
// The model's one interface (model/prediction.hpp) asked about clients written as the profile model's
// inputs, and its outcomes as the plan records them: what the tests of the profile model read.
#include <vector>

#include "model/prediction.hpp"
#include "model/profile_prediction.hpp"

namespace gpupack::test {

inline std::vector<ClientPrediction> predict_clients(Sharing sharing, SliceCapacity capacity,
                                                     const std::vector<PredictionInput>& in,
                                                     const ModelParameters& m = {}) {
  std::vector<ModelClient> clients;
  for (const PredictionInput& c : in) clients.push_back({c.workload, c.replicas, c.compute, c.cap_pct});
  const SliceOutcome outcome = predict({sharing, capacity}, clients, m);
  std::vector<ClientPrediction> out;
  for (size_t i = 0; i < in.size(); ++i) out.push_back(plan_prediction(outcome.clients[i], *in[i].workload, sharing, m));
  return out;
}

}  // namespace gpupack::test
