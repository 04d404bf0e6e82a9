#include "planner/consumer_rules.hpp"

#include <algorithm>

#include "core/units.hpp"

namespace gpupack {

namespace {

constexpr double kPercentEpsilon = 1e-6;

}  // namespace

ConsumerRules consumer_rules(const FleetEntry& entry, int mig_profile) {
  ConsumerRules r;
  r.consumer = entry.deploy_with;
  r.plugin = entry.plugin_sharing;
  r.mig_instance = mig_profile >= 0;
  r.plugin_mps_max = nvidia_plugin_mps_max_replicas(entry.model);
  return r;
}

std::string consumer_config_text(const FleetEntry& entry) {
  if (entry.deploy_with == Consumer::dra)
    return "NVIDIA's DRA driver: one MPS limit for every client of a claim";
  if (entry.deploy_with != Consumer::nvidia_device_plugin || !entry.plugin_sharing) return "";
  const PluginSharing& p = *entry.plugin_sharing;
  std::string text = "NVIDIA's device plugin config of the pool: ";
  if (p.sharing == Sharing::mps) {
    text += "MPS, at most " + std::to_string(p.replicas) + " replicas per GPU, equal shares";
  } else {
    text += std::string(p.sharing == Sharing::time_slicing ? to_string(p.sharing) : "unshared") +
            (p.mig ? " MIG instances" : " whole GPUs");
  }
  return text;
}

std::string consumer_cannot(const FleetEntry& entry, GpuMode mode) {
  if (entry.deploy_with != Consumer::nvidia_device_plugin) return "";
  if (mode == GpuMode::mig_mps) return "NVIDIA's device plugin runs no MPS inside MIG; ";
  if (!entry.plugin_sharing) return "";
  const PluginSharing& p = *entry.plugin_sharing;
  // A shared mode needs the pool's sharing; any mode needs its MIG or whole GPUs.
  const bool differs = mode.uses_mig != p.mig || (mode.sharing != Sharing::exclusive && mode.sharing != p.sharing);
  return differs ? "not the pool's NVIDIA device plugin config; " : "";
}

bool consumer_allows(const ConsumerRules& rules, Sharing sharing) {
  if (rules.consumer != Consumer::nvidia_device_plugin || sharing == Sharing::exclusive) return true;
  if (!rules.plugin) return false;  // no config: the plugin serves each GPU to one pod
  // Unshared: one pod per device; a streams process is one pod.
  if (rules.plugin->sharing == Sharing::exclusive) return sharing == Sharing::streams;
  switch (sharing) {
    case Sharing::time_slicing:
      return rules.plugin->sharing == Sharing::time_slicing;
    case Sharing::mps:
      return plugin_mps_replicas(rules) > 0;
    // A streams process is one pod on one replica: beside MPS replicas it would get their share only.
    case Sharing::streams:
      return rules.plugin->sharing == Sharing::time_slicing;
    case Sharing::exclusive:
      return true;
  }
  return false;
}

int plugin_mps_replicas(const ConsumerRules& rules) {
  if (rules.consumer != Consumer::nvidia_device_plugin || !rules.plugin || rules.mig_instance) return 0;
  if (rules.plugin->sharing != Sharing::mps || rules.plugin->replicas < 2) return 0;
  return std::min(rules.plugin->replicas, rules.plugin_mps_max);
}

bool consumer_refuses_own_slice(const ConsumerRules& rules) {
  return rules.consumer == Consumer::nvidia_device_plugin && rules.plugin &&
         rules.plugin->sharing != Sharing::exclusive;
}

bool consumer_fixes_time_slicing(const ConsumerRules& rules) {
  return rules.consumer == Consumer::nvidia_device_plugin && rules.plugin &&
         rules.plugin->sharing == Sharing::time_slicing;
}

int plugin_thread_percentage(int replicas) {
  return 100 / std::max(1, replicas);
}

std::uint64_t plugin_memory_limit(std::uint64_t slice_memory, int replicas) {
  return slice_memory / static_cast<std::uint64_t>(std::max(1, replicas)) / kMiB * kMiB;
}

bool fits_consumer_mps(const ConsumerRules& rules, std::uint64_t slice_memory,
                       const std::vector<ClientNeed>& needs) {
  if (rules.consumer == Consumer::nvidia_device_plugin) {
    const int replicas = plugin_mps_replicas(rules);
    if (replicas == 0 || static_cast<int>(needs.size()) > replicas) return false;
    const std::uint64_t memory = plugin_memory_limit(slice_memory, replicas);
    const double percent = plugin_thread_percentage(replicas);
    return std::all_of(needs.begin(), needs.end(), [&](const ClientNeed& n) {
      return n.memory_bytes <= memory && n.percent <= percent + kPercentEpsilon;
    });
  }
  if (rules.consumer == Consumer::dra) {
    std::uint64_t largest = 0;
    for (const auto& n : needs) largest = std::max(largest, (n.memory_bytes + kMiB - 1) / kMiB * kMiB);
    return largest * needs.size() <= slice_memory;
  }
  return true;
}

void consumer_mps_caps(const ConsumerRules& rules, std::vector<int>& caps) {
  if (caps.empty()) return;
  if (const int replicas = plugin_mps_replicas(rules); replicas > 0) {
    std::fill(caps.begin(), caps.end(), plugin_thread_percentage(replicas));
  } else if (rules.consumer == Consumer::dra) {
    std::fill(caps.begin(), caps.end(), *std::max_element(caps.begin(), caps.end()));
  }
}

void consumer_memory_limits(const ConsumerRules& rules, std::uint64_t slice_memory,
                            std::vector<std::uint64_t>& limits) {
  if (limits.empty()) return;
  if (const int replicas = plugin_mps_replicas(rules); replicas > 0) {
    std::fill(limits.begin(), limits.end(), plugin_memory_limit(slice_memory, replicas));
  } else if (rules.consumer == Consumer::dra) {
    // The driver's limit is whole MiB (defaultPinnedDeviceMemoryLimit): the largest client's, rounded up.
    const std::uint64_t largest = *std::max_element(limits.begin(), limits.end());
    std::fill(limits.begin(), limits.end(), (largest + kMiB - 1) / kMiB * kMiB);
  }
}

}  // namespace gpupack
