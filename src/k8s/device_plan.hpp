#pragma once
// What the device plugin advertises, from the node's sharing targets (a GPU or a MIG instance each,
// resolved by the agent from its node config): one resource per name, each with its devices.
//   whole GPU, exclusive      nvidia.com/gpu                      ID <gpu uuid>
//   whole GPU, time-slicing   nvidia.com/gpu                      IDs <gpu uuid>::<n>
//   whole GPU, MPS            gpupack.io/mps-<pct>                IDs <gpu uuid>::<n>
//   MIG instance, exclusive   nvidia.com/mig-<profile>            ID <mig uuid>
//   MIG instance, time-slic.  nvidia.com/mig-<profile>            IDs <mig uuid>::<n>
//   MIG instance, MPS         gpupack.io/mig-<profile>-mps-<pct>  IDs <mig uuid>::<n>
// The names are the ones `gpupack render --target k8s-workloads` puts in pods (docs/render.md). An MPS
// slice of <pct> carries that share of the SMs (CUDA_MPS_ACTIVE_THREAD_PERCENTAGE) and a memory share
// (CUDA_MPS_PINNED_DEVICE_MEM_LIMIT), so pods of different sizes share one GPU.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "contract/sharing.hpp"
#include "contract/node_config.hpp"

namespace gpupack::k8s {

struct ShareTarget {
  std::string gpu_uuid;
  unsigned gpu_index = 0;
  std::string product;                                  // NVML name, for labels
  std::optional<std::string> mig_uuid, mig_profile;     // set for a MIG instance
  std::optional<std::pair<unsigned, unsigned>> mig_ids;  // its GPU and compute instance IDs (CDI device nodes)
  std::optional<std::uint64_t> memory_total_bytes;      // of the GPU or the MIG instance
  Sharing sharing = Sharing::exclusive;
  int clients = 1;
  std::optional<int> sm_percent;                        // per-client default (MPS)
  std::optional<std::uint64_t> memory_bytes;            // per-client default
  std::vector<MpsSliceSize> mps_slices;                 // unequal slices; empty: `clients` equal ones
  std::string mps_pipe_dir;                             // the MPS daemon's pipe directory (MPS only)
  std::optional<std::int64_t> numa_node;
  std::string uuid() const { return mig_uuid ? *mig_uuid : gpu_uuid; }
};

struct PluginDevice {
  std::string id;  // kubelet device ID (<= 63 characters)
  std::string gpu_uuid;
  unsigned gpu_index = 0;
  std::string target_uuid;  // what the container sees: the GPU or the MIG instance
  bool mig = false;
  std::optional<std::pair<unsigned, unsigned>> mig_ids;  // GPU and compute instance IDs of a MIG target
  Sharing sharing = Sharing::exclusive;
  int sm_percent = 100;           // MPS only
  std::uint64_t memory_bytes = 0;  // MPS only; 0 when the target's memory is unknown and none was set
  std::string pipe_dir;           // MPS only
  std::optional<std::int64_t> numa_node;
  bool operator==(const PluginDevice&) const = default;
};

struct PluginResource {
  std::string name;  // e.g. gpupack.io/mps-25
  std::vector<PluginDevice> devices;
  bool operator==(const PluginResource&) const = default;
};

// Throws InputError naming the target when a device ID would exceed kubelet's 63 characters or slices
// outnumber the target's clients. `gpupack_only` drops the nvidia.com/* resources. Sorted by name.
std::vector<PluginResource> plan_resources(const std::vector<ShareTarget>& targets, bool gpupack_only = false);

// "nvidia.com/mig-1g.10gb" -> "nvidia.com-mig-1g.10gb": the plugin's socket name in the plugin directory.
std::string socket_name(const std::string& resource);


}  // namespace gpupack::k8s
