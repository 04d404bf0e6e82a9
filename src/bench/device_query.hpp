#pragma once
// What the device is: CUDA's view from the info worker, plus what only the driver's tools know (driver
// version, MIG mode, MIG instances) from nvidia-smi. Read-only: bench never changes the card's settings.
#include <nlohmann/json.hpp>

#include <string>

#include "bench/results.hpp"

namespace gpupack::bench {

// Fills the CUDA fields from the info worker's JSON.
DeviceInfo device_from_worker(const nlohmann::json& info);

// `nvidia-smi -L`: which physical GPU the device CUDA sees is. CUDA reports a MIG instance's UUID with
// the same hex digits nvidia-smi shows after "MIG-" (the runtime formats it as "GPU-..."), so the match
// is on the digits: for a MIG instance, uuid becomes its "MIG-..." name and gpu_uuid its parent's.
void resolve_gpu(DeviceInfo& device, const std::string& listing);
// `nvidia-smi --query-gpu=uuid,driver_version,mig.mode.current,compute_mode --format=csv,noheader`:
// fills driver_version and mig_mode for the line of the device's physical GPU ("[N/A]" -> "").
void apply_smi_query(DeviceInfo& device, const std::string& csv);
// `nvidia-smi -L`: the MIG UUIDs listed under the device's GPU line.
std::vector<std::string> parse_mig_uuids(const std::string& listing, const std::string& gpu_uuid);

// Runs nvidia-smi (when present) and applies both; returns a note when it could not.
std::string query_driver_tools(DeviceInfo& device);

}  // namespace gpupack::bench
