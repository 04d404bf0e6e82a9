#include "k8s/cdi_spec.hpp"

#include <stdexcept>

#include "k8s/allocation.hpp"
#include "contract/cdi_spec.hpp"

namespace gpupack::k8s {

std::string cdi_spec_json(const std::vector<PluginResource>& resources) {
  std::vector<CdiDevice> devices;
  for (const auto& r : resources) {
    for (const auto& d : r.devices) {
      // The device nodes only: the NVIDIA container toolkit still injects the driver libraries
      // (NVIDIA_VISIBLE_DEVICES). A MIG instance needs its parent's node and its /dev/nvidia-caps access
      // nodes, which follow from the driver's GPU and compute instance IDs.
      CdiDevice c;
      c.name = cdi_device_name(d.id);
      c.annotations = {{"gpupack.io/resource", r.name}, {"gpupack.io/uuid", d.target_uuid}};
      if (d.mig_ids) {
        c.device_nodes = mig_device_nodes({d.gpu_index, d.mig_ids->first, d.mig_ids->second});
      } else {
        c.device_nodes = {"/dev/nvidia" + std::to_string(d.gpu_index)};
      }
      devices.push_back(std::move(c));
    }
  }
  return gpupack::cdi_spec_json(devices, kGpupackCdiKind);
}

std::string write_cdi_spec(Filesystem& fs, const std::string& dir, const std::vector<PluginResource>& resources) {
  const std::string path = dir + "/gpupack.io-gpu.json";
  try {
    if (!fs.stat(dir).exists) fs.make_dirs(dir, 0755);
    // Atomic and synced, mode 0644: the container runtime may read it at any time.
    fs.write_file(path, cdi_spec_json(resources));
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(std::string("CDI spec: ") + e.what());
  }
  return path;
}

}  // namespace gpupack::k8s
