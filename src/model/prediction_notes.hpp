#pragma once
// The notes a plan shows for a prediction ("SM-share curve at 15%", "MPS launch path with 9 clients: x1.52
// slower", ...), made from the outcome's steps (model/client_outcome.hpp) after the arithmetic, never in it.
#include <string>
#include <vector>

#include "core/plan.hpp"
#include "core/workload.hpp"
#include "model/client_outcome.hpp"
#include "model/model_parameters.hpp"

namespace gpupack {

// One phrase per step; a client without a profile: "no profile: predictions from the synthetic model".
// `workload` is the client's (its profile names the GPU it was measured on); `m` the parameters predicted with.
std::vector<std::string> explain_outcome(const ClientOutcome& outcome, const Workload& workload, Sharing sharing,
                                         const ModelParameters& m);

}  // namespace gpupack
