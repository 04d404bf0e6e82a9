#pragma once
// `gpupack run` admission: which GPU or MIG instance a new client may run on under the node config,
// and the environment that applies its limits. Pure: the caller supplies devices and daemon liveness.
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "agent/mps_targets.hpp"

namespace gpupack {

struct RunRequest {
  std::optional<std::string> gpu;  // GPU UUID or index, or MIG UUID; none: the one with the most headroom
  std::optional<int> sm_percent;
  std::optional<std::uint64_t> memory_bytes;
  std::optional<std::string> tenant;
};

struct Admission {
  bool admitted = false;
  std::string reason;     // why not (one line per target considered), or where it runs
  std::string target_uuid;
  int clients = 0;  // the target's configured clients: its admission slots
  std::map<std::string, std::string> env;  // added to the client's environment
};

// `mps_running(target_uuid)` says whether the target's MPS daemon answers; `clients_held(target_uuid)`
// how many admission slots are held on a target (AdmissionSlots: the book, not NVML's process list, which
// shows a client only once it has a CUDA context). The caller then takes a slot on the chosen target and
// asks again if another client took the last one first.
Admission admit(const NodeConfig& config, const std::vector<GpuDeviceInfo>& devices, const RunRequest& request,
                const std::function<bool(const std::string&)>& mps_running,
                const std::function<int(const ResolvedTarget&)>& clients_held);

}  // namespace gpupack
