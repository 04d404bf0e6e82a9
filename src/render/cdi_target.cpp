// Target `cdi`: CDI specs, one per node, kind gpupack.io/gpu, written by the one CDI writer
// (contract/cdi_spec.hpp) with the lowest cdiVersion the content needs. A device per slice; on MPS slices
// a device per client, carrying that client's MPS environment and the pipe directory mount. A MIG slice
// carries the nodes the NVIDIA container toolkit injects for it: the parent's /dev/nvidia<N> and the
// instance's /dev/nvidia-caps access nodes, whose minors follow from the placement (contract/cdi_spec.hpp).
#include <fmt/format.h>

#include "core/errors.hpp"
#include "contract/cdi_spec.hpp"
#include "render/client_env.hpp"
#include "contract/names.hpp"
#include "render/targets.hpp"

namespace gpupack {

namespace {

// NVIDIA_VISIBLE_DEVICES value: "<gpu index>" or "<gpu index>:<MIG device ordinal>".
std::string visible_device(const DocGpu& gpu, const DocSlice& slice) {
  if (!slice.profile) return std::to_string(gpu.index);
  int ordinal = 0;
  for (const auto& s : gpu.slices) {
    if (&s == &slice) break;
    if (s.profile) ++ordinal;
  }
  return std::to_string(gpu.index) + ":" + std::to_string(ordinal);
}

// The device nodes of a slice. For a MIG slice the GPU-instance ID follows from its placement; the
// compute instance is 0 because mig-parted (and gpupack's MIG scripts) create one CI spanning the GI.
std::vector<std::string> slice_device_nodes(const DocGpu& gpu, const DocSlice& slice, const GpuCatalog& catalog) {
  const auto minor = static_cast<unsigned>(gpu.index);
  if (!slice.profile) return {"/dev/nvidia" + std::to_string(minor)};
  const GpuModel* model = catalog.find(gpu.model);
  const MigGeometry* g = model && model->mig ? &*model->mig : nullptr;
  const int p = g ? g->find_profile(*slice.profile) : -1;
  if (p < 0 || !slice.mig_start) {
    throw InputError(fmt::format("plan: GPU {} slice {}: MIG profile '{}' is not one of model {}{}", gpu.id, slice.id,
                                 *slice.profile, gpu.model, g ? " (known: " + g->profile_names() + ")" : ""));
  }
  const auto gi = gpu_instance_id_for_placement(g->memory_slices, *slice.mig_start, g->profiles[static_cast<size_t>(p)].memory_slices);
  if (!gi) {
    throw InputError(fmt::format("plan: GPU {} slice {}: cannot derive the MIG device nodes of {} at start {} on {} "
                                 "(its placement axis is not a binary tree); use the gpupack agent, which reads them",
                                 gpu.id, slice.id, *slice.profile, *slice.mig_start, gpu.model));
  }
  return mig_device_nodes({minor, *gi, 0});
}

CdiDevice slice_device(const std::string& name, const DocGpu& gpu, const DocSlice& slice, const DocPlacement* client,
                       const GpuCatalog& catalog) {
  CdiDevice d;
  d.name = name;
  d.env.push_back("NVIDIA_VISIBLE_DEVICES=" + visible_device(gpu, slice));
  d.device_nodes = slice_device_nodes(gpu, slice, catalog);
  if (client && slice.sharing == Sharing::mps) {
    const MpsDaemonNames n = mps_daemon_names(gpu, slice);
    d.env.push_back("CUDA_MPS_PIPE_DIRECTORY=" + n.pipe_dir);
    for (const auto& [key, value] : mps_client_limits(*client)) d.env.push_back(key + "=" + value);
    d.mounts = {{n.pipe_dir, n.pipe_dir, {"rbind", "rw"}}, {"/dev/shm", "/dev/shm", {"rbind", "rw"}}};
  }
  return d;
}

}  // namespace

TargetOutput render_cdi_target(const PlanDocument& plan, const GpuCatalog& catalog) {
  TargetOutput out;
  for (const auto& node : plan.nodes) {
    std::vector<CdiDevice> devices;
    for (const auto& gpu : plan.gpus) {
      if (gpu.node != node) continue;
      for (const auto& slice : gpu.slices) {
        const std::string base = to_dns1123_label(slice.profile ? gpu.id + "-" + slice.id : gpu.id);
        if (slice.sharing == Sharing::mps) {
          for (const auto& c : slice.clients) {
            devices.push_back(
                slice_device(base + "-" + c.workload + "-" + std::to_string(c.replica), gpu, slice, &c, catalog));
          }
        } else {
          devices.push_back(slice_device(base, gpu, slice, nullptr, catalog));
        }
      }
    }
    out.files.push_back({"cdi/" + node + "/gpupack.io-gpu.json", cdi_spec_json(devices), 0644});
  }
  if (!out.files.empty()) {
    out.readme.push_back(
        "cdi/<node>/gpupack.io-gpu.json: CDI specs (kind gpupack.io/gpu; cdiVersion is the lowest the content\n"
        "needs, 0.3.0 or 0.5.0, so CDI libraries from v0.5 on load them) for each node's devices: one per\n"
        "slice, and on MPS slices one per client with its CUDA_MPS_* environment and the pipe directory mount.\n"
        "A MIG device carries /dev/nvidia<N> of its GPU and its /dev/nvidia-caps/nvidia-cap<gi> and\n"
        "nvidia-cap<ci> access nodes, derived assuming the GPU's device minor equals its index on the node and\n"
        "one compute instance per GPU instance (as mig-parted creates them); check with\n"
        "`cat /proc/driver/nvidia-caps/mig-minors` and `nvidia-smi mig -lgi`, or let the gpupack agent write the\n"
        "spec from the driver's own IDs. Copy to /etc/cdi/ on the node (the gpupack agent writes them to\n"
        "/var/run/cdi itself); containers then request e.g. gpupack.io/gpu=<name>.");
  }
  return out;
}

}  // namespace gpupack
