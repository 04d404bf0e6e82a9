#pragma once
// Per-process SM and memory utilisation from NVML (nvmlDeviceGetProcessesUtilizationInfo, else the older
// nvmlDeviceGetProcessUtilization). NVML returns one row per process that ran in its recent sample
// period; each query asks only for samples newer than the previous query's (per GPU), so a value covers
// the time since the last devices() call. Under MPS only the server has a row; on MIG-enabled GPUs NVML
// answers NOT_SUPPORTED: the values stay absent there.
#include <map>
#include <string>
#include <vector>

#include "gpu/gpu_backend.hpp"
#include "gpu/nvml_library.hpp"

namespace gpupack::nvml {

class ProcessUtilizationReader {
 public:
  explicit ProcessUtilizationReader(const Library& lib) : lib_(lib) {}
  // Fills sm_utilization / memory_utilization of `processes` on `device`. A process without a row
  // while the query succeeded ran no kernel in the period (0), except an MPS client: its work is
  // counted under the server's pid, so its values stay absent.
  void fill(Device device, const std::string& gpu_uuid, std::vector<GpuProcessInfo>& processes);

 private:
  struct Row {
    unsigned long long timestamp = 0;
    unsigned sm = 0, memory = 0;  // percent
  };
  // The newest row per pid, or false when the GPU does not support the query.
  bool query(Device device, const std::string& gpu_uuid, std::map<unsigned, Row>& rows);

  const Library& lib_;
  std::map<std::string, unsigned long long> last_seen_;  // by GPU UUID, microseconds
};

}  // namespace gpupack::nvml
