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
  std::map<std::string, std::string> env;  // added to the client's environment
};

// `mps_running(target_uuid)` says whether the target's MPS daemon answers.
Admission admit(const NodeConfig& config, const std::vector<GpuDeviceInfo>& devices, const RunRequest& request,
                const std::function<bool(const std::string&)>& mps_running);

// Clients on a target now: MPS clients under MPS, compute processes otherwise (the MPS server is not
// a client).
int clients_on(const ResolvedTarget& target);

}  // namespace gpupack
