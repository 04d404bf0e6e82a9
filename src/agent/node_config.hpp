#pragma once
// The node configuration the agent, `gpupack mps` and `gpupack run` read (schema: docs/node-config.md).
// Parsing checks everything that can be checked without the GPUs; check_against_devices then checks the
// GPU and MIG references against what the GPU layer sees.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gpu/gpu_backend.hpp"

namespace gpupack {

enum class SharingMode { exclusive, time_slicing, mps };
const char* to_string(SharingMode mode);

struct ClientLimits {
  std::optional<int> sm_percent;            // CUDA_MPS_ACTIVE_THREAD_PERCENTAGE, 1..100
  std::optional<std::uint64_t> memory_bytes;  // CUDA_MPS_PINNED_DEVICE_MEM_LIMIT
};

// A GPU or a MIG instance with its own sharing settings.
struct SharingTarget {
  std::string ref;  // as written: GPU UUID or index; MIG instance UUID
  SharingMode mode = SharingMode::exclusive;
  int clients = 1;  // concurrent clients admitted
  std::optional<std::string> tenant;  // only this tenant may run here (gpupack run --tenant)
  ClientLimits limits;                // per-client defaults
};

struct GpuConfig : SharingTarget {
  std::vector<SharingTarget> mig;  // per MIG instance (mode, clients, limits)
};

struct NodeConfig {
  std::string mps_root = "/run/gpupack/mps";  // <mps_root>/<target>/{pipe,log}
  std::optional<unsigned> uid;                 // owner of the MPS directories and uid of its servers
  std::string metrics_address = "127.0.0.1:9400";
  std::string control_binary = "nvidia-cuda-mps-control";
  double check_interval_seconds = 5;
  std::vector<GpuConfig> gpus;
};

// Throws InputError with "<source>: <field>: <problem>" for malformed YAML, unknown fields, values out of
// range and duplicate GPUs.
NodeConfig parse_node_config(const std::string& yaml_text, const std::string& source);
NodeConfig load_node_config(const std::string& path);

// Throws InputError when a configured GPU or MIG instance is not on this machine, or a limit exceeds it
// (MPS clients above the catalog's limit, memory above the device's).
void check_against_devices(const NodeConfig& config, const std::vector<GpuDeviceInfo>& devices);

// A MIG instance is named by its UUID or, as `gpupack render` writes it (a plan cannot know UUIDs), by
// its placement "<profile>@<start>", e.g. "3g.40gb@0".
bool mig_matches(const MigInstanceInfo& instance, const std::string& ref);

// The directories of the MPS daemon serving `target` (a GPU or MIG UUID).
struct MpsPaths;
MpsPaths mps_paths_for(const NodeConfig& config, const std::string& target_uuid);

// "host:port" split; throws InputError for a malformed address.
std::pair<std::string, int> split_address(const std::string& address);

}  // namespace gpupack
