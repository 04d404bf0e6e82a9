#pragma once
// What the consumer serving a slice's GPU (core/consumer.hpp) can express, as rules the packer keeps while
// it fills the slice (docs/consumers.md). SliceSpec carries the rules of its GPU's pool; SliceState asks
// these functions, so a plan made for a consumer is one it can deploy as planned:
// - NVIDIA's device plugin: the pool's one sharing config (PluginSharing): none, time-slicing, or MPS on
// whole
//   GPUs only, whose replicas each get 100/replicas % of the threads and memory/replicas, at most 48
//   replicas (16 below compute capability 7.5); no streams process beside its MPS replicas.
// - NVIDIA's DRA driver: one MPS configuration per claim: every client of an MPS slice gets the same
//   thread percentage and the same pinned memory limit.
// - the gpupack agent: per-client limits, no rule here.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/consumer.hpp"
#include "core/plan.hpp"
#include "core/scenario.hpp"

namespace gpupack {

struct ConsumerRules {
  Consumer consumer = Consumer::gpupack_agent;
  std::optional<PluginSharing> plugin;  // nvidia_device_plugin: the pool's config (none: unshared GPUs)
  bool mig_instance = false;            // the slice is a MIG instance
  int plugin_mps_max = 48;              // replicas the plugin's MPS daemon accepts on this GPU
  int only_tenant = -1;                 // the one tenant (Demands::tenants) the node's shared devices serve
};

ConsumerRules consumer_rules(const FleetEntry& entry, int mig_profile);
// What the pool's consumer was configured to do, for the plan's reasons ("" for the agent): "NVIDIA's
// device plugin config of the pool: MPS, 13 replicas per GPU".
std::string consumer_config_text(const FleetEntry& entry);
// Why the consumer cannot run a GPU in `mode`, or "" when it can.
std::string consumer_cannot(const FleetEntry& entry, GpuMode mode);

// Whether the consumer can run a slice's clients with this sharing (exclusive always).
bool consumer_allows(const ConsumerRules& rules, Sharing sharing);
// The plugin's MPS replicas per device, when its clients share it that way (else 0): one client alone is
// an MPS replica too, with the same limits.
int plugin_mps_replicas(const ConsumerRules& rules);
// The NVIDIA plugin shares the pool's devices: it gives any pod of a node any replica of them, so no
// replica there has a device of its own (isolation: own slice needs an unshared pool).
bool consumer_refuses_own_slice(const ConsumerRules& rules);
// Time-slicing configured for the pool: steady work time-slices too (the user chose the mode).
bool consumer_fixes_time_slicing(const ConsumerRules& rules);

// The plugin's equal MPS share of a slice of `slice_memory` bytes among `replicas`: 100/replicas % of the
// threads and memory/replicas, in whole MiB as its daemon sets them.
int plugin_thread_percentage(int replicas);
std::uint64_t plugin_memory_limit(std::uint64_t slice_memory, int replicas);

// One client's needs against an equal share: its memory (context included) and its share of the slice's
// SMs in percent.
struct ClientNeed {
  std::uint64_t memory_bytes = 0;
  double percent = 0;
};
// Whether MPS clients with these needs fit what the consumer gives them: the plugin's equal share each,
// or (DRA) one limit for all, the largest, `needs.size()` times within the slice's memory.
bool fits_consumer_mps(const ConsumerRules& rules, std::uint64_t slice_memory,
                       const std::vector<ClientNeed>& needs);
// The MPS thread caps the consumer sets, from the caps gpupack would give each client: the plugin's
// 100/replicas for all, the DRA driver's one (largest) cap for all, the agent's own per client.
void consumer_mps_caps(const ConsumerRules& rules, std::vector<int>& caps);
// Each MPS client's pinned memory limit as the consumer sets it, from gpupack's per-client limits.
void consumer_memory_limits(const ConsumerRules& rules, std::uint64_t slice_memory,
                            std::vector<std::uint64_t>& limits);

}  // namespace gpupack
