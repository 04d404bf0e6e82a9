#include "agent/simulated_devices.hpp"

#include <cmath>

#include "core/errors.hpp"

namespace gpupack {

namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

std::uint64_t bytes_of_gib(double gib) { return static_cast<std::uint64_t>(std::llround(gib * kGiB)); }

unsigned index_of(const std::string& ref) {
  if (ref.empty() || ref.size() > 3 || ref.find_first_not_of("0123456789") != std::string::npos) {
    throw InputError("node config: GPU '" + ref + "': a simulated machine numbers GPUs by index (0, 1, ...), not by UUID");
  }
  return static_cast<unsigned>(std::stoul(ref));
}

MigInstanceInfo instance_of(const std::string& gpu_ref, const std::string& ref, const GpuModel& model, unsigned id) {
  const auto at = ref.rfind('@');
  if (at == std::string::npos || at == 0 || at + 1 == ref.size() ||
      ref.find_first_not_of("0123456789", at + 1) != std::string::npos || ref.size() - at > 3) {
    throw InputError("node config: GPU '" + gpu_ref + "': MIG instance '" + ref +
                     "': a simulated machine needs <profile>@<start> (as gpupack render writes it)");
  }
  const std::string name = ref.substr(0, at);
  const int p = model.mig ? model.mig->find_profile(name) : -1;
  if (p < 0) {
    throw InputError("node config: GPU '" + gpu_ref + "': MIG profile '" + name + "' is not a profile of " + model.name +
                     " (accepted: " + (model.mig ? model.mig->profile_names() : std::string("none")) + ")");
  }
  const MigProfile& profile = model.mig->profiles[static_cast<std::size_t>(p)];
  MigInstanceInfo m;
  m.uuid = "MIG-sim-" + gpu_ref + "-" + std::to_string(id);
  m.gpu_instance_id = id;
  m.compute_instance_id = 0;
  m.profile_id = profile.gi_profile_id ? std::optional<unsigned>(static_cast<unsigned>(*profile.gi_profile_id)) : std::nullopt;
  m.profile = profile.name;
  m.placement_start = static_cast<unsigned>(std::stoul(ref.substr(at + 1)));
  m.placement_size = static_cast<unsigned>(profile.memory_slices);
  m.memory_total_bytes = bytes_of_gib(profile.memory_gib);
  m.memory_used_bytes = 0;
  return m;
}

}  // namespace

std::vector<GpuDeviceInfo> simulated_devices(const NodeConfig& config, const std::vector<const GpuModel*>& models) {
  std::vector<GpuDeviceInfo> out;
  for (std::size_t i = 0; i < config.gpus.size(); ++i) {
    const GpuConfig& g = config.gpus[i];
    const GpuModel& model = *models.at(i);
    GpuDeviceInfo d;
    d.index = index_of(g.ref);
    d.uuid = "GPU-sim-" + g.ref;
    d.name = model.nvml_names.empty() ? model.name : model.nvml_names.front();
    d.memory_total_bytes = bytes_of_gib(model.memory_gib);
    d.memory_used_bytes = 0;
    d.compute_mode = "Default";
    d.mig_enabled = !g.mig.empty();
    unsigned id = 1;
    for (const auto& m : g.mig) d.mig_instances.push_back(instance_of(g.ref, m.ref, model, id++));
    out.push_back(std::move(d));
  }
  return out;
}

}  // namespace gpupack
