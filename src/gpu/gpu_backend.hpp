#pragma once
// The boundary to the GPU driver: what the agent, `gpus`, `run` and `profile` read about the GPUs. A
// value the driver does not support or does not report is an empty optional, never an error.
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/errors.hpp"

namespace gpupack {

// NVML GPM activity over the interval between two samples (Hopper and newer), each 0..1. Absent where GPM
// is not supported; the first snapshot after the backend opened has none (GPM needs two samples).
struct GpmActivity {
  std::optional<double> sm_active;      // GPM SM_UTIL (id 2): share of SMs busy
  std::optional<double> sm_occupancy;   // GPM SM_OCCUPANCY (id 3): resident warps / theoretical
  std::optional<double> tensor_active;  // GPM ANY_TENSOR_UTIL (id 5)
  std::optional<double> dram_bw;        // GPM DRAM_BW_UTIL (id 10): share of peak DRAM bandwidth
  double interval_seconds = 0;          // between the two samples
};

struct GpuProcessInfo {
  unsigned pid = 0;
  // nvmlDeviceGetProcessesUtilizationInfo, 0..1; under MPS only the server's pid has a row, on MIG none.
  std::optional<double> sm_utilization, memory_utilization;
  std::optional<std::uint64_t> used_memory_bytes;
  bool mps_client = false;                  // reported by the MPS process query
  std::optional<unsigned> gpu_instance_id;  // under MIG: the GPU instance the process runs in
  std::optional<unsigned> compute_instance_id;
};

struct MigInstanceInfo {
  std::string uuid;  // MIG-... device UUID
  unsigned gpu_instance_id = 0;
  unsigned compute_instance_id = 0;
  std::optional<unsigned> profile_id;  // NVML GPU-instance profile id
  std::string profile;                 // e.g. "3g.40gb" when known (from the catalog or the fake)
  std::optional<unsigned> placement_start, placement_size;
  std::optional<std::uint64_t> memory_total_bytes, memory_used_bytes;
  std::optional<GpmActivity> gpm;  // nvmlGpmMigSampleGet, since the previous devices() call
};

struct GpuDeviceInfo {
  unsigned index = 0;
  std::string uuid;  // GPU-...
  std::string name;  // NVML product name, e.g. "NVIDIA H100 80GB HBM3"
  std::optional<std::uint64_t> memory_total_bytes, memory_used_bytes;
  std::optional<std::string> compute_mode;  // Default, Exclusive_Process, Prohibited
  std::optional<bool> mig_enabled;
  std::vector<MigInstanceInfo> mig_instances;
  std::optional<double> utilization_gpu;     // 0..1, over the driver's last sample period
  std::optional<double> utilization_memory;  // 0..1
  std::optional<GpmActivity> gpm;            // since the previous devices() call on this backend
  std::vector<GpuProcessInfo> processes;     // compute processes and MPS clients
};

struct XidEvent {
  std::string uuid;
  std::uint64_t xid = 0;
};

class GpuBackend {
 public:
  virtual ~GpuBackend() = default;
  virtual std::string name() const = 0;  // "nvml" or "fake"
  virtual std::optional<std::string> driver_version() const = 0;
  // A fresh snapshot of every device.
  virtual std::vector<GpuDeviceInfo> devices() = 0;
  // XID errors seen since the last call (does not wait).
  virtual std::vector<XidEvent> poll_xid_events() = 0;
};

// No GPU layer here: NVML missing or failing. The CLI maps it to exit code 3.
class GpuUnavailable : public UnavailableError {
 public:
  explicit GpuUnavailable(const std::string& message) : UnavailableError(message) {}
};

// The backend gpupack commands use. `choice` is the value of GPUPACK_GPU_BACKEND, which the CLI reads
// once through the Env: "fake:<machine.json>" selects the fake (tests, demos; the file read through
// `fs`), anything else NVML, which names MIG profiles from `catalog` (it must outlive the backend).
// Throws GpuUnavailable when NVML cannot be loaded.
class Filesystem;
class GpuCatalog;
std::unique_ptr<GpuBackend> open_gpu_backend(const std::string& choice, const Filesystem& fs, const GpuCatalog& catalog);


// Finds a device by UUID or by index ("0", "1"); nullptr when none matches.
const GpuDeviceInfo* find_device(const std::vector<GpuDeviceInfo>& devices, const std::string& uuid_or_index);

}  // namespace gpupack
