#pragma once
// JSON views of catalog and MIG values. Field names are stable and documented in docs/json.md.
#include <nlohmann/json.hpp>

#include "core/gpu_model.hpp"
#include "core/mig_capacity.hpp"
#include "core/mig_enumerate.hpp"

namespace gpupack {

// Ordered so that fields print in the documented order.
using Json = nlohmann::ordered_json;

Json to_json(const MigProfile& profile);
Json to_json(const GpuModel& model);
Json instances_json(const MigGeometry& geometry, const std::vector<MigPlacedInstance>& instances);
Json profile_counts_json(const MigGeometry& geometry, const MigCounts& counts);

}  // namespace gpupack
