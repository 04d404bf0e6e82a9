#pragma once
// From the node config to what the kubelet device plugins advertise (k8s/device_plan.hpp): each GPU or
// MIG instance of the config, resolved against the devices, with its mode, clients, limits, its MPS pipe
// directory and the unequal MPS slice sizes of the config's device_plugin section.
#include <map>
#include <string>
#include <vector>

#include "agent/node_config.hpp"
#include "k8s/device_plan.hpp"

namespace gpupack {

// Throws InputError when device_plugin.mps_slices names a GPU or instance that is not in gpus[] in mode
// mps. check_against_devices must have passed.
// The device plugin's settings are the config's own section (config.device_plugin): node.yaml is read once.
std::vector<k8s::ShareTarget> device_plugin_targets(const NodeConfig& config, const std::vector<GpuDeviceInfo>& devices);

// Everything the agent and `gpupack labels` derive from the config: targets, the resources advertised
// (without nvidia.com/* when device_plugin.resources is gpupack-only) and the node labels.
struct DevicePluginPlan {
  std::vector<k8s::ShareTarget> targets;
  std::vector<k8s::PluginResource> resources;
  std::map<std::string, std::string> labels;
};
DevicePluginPlan plan_device_plugins(const NodeConfig& config, const std::vector<GpuDeviceInfo>& devices);

}  // namespace gpupack
