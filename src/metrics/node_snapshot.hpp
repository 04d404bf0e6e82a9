#pragma once
// What the agent knows about its node at one moment, in the shape the exposition needs: devices as the
// GPU layer saw them, the configured sharing per GPU or MIG instance, the MPS supervisors' status and
// per-process details read from /proc.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/gpu_catalog.hpp"
#include "gpu/gpu_backend.hpp"
#include "mps/mps_supervisor.hpp"

namespace gpupack {

// The configured sharing of one GPU or MIG instance.
struct SharingSnapshot {
  std::string gpu_uuid;
  std::string target_uuid;  // == gpu_uuid for a whole GPU, the MIG UUID for an instance
  std::string mode;         // exclusive | time-slicing | mps
  int clients_limit = 1;
  int clients_admitted = 0;  // admission slots held by `gpupack run` clients (agent/admission_slots.hpp)
  std::optional<int> sm_percent;
  std::optional<std::uint64_t> memory_limit_bytes;
  std::string tenant;
  std::optional<double> predicted_sm_active;  // node.yaml's, from the plan (contract/node_config.hpp)
};

struct MpsSnapshot {
  std::string target_uuid;
  std::string pipe_dir;
  MpsStatus status;
};

// Details of a GPU process from /proc: owner, Kubernetes pod (from the cgroup path), the memory limit it
// was given (CUDA_MPS_PINNED_DEVICE_MEM_LIMIT in its environment, else the configured default).
struct ProcessSnapshot {
  std::optional<unsigned> uid;
  std::string pod_uid;
  std::string container_id;
  // From kubelet's PodResources joined with the device IDs in the process's GPUPACK_DEVICE_IDS (set by
  // the agent's device plugin at Allocate): names even under MPS, where NVML shows only the server.
  std::string pod, pod_namespace, container;
  std::optional<std::uint64_t> allocated_bytes;
  // The share of its GPU or MIG instance's SMs it was allotted: CUDA_MPS_ACTIVE_THREAD_PERCENTAGE / 100
  // in its environment, else the configured default; absent when uncapped.
  std::optional<double> allocated_sm_ratio;
};

struct NodeSnapshot {
  std::string version;
  std::string backend;
  std::vector<GpuDeviceInfo> devices;
  std::vector<SharingSnapshot> sharing;
  std::vector<MpsSnapshot> mps;
  std::map<unsigned, ProcessSnapshot> processes;  // by pid
  std::map<std::string, std::uint64_t> xid_errors;  // by GPU UUID, since the agent started
  std::uint64_t reloads = 0, reload_failures = 0;
  double last_refresh_unix_seconds = 0;
};

// What a sharing target (a GPU or MIG instance: a slice) holds over the last interval. Definitions in
// docs/metrics.md ("Waste"): clients are the processes on the target (only the MPS clients where there
// are any; never the MPS server), each allotted its SM cap (uncapped: the whole target) and its memory
// allotment.
struct SliceUsage {
  const SharingSnapshot* sharing = nullptr;
  std::size_t clients = 0;
  double sm_allotted = 0;                   // min(1, sum of the clients' SM shares)
  std::optional<double> sm_active;          // GPM SM activity of the target
  std::optional<double> sm_allotted_unused;  // max(0, sm_allotted - sm_active)
  double memory_allotted_bytes = 0;
  double memory_allotted_unused_bytes = 0;  // sum of max(0, allotted - used) per client
  std::optional<double> memory_allotted_unused_ratio;  // of the target's memory
};
std::vector<SliceUsage> slice_usage(const NodeSnapshot& snapshot);

// The /metrics body (names and labels documented in docs/metrics.md); GPU models named from `catalog`.
std::string render_node_metrics(const NodeSnapshot& snapshot, const GpuCatalog& catalog);

}  // namespace gpupack
