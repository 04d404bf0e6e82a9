#pragma once
// From the node config to the MPS daemons the node needs: one per GPU or MIG instance in mode mps, each
// with its own pipe and log directories, CUDA_VISIBLE_DEVICES set to that UUID, and the configured
// per-client limits as the daemon's defaults.
#include <string>
#include <vector>

#include "agent/node_config.hpp"
#include "contract/client_limits.hpp"
#include "mps/mps_supervisor.hpp"

namespace gpupack {

struct MpsTarget {
  std::string gpu_uuid;
  std::string target_uuid;  // GPU UUID, or MIG UUID for an instance
  MpsSupervisorOptions options;
};

// `devices` resolves GPU indices to UUIDs (check_against_devices must have passed). `server_uid` is
// the uid MPS servers run as when the config sets none (the caller's).
std::vector<MpsTarget> mps_targets(const NodeConfig& config, const std::vector<GpuDeviceInfo>& devices, unsigned server_uid);

// The sharing target a config entry describes, resolved against the devices.
struct ResolvedTarget {
  const GpuDeviceInfo* device = nullptr;
  const MigInstanceInfo* mig = nullptr;  // null for a whole GPU
  const SharingTarget* config = nullptr;
  const GpuConfig* gpu_config = nullptr;  // the GPU entry the target is (or is an instance of)
  std::string uuid() const { return mig ? mig->uuid : device->uuid; }
};
std::vector<ResolvedTarget> resolve_targets(const NodeConfig& config, const std::vector<GpuDeviceInfo>& devices);

}  // namespace gpupack
