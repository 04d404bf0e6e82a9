#pragma once
// Attaches workload profiles to a scenario's workloads before planning: `profile:` in an entry (relative
// to the scenario file) or `gpupack plan --profiles DIR` (DIR/<workload name>.json). The profile fills
// memory and compute where the entry left them out (docs/workloads.md), and p99_alone_ms where the entry
// has an SLO but no p99 alone. A missing or malformed profile is an InputError naming the file.
#include <string>

#include "core/gpu_catalog.hpp"
#include "core/scenario.hpp"
#include "model/model_parameters.hpp"
#include "os/filesystem.hpp"

namespace gpupack {

// Profile files are read through `fs` (the Env's files). `parameters` give the defaults a profile brings
// (the compute it is packed at, the SLO margin of a profiled workload).
void attach_profiles(const Filesystem& fs, Scenario& scenario, const std::string& scenario_file,
                     const std::string& profiles_dir, const GpuCatalog& catalog,
                     const ModelParameters& parameters = ModelParameters{});

}  // namespace gpupack
