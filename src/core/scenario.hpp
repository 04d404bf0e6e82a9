#pragma once
// What the planner is asked: a fleet of GPUs and the workloads to place on it.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/consumer.hpp"
#include "core/cuda_version.hpp"
#include "core/gpu_model.hpp"
#include "core/mig_layout.hpp"
#include "core/plan.hpp"
#include "core/workload.hpp"

namespace gpupack {

// A fleet entry's `mig:` (docs/workloads.md): may the planner choose MIG layouts for its GPUs (allowed),
// are they not in MIG mode (off), or are they already configured as one layout, to be used exactly (fixed:
// its operators will not reconfigure them)?
enum class FleetMig { allowed, off, fixed };

// The one sharing config NVIDIA's device plugin applies to every GPU of a pool (its nodes are labelled with
// one named config): none (one pod per device), time-slicing, or MPS with `replicas` per device (each MPS replica gets 100/replicas %
// of the threads and memory/replicas), on whole GPUs or on MIG instances (time-slicing only: the plugin
// refuses MPS on MIG). The planner chooses it (planner/consumer_search.hpp).
struct PluginSharing {
  Sharing sharing = Sharing::time_slicing;  // exclusive (not shared), time_slicing or mps
  bool mig = false;                         // every GPU of the pool in MIG, or none
  int replicas = 0;                         // MPS only: replicas per GPU
  bool operator==(const PluginSharing&) const = default;
};

struct FleetEntry {
  GpuModel model;
  int count = 1;
  std::string node_prefix = "node";
  int gpus_per_node = 8;
  std::optional<double> cost_per_hour;  // per GPU
  // Host CPU cores of each node: profiled replicas' measured host CPU use counts against them, summed over
  // every GPU and MIG instance of the node (planner/node_cores.hpp); the packers first give each GPU its
  // even share.
  std::optional<double> cpu_cores;
  FleetMig mig = FleetMig::allowed;
  MigCounts mig_layout;  // with FleetMig::fixed: instances per profile of the configured layout (it fits)
  // The Kubernetes node names of this pool's nodes, in order (`node_names:`): node i holds GPUs
  // [i * gpus_per_node, (i + 1) * gpus_per_node). Empty: <node_prefix>-<i>.
  std::vector<std::string> node_names;
  // What serves the pool's GPUs to pods (`deploy_with:`, or `plan --deploy-with`): the plan keeps to what it
  // can express (docs/consumers.md).
  Consumer deploy_with = Consumer::gpupack_agent;
  bool deploy_with_given = false;  // the entry names it (`plan --deploy-with` sets the others)
  std::optional<PluginSharing> plugin_sharing;  // with nvidia_device_plugin: the pool's config, once chosen
  // With a shared plugin config: the one tenant each node serves (node name -> tenant), where the planner
  // found tenants sharing a node: the plugin gives any pod of a node any replica of its devices.
  std::map<std::string, std::string> plugin_node_tenants;
};

// The node of a fleet entry's GPU number `gpu_index` (gpus_per_node GPUs a node): its `node_names` entry
// (checked by the scenario reader), else "<node_prefix>-<node number>". Made here only, and checked here:
// a derived name is a DNS label of at most 63 characters, so a long node_prefix is refused (InputError
// naming it) by plan, not later by render (issue 38).
std::string node_name(const FleetEntry& entry, long gpu_index);

struct Scenario {
  std::vector<FleetEntry> fleet;
  // True when the fleet was not given (only a model): the plan uses as many GPUs of it as it needs.
  bool elastic = false;
  std::vector<Workload> workloads;
  CudaVersion cuda = kDefaultCudaVersion;
  // Added to every client's memory limit: CUDA's own context memory (about 0.5 GiB on H200, mps.md).
  std::uint64_t context_overhead_bytes = 512ull * 1024 * 1024;
};

// Host CPU cores per GPU of a fleet entry: its nodes' cpu_cores divided evenly among their GPUs (a node's
// GPUs each drive their own clients); 0 when the fleet does not state cores.
double host_cores_per_gpu(const FleetEntry& entry);
// That division as people check it: "cpu_cores 16 per node / 8 GPUs per node = 2 cores per GPU".
std::string host_cores_arithmetic(const FleetEntry& entry);
// A slice's capacity on a GPU of a fleet entry, its host cores included: a MIG instance may use all of its
// GPU's cores (not its SMs' share: the cores do not grow with the number of instances, issue 37), the
// node's sum is bounded by planner/node_cores.hpp.
SliceCapacity slice_capacity_on(const FleetEntry& entry, int mig_profile = -1);

// Sets `consumer` on the fleet entries that do not name one (`plan --deploy-with`), then refuses pools
// that share a node (node_name) unless one consumer that sets no per-node config serves them: a node runs
// one device plugin, and NVIDIA's plugin applies one sharing config to a whole node.
void assign_consumers(Scenario& scenario, Consumer consumer);

// The reference GPU of `compute` fractions: the fleet's first model.
const GpuModel& reference_model(const Scenario& scenario);

// Total replicas of all workloads.
long total_replicas(const Scenario& scenario);

}  // namespace gpupack
