#pragma once
// The device plugin's own section of the node config (`device_plugin:`, docs/kubernetes.md): where
// kubelet's sockets and the CDI directory are, the allocation policy, which resources to advertise,
// the node-label options and unequal MPS slice sizes per GPU or MIG instance. Parsed here from the same
// YAML file the agent reads, so the k8s layer owns its schema.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gpupack::k8s {

enum class AllocationPolicy { packed, distributed };
const char* to_string(AllocationPolicy policy);

// One size of MPS slice: `count` slices of `sm_percent` % of the SMs and `memory` bytes (absent: the
// target's memory divided among its slices).
struct MpsSliceSize {
  int sm_percent = 100;
  std::optional<std::uint64_t> memory_bytes;
  int count = 1;
  bool operator==(const MpsSliceSize&) const = default;
};

struct PluginSettings {
  // Off without a device_plugin section, so that `gpupack agent` on a machine without Kubernetes does
  // not look for kubelet; on with one, unless it says enabled: false.
  bool enabled = false;
  std::string plugin_dir = "/var/lib/kubelet/device-plugins";
  std::string pod_resources_socket = "/var/lib/kubelet/pod-resources/kubelet.sock";
  bool cdi = false;  // answer Allocate with CDI device names (and write the spec) instead of env only
  std::string cdi_dir = "/var/run/cdi";
  AllocationPolicy policy = AllocationPolicy::packed;
  // Only gpupack.io/* resources: for nodes where NVIDIA's plugin keeps serving nvidia.com/*.
  bool gpupack_resources_only = false;
  std::string features_file = "/etc/kubernetes/node-feature-discovery/features.d/gpupack";  // "" : none
  bool cast_ai_labels = false;  // scheduling.cast.ai/gpu-shared and gpu-sharing-strategy
  std::map<std::string, std::vector<MpsSliceSize>> mps_slices;  // by GPU or MIG ref, as in gpus[]
  bool operator==(const PluginSettings&) const = default;
};

// Reads `device_plugin:` from the node config text (defaults when absent). Throws InputError
// "<source>: device_plugin.<field>: <problem>".
PluginSettings parse_plugin_settings(const std::string& yaml_text, const std::string& source);
PluginSettings load_plugin_settings(const std::string& path);

}  // namespace gpupack::k8s
