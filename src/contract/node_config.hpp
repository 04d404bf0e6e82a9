#pragma once
// node.yaml: the node configuration the agent, `gpupack mps`, `gpupack run`, `gpupack labels` and the
// device plugin read (schema: docs/node-config.md, device_plugin: docs/kubernetes.md), and that
// `gpupack render --target gpupack-agent` writes. The file is parsed once, here, into one NodeConfig that
// holds the device plugin's section too; the writer beside the parser is tied to it by a round-trip test.
// Parsing checks everything that can be checked without the GPUs; the agent then checks the GPU and MIG
// references against what the GPU layer sees (agent/node_config.hpp).
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "contract/client_limits.hpp"
#include "contract/sharing.hpp"

namespace gpupack {

// A GPU or a MIG instance with its own sharing settings.
struct SharingTarget {
  std::string ref;                    // as written: GPU UUID or index; MIG instance UUID or <profile>@<start>
  Sharing mode = Sharing::exclusive;  // never streams: node.yaml accepts exclusive, time-slicing, mps
  int clients = 1;                    // concurrent clients admitted
  std::optional<std::string> tenant;  // only this tenant may run here (gpupack run --tenant)
  ClientLimits limits;                // per-client defaults
  // The share of its SMs the plan predicted its clients keep busy together (plan JSON's predicted_sm_active,
  // model/slice_activity.hpp): exported beside the measured (gpupack_slice_sm_active_predicted_ratio).
  std::optional<double> predicted_sm_active;
  bool operator==(const SharingTarget&) const = default;
};

struct GpuConfig : SharingTarget {
  std::vector<SharingTarget> mig;  // per MIG instance (mode, clients, limits)
  bool operator==(const GpuConfig&) const = default;
};

enum class AllocationPolicy { packed, distributed };
const char* to_string(AllocationPolicy policy);

// One size of MPS slice: `count` slices of `sm_percent` % of the SMs and `memory` bytes (absent: the
// target's memory divided among its slices), advertised as `resource` (absent: the default name
// gpupack.io/[mig-<profile>-]mps-<pct>, contract/resource_names.hpp). Every slice advertised under one
// name on a node must be interchangeable (same percentage and memory): kubelet hands out any of them.
struct MpsSliceSize {
  int sm_percent = 100;
  std::optional<std::uint64_t> memory_bytes;
  int count = 1;
  std::optional<std::string> resource;
  bool operator==(const MpsSliceSize&) const = default;
};

// The device plugin's section (`device_plugin:`): where kubelet's sockets and the CDI directory are, the
// allocation policy, which resources to advertise, the node-label options and unequal MPS slice sizes
// per GPU or MIG instance.
struct DevicePluginSettings {
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
  bool operator==(const DevicePluginSettings&) const = default;
};

struct NodeConfig {
  std::string mps_root = "/run/gpupack/mps";  // <mps_root>/<target>/{pipe,log} (contract/mps_layout.hpp)
  std::optional<unsigned> uid;                 // owner of the MPS directories and uid of its servers
  std::string metrics_address = "127.0.0.1:9410";  // 9400 is DCGM exporter's
  std::string control_binary = "nvidia-cuda-mps-control";
  double check_interval_seconds = 5;
  std::vector<GpuConfig> gpus;
  DevicePluginSettings device_plugin;
  bool operator==(const NodeConfig&) const = default;
};

// Throws InputError with "<source>: <field>: <problem>" for malformed YAML, unknown fields, values out of
// range and duplicate GPUs.
NodeConfig parse_node_config(const std::string& yaml_text, const std::string& source);

// node.yaml text that parse_node_config reads back as `config`: the fields that differ from their
// defaults, memory in whole MiB ("1536MiB", rounded up as every MPS memory limit is). A GPU shared
// through its MIG instances carries no clients of its own.
std::string write_node_config(const NodeConfig& config);

// "host:port" split; throws InputError for a malformed address.
std::pair<std::string, int> split_address(const std::string& address);

}  // namespace gpupack
