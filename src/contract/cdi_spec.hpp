#pragma once
// The one CDI spec writer, used by `gpupack render --target cdi` (from a plan) and by the agent (from the
// devices it advertises): a device model, the device nodes a MIG instance needs, and the JSON with the
// lowest cdiVersion its content requires, so that older CDI libraries (v0.8.x, still vendored by NVIDIA's
// device plugin v0.17) load it too.
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace gpupack {

inline constexpr const char* kGpupackCdiKind = "gpupack.io/gpu";

struct CdiMount {
  std::string host_path;
  std::string container_path;
  std::vector<std::string> options;
};

struct CdiDevice {
  std::string name;
  std::vector<std::pair<std::string, std::string>> annotations;
  std::vector<std::string> env;           // "KEY=value"
  std::vector<std::string> device_nodes;  // paths, the same on host and in the container
  std::vector<CdiMount> mounts;
};

// The MIG instance's identity on its node, as the NVIDIA driver numbers it.
struct MigDeviceIds {
  unsigned gpu_minor = 0;  // the parent's /dev/nvidia<minor>
  unsigned gpu_instance_id = 0;
  unsigned compute_instance_id = 0;
};

// /dev/nvidia<minor>, and the GPU-instance and compute-instance access nodes under /dev/nvidia-caps that
// the NVIDIA container toolkit injects for a MIG device. Their minors follow the driver's fixed
// table (/proc/driver/nvidia-caps/mig-minors): gpu<g>/gi<i>/access = 3 + 135 g + 9 i and
// gpu<g>/gi<i>/ci<c>/access = that + 1 + c (15 GPU instances of 1 + 8 entries per GPU after config=1
// and monitor=2).
std::vector<std::string> mig_device_nodes(const MigDeviceIds& ids);

// The GPU-instance ID the driver gives a GI at memory-slice placement {start, size} on a GPU with
// `memory_slices` slices (a power of two): the node of the binary tree of slice ranges, numbered
// breadth-first (whole GPU 0, halves 1-2, quarters 3-6, eighths 7-14). Empty where the geometry is not
// such a tree or the placement not aligned.
std::optional<unsigned> gpu_instance_id_for_placement(int memory_slices, int start, int size);

// The lowest CDI specification version the spec needs, by the rules of cncf-tags/container-device-interface
// (specs-go/version.go, MinimumRequiredVersion): 0.3.0, raised to 0.5.0 by a device name not starting with
// a letter, to 0.6.0 by annotations or a '.' in the kind's class; later versions add fields we never write.
std::string cdi_minimum_version(const std::string& kind, const std::vector<CdiDevice>& devices);

// The spec as JSON: the devices, plus /dev/nvidiactl and /dev/nvidia-uvm for every container.
std::string cdi_spec_json(const std::vector<CdiDevice>& devices, const std::string& kind = kGpupackCdiKind);

}  // namespace gpupack
