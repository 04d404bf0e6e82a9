#pragma once
// Verifies every rule of a plan against its scenario, independently of the packer: each replica placed
// once or listed as unplaced; per slice memory, compute, trust, isolation, MPS client limits and caps, MIG
// layouts valid by the MIG engine, MIG only on capable GPUs, predicted p99 within every SLO. Used by the
// test suite on every plan it produces. An empty result means the plan is valid.
#include <string>
#include <vector>

#include "core/plan.hpp"
#include "core/scenario.hpp"
#include "model/model_parameters.hpp"

namespace gpupack {

std::vector<std::string> check_plan(const Scenario& scenario, const Plan& plan, const ModelParameters& parameters);

}  // namespace gpupack
