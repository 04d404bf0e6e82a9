#include "agent/mps_targets.hpp"

namespace gpupack {

std::vector<ResolvedTarget> resolve_targets(const NodeConfig& config, const std::vector<GpuDeviceInfo>& devices) {
  std::vector<ResolvedTarget> out;
  for (const auto& g : config.gpus) {
    const GpuDeviceInfo* d = find_device(devices, g.ref);
    if (!d) continue;
    // A GPU whose MIG instances are configured is shared through them, not as a whole.
    if (g.mig.empty()) out.push_back({d, nullptr, &g, &g});
    for (const auto& m : g.mig) {
      for (const auto& inst : d->mig_instances) {
        if (mig_matches(inst, m.ref)) out.push_back({d, &inst, &m, &g});
      }
    }
  }
  return out;
}

std::vector<MpsTarget> mps_targets(const NodeConfig& config, const std::vector<GpuDeviceInfo>& devices, unsigned server_uid) {
  std::vector<MpsTarget> out;
  for (const auto& t : resolve_targets(config, devices)) {
    if (t.config->mode != Sharing::mps) continue;
    MpsTarget m;
    m.gpu_uuid = t.device->uuid;
    m.target_uuid = t.uuid();
    MpsSupervisorOptions& o = m.options;
    o.daemon.paths = mps_paths_for(config, m.target_uuid);
    o.daemon.binary = config.control_binary;
    o.daemon.visible_devices = {m.target_uuid};
    o.daemon.owner_uid = config.uid;
    o.active_thread_percentage = t.config->limits.sm_percent;
    // The daemon sees only this GPU (or instance), as its device 0.
    if (t.config->limits.memory_bytes) o.pinned_mem_limits = {{0, mps_memory_text(*t.config->limits.memory_bytes)}};
    o.server_uid = config.uid.value_or(server_uid);
    out.push_back(std::move(m));
  }
  return out;
}

}  // namespace gpupack
