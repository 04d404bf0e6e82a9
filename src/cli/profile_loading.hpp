#pragma once
// Attaches workload profiles to a scenario's workloads before planning: `profile:` in an entry (relative
// to the scenario file) or `--profiles DIR` (DIR/<workload name>.json). What a profile fills and brings to
// the model is cli/profile_model_inputs.hpp's. A missing or malformed profile is an InputError naming the
// file; an entry without a profile that leaves out memory or compute is one naming the entry.
#include <string>

#include "core/gpu_catalog.hpp"
#include "core/scenario.hpp"
#include "model/model_parameters.hpp"
#include "os/filesystem.hpp"

namespace gpupack {

// Profile files are read through `fs` (the Env's files). `parameters` give the defaults a profile brings
// (the compute it is packed at, the SLO margin of a profiled workload: apply_profile).
void attach_profiles(const Filesystem& fs, Scenario& scenario, const std::string& scenario_file,
                     const std::string& profiles_dir, const GpuCatalog& catalog,
                     const ModelParameters& parameters = ModelParameters{});

}  // namespace gpupack
