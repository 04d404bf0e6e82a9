#include "agent/node_config.hpp"

#include <map>

#include "agent/mps_targets.hpp"
#include "core/errors.hpp"
#include "core/gpu_catalog.hpp"
#include "contract/mps_layout.hpp"
#include "core/units.hpp"
#include "mps/mps_control.hpp"
#include "io/input_file.hpp"
#include "os/trusted_directory.hpp"

namespace gpupack {

NodeConfig load_node_config(const Filesystem& fs, const std::string& path) {
  // Bounded like every input file (docs/cli.md), and a regular file only, opened without blocking: the
  // agent re-reads it at SIGHUP, and a FIFO there must not stop it in open() for good (issue 38).
  return parse_node_config(read_regular_input_file(fs, path), path);
}

void check_against_devices(const NodeConfig& config, const std::vector<GpuDeviceInfo>& devices,
                           const GpuCatalog& catalog) {
  // One GPU (or MIG instance) named twice, by index and by UUID or by profile@start and by UUID, would be
  // supervised and advertised twice: the parser cannot see it, the devices can.
  std::map<std::string, std::string> named;  // UUID -> the reference that named it first
  auto once = [&](const std::string& uuid, const std::string& ref) {
    const auto [it, fresh] = named.emplace(uuid, ref);
    if (!fresh) {
      throw InputError("node config: '" + it->second + "' and '" + ref + "' are the same " +
                       (uuid.rfind("MIG-", 0) == 0 ? "MIG instance" : "GPU") + " (" + uuid + "); list it once");
    }
  };
  for (const auto& g : config.gpus) {
    if (const GpuDeviceInfo* d = find_device(devices, g.ref)) {
      once(d->uuid, g.ref);
      for (const auto& m : g.mig) {
        for (const auto& inst : d->mig_instances) {
          if (mig_matches(inst, m.ref)) once(inst.uuid, m.ref);
        }
      }
    }
  }
  for (const auto& g : config.gpus) {
    const GpuDeviceInfo* d = find_device(devices, g.ref);
    if (!d) {
      std::string known;
      for (const auto& dev : devices) known += (known.empty() ? "" : ", ") + std::to_string(dev.index) + " (" + dev.uuid + ")";
      throw InputError("node config: GPU '" + g.ref + "' is not on this machine (GPUs here: " +
                       (known.empty() ? "none" : known) + ")");
    }
    const GpuModel* model = catalog.find(d->name);
    if (g.mode == Sharing::mps && model) {
      // Clients over the limit fail at context creation (error 808). The CUDA 13.0 limit (48 on Volta+)
      // is the safe one: the node's CUDA may be older than 13.1, which raises it to 60.
      const int limit = mps_client_limit(*model, {13, 0});
      if (g.clients > limit) {
        throw InputError("node config: GPU '" + g.ref + "': clients " + std::to_string(g.clients) +
                         " exceeds the MPS client limit of " + model->name + " (" + std::to_string(limit) + ")");
      }
    }
    if (g.limits.memory_bytes && d->memory_total_bytes && *g.limits.memory_bytes > *d->memory_total_bytes) {
      throw InputError("node config: GPU '" + g.ref + "': limits.memory exceeds the GPU's memory (" +
                       format_size(*d->memory_total_bytes) + ")");
    }
    if (!g.mig.empty() && !d->mig_enabled.value_or(false)) {
      throw InputError("node config: GPU '" + g.ref + "' lists MIG instances but MIG is not enabled on it");
    }
    for (const auto& m : g.mig) {
      bool found = false;
      for (const auto& inst : d->mig_instances) found = found || mig_matches(inst, m.ref);
      if (!found) throw InputError("node config: MIG instance '" + m.ref + "' is not on GPU '" + g.ref + "'");
    }
  }
  // Admission promises every client limits.memory: `clients` of them must fit the GPU or instance, with or
  // without a device_plugin section (whose slices k8s/device_plan.cpp checks the same way).
  for (const auto& t : resolve_targets(config, devices)) {
    const auto memory = t.config->limits.memory_bytes;
    const auto total = t.mig ? t.mig->memory_total_bytes : t.device->memory_total_bytes;
    if (!memory || !total) continue;
    const std::uint64_t promised = *memory * static_cast<std::uint64_t>(t.config->clients);
    if (promised > *total) {
      throw InputError("node config: " + std::string(t.mig ? "MIG instance '" : "GPU '") + t.config->ref + "': clients " +
                       std::to_string(t.config->clients) + " x limits.memory " + format_size(*memory) + " = " +
                       format_size(promised) + " exceeds the " + (t.mig ? "instance's" : "GPU's") + " memory (" +
                       format_size(*total) + "); lower clients or limits.memory");
    }
  }
}

void secure_mps_root(Filesystem& fs, const NodeConfig& config) {
  try {
    if (!fs.link_stat(config.mps_root).exists) fs.make_dirs(config.mps_root, 0755);
    check_trusted_directory(fs, config.mps_root);
  } catch (const std::runtime_error& e) {
    throw InputError("node config: mps_root: " + std::string(e.what()) + " (docs/security.md)");
  }
}

bool mig_matches(const MigInstanceInfo& instance, const std::string& ref) {
  if (instance.uuid == ref) return true;
  return !instance.profile.empty() && instance.placement_start &&
         ref == instance.profile + "@" + std::to_string(*instance.placement_start);
}

MpsPaths mps_paths_for(const NodeConfig& config, const std::string& target_uuid) {
  MpsDirectories d = mps_directories(agent_mps_layout(config.mps_root), target_uuid);
  return {std::move(d.pipe_dir), std::move(d.log_dir)};
}

}  // namespace gpupack
