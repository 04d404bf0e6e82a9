#pragma once
// libnvidia-ml.so.1 opened with dlopen, its functions looked up by name, the newest version of each
// first (nvmlDeviceGetCount_v2 before nvmlDeviceGetCount). Optional functions may be missing (older
// drivers); then their pointer is null and the caller treats the value as absent.
#include <string>

#include "gpu/nvml_api.hpp"

namespace gpupack::nvml {

struct Library {
  Return (*init)() = nullptr;
  Return (*shutdown)() = nullptr;
  const char* (*error_string)(Return) = nullptr;
  Return (*system_get_driver_version)(char*, unsigned) = nullptr;
  Return (*device_get_count)(unsigned*) = nullptr;
  Return (*device_get_handle_by_index)(unsigned, Device*) = nullptr;
  Return (*device_get_uuid)(Device, char*, unsigned) = nullptr;
  Return (*device_get_name)(Device, char*, unsigned) = nullptr;
  Return (*device_get_memory_info)(Device, Memory*) = nullptr;
  Return (*device_get_memory_info_v2)(Device, MemoryV2*) = nullptr;  // optional (drivers >= 510)
  Return (*device_get_compute_mode)(Device, int*) = nullptr;
  Return (*device_get_mig_mode)(Device, unsigned*, unsigned*) = nullptr;
  Return (*device_get_utilization_rates)(Device, Utilization*) = nullptr;
  // Exactly one of each pair is set: the 4-field (_v3/_v2) or the 2-field (v1) process query.
  Return (*device_get_compute_processes)(Device, unsigned*, ProcessInfo*) = nullptr;
  Return (*device_get_compute_processes_v1)(Device, unsigned*, ProcessInfoV1*) = nullptr;
  Return (*device_get_mps_processes)(Device, unsigned*, ProcessInfo*) = nullptr;
  Return (*device_get_mps_processes_v1)(Device, unsigned*, ProcessInfoV1*) = nullptr;
  Return (*device_get_max_mig_device_count)(Device, unsigned*) = nullptr;
  Return (*device_get_mig_device_handle_by_index)(Device, unsigned, Device*) = nullptr;
  Return (*device_get_gpu_instance_id)(Device, unsigned*) = nullptr;
  Return (*device_get_compute_instance_id)(Device, unsigned*) = nullptr;
  Return (*device_get_gpu_instance_by_id)(Device, unsigned, GpuInstance*) = nullptr;
  Return (*gpu_instance_get_info)(GpuInstance, GpuInstanceInfo*) = nullptr;
  Return (*event_set_create)(EventSet*) = nullptr;
  Return (*device_register_events)(Device, unsigned long long, EventSet) = nullptr;
  Return (*event_set_wait)(EventSet, EventData*, unsigned) = nullptr;
  Return (*event_set_free)(EventSet) = nullptr;
  // Optional: per-process utilisation (the versioned query first, else the older sample list).
  Return (*device_get_processes_utilization_info)(Device, ProcessesUtilizationInfoV1*) = nullptr;
  Return (*device_get_process_utilization)(Device, ProcessUtilizationSample*, unsigned*, unsigned long long) = nullptr;
  // Optional: GPM (drivers >= 520; devices Hopper and newer).
  Return (*gpm_query_device_support)(Device, GpmSupport*) = nullptr;
  Return (*gpm_sample_alloc)(GpmSample*) = nullptr;
  Return (*gpm_sample_free)(GpmSample) = nullptr;
  Return (*gpm_sample_get)(Device, GpmSample) = nullptr;
  Return (*gpm_mig_sample_get)(Device, unsigned, GpmSample) = nullptr;
  Return (*gpm_metrics_get)(GpmMetricsGet*) = nullptr;

  void* handle = nullptr;
};

// Opens and initialises NVML. Throws GpuUnavailable (gpu_backend.hpp) with the reason when the library
// is missing, lacks a required function or nvmlInit fails.
Library open_library();
void close_library(Library& lib);
std::string error_text(const Library& lib, Return r);

}  // namespace gpupack::nvml
