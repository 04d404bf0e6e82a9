#include "agent/device_plugin_targets.hpp"

#include <set>

#include "agent/mps_targets.hpp"
#include "core/errors.hpp"
#include "k8s/node_labels.hpp"
#include "mps/mps_control.hpp"

namespace gpupack {

std::vector<k8s::ShareTarget> device_plugin_targets(const NodeConfig& config, const std::vector<GpuDeviceInfo>& devices) {
  const DevicePluginSettings& settings = config.device_plugin;
  std::vector<k8s::ShareTarget> out;
  std::set<std::string> sliced;
  for (const auto& r : resolve_targets(config, devices)) {
    k8s::ShareTarget t;
    t.gpu_uuid = r.device->uuid;
    t.gpu_index = r.device->index;
    t.product = r.device->name;
    t.memory_total_bytes = r.device->memory_total_bytes;
    if (r.mig) {
      t.mig_uuid = r.mig->uuid;
      t.mig_ids = std::make_pair(r.mig->gpu_instance_id, r.mig->compute_instance_id);
      if (!r.mig->profile.empty()) t.mig_profile = r.mig->profile;
      t.memory_total_bytes = r.mig->memory_total_bytes;
      if (!t.mig_profile) {
        throw InputError("device plugin: the profile of MIG instance " + r.mig->uuid + " is unknown, so it cannot be named");
      }
    }
    t.sharing = r.config->mode;
    t.clients = r.config->clients;
    t.sm_percent = r.config->limits.sm_percent;
    t.memory_bytes = r.config->limits.memory_bytes;
    if (t.sharing == Sharing::mps) {
      t.mps_pipe_dir = mps_paths_for(config, t.uuid()).pipe_dir;
      // A MIG instance's slices are keyed <gpu>/<instance> (a placement is unique only within its GPU),
      // or by the instance alone as gpus[] names it.
      for (const std::string& key : {r.mig ? r.gpu_config->ref + "/" + r.config->ref : r.config->ref, r.config->ref}) {
        if (const auto it = settings.mps_slices.find(key); it != settings.mps_slices.end()) {
          t.mps_slices = it->second;
          sliced.insert(it->first);
          break;
        }
      }
    }
    out.push_back(std::move(t));
  }
  for (const auto& [ref, slices] : settings.mps_slices) {
    if (!sliced.count(ref)) {
      throw InputError("node config: device_plugin.mps_slices." + ref +
                       ": not a GPU or MIG instance in mode mps in gpus[] (write it as gpus[] does, a MIG instance as <gpu>/<instance>)");
    }
  }
  return out;
}

DevicePluginPlan plan_device_plugins(const NodeConfig& config, const std::vector<GpuDeviceInfo>& devices) {
  const DevicePluginSettings& settings = config.device_plugin;
  DevicePluginPlan plan;
  plan.targets = device_plugin_targets(config, devices);
  plan.resources = k8s::plan_resources(plan.targets, settings.gpupack_resources_only);
  plan.labels = k8s::node_labels(plan.targets, plan.resources, settings.cast_ai_labels);
  return plan;
}

}  // namespace gpupack
