#pragma once
// A workload profile (`gpupack profile`, docs/profile.md) turned into the performance model's inputs, in
// one place: the facts the predictions read (ProfileFacts) and every workload default a profile brings
// (memory, compute, p99 alone, SLO margin, the pods' host cores). Pure: no files, no clock. It lives in cli
// because it is the one layer that sees both the measure layer's profile and the planner's model inputs.
#include <optional>
#include <string>

#include "core/gpu_catalog.hpp"
#include "core/workload.hpp"
#include "measure/workload_profile.hpp"
#include "model/model_parameters.hpp"

namespace gpupack {

// Attaches `profile` (read from `source`, the name explanations give) to `w`: Workload::profile gets its
// facts, with the SM count and bandwidth of the GPU it was measured on from `catalog`; what the entry states
// wins, and the profile fills what it left out: memory (the peak with headroom, as the entry `gpupack
// profile` prints), compute (the share the planner packs), and, where the entry has an SLO, p99 alone
// (measured alone) and the SLO margin (the model's profiled_slo_margin). Throws std::runtime_error for a
// co-location grid it cannot read.
void apply_profile(Workload& w, const measure::WorkloadProfile& profile, const std::string& source,
                   const GpuCatalog& catalog, const ModelParameters& parameters);

// The host cores each pod of `w` requests ($.workloads[].cpu): the scenario's `deploy: {cpu}`, else the
// host CPU its profile measured; none when neither says.
std::optional<double> pod_cpu_cores(const Workload& w);

}  // namespace gpupack
