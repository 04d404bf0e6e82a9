#include "gpu/nvml_library.hpp"

#include <dlfcn.h>

#include <initializer_list>

#include "gpu/gpu_backend.hpp"

namespace gpupack::nvml {

namespace {

// The first of `names` the library exports, or nullptr.
template <typename Fn>
void resolve(void* handle, Fn& into, std::initializer_list<const char*> names) {
  for (const char* name : names) {
    if (void* sym = ::dlsym(handle, name)) {
      into = reinterpret_cast<Fn>(sym);
      return;
    }
  }
}

}  // namespace

Library open_library() {
  Library lib;
  lib.handle = ::dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib.handle) {
    const char* why = ::dlerror();
    throw GpuUnavailable(std::string("cannot load NVML (libnvidia-ml.so.1, part of the NVIDIA driver): ") +
                         (why ? why : "unknown error"));
  }
  void* h = lib.handle;
  resolve(h, lib.init, {"nvmlInit_v2", "nvmlInit"});
  resolve(h, lib.shutdown, {"nvmlShutdown"});
  resolve(h, lib.error_string, {"nvmlErrorString"});
  resolve(h, lib.system_get_driver_version, {"nvmlSystemGetDriverVersion"});
  resolve(h, lib.device_get_count, {"nvmlDeviceGetCount_v2", "nvmlDeviceGetCount"});
  resolve(h, lib.device_get_handle_by_index, {"nvmlDeviceGetHandleByIndex_v2", "nvmlDeviceGetHandleByIndex"});
  resolve(h, lib.device_get_uuid, {"nvmlDeviceGetUUID"});
  resolve(h, lib.device_get_name, {"nvmlDeviceGetName"});
  resolve(h, lib.device_get_memory_info, {"nvmlDeviceGetMemoryInfo"});
  resolve(h, lib.device_get_memory_info_v2, {"nvmlDeviceGetMemoryInfo_v2"});
  resolve(h, lib.device_get_compute_mode, {"nvmlDeviceGetComputeMode"});
  resolve(h, lib.device_get_mig_mode, {"nvmlDeviceGetMigMode"});
  resolve(h, lib.device_get_utilization_rates, {"nvmlDeviceGetUtilizationRates"});
  resolve(h, lib.device_get_compute_processes,
          {"nvmlDeviceGetComputeRunningProcesses_v3", "nvmlDeviceGetComputeRunningProcesses_v2"});
  if (!lib.device_get_compute_processes) {
    resolve(h, lib.device_get_compute_processes_v1, {"nvmlDeviceGetComputeRunningProcesses"});
  }
  resolve(h, lib.device_get_mps_processes,
          {"nvmlDeviceGetMPSComputeRunningProcesses_v3", "nvmlDeviceGetMPSComputeRunningProcesses_v2"});
  if (!lib.device_get_mps_processes) {
    resolve(h, lib.device_get_mps_processes_v1, {"nvmlDeviceGetMPSComputeRunningProcesses"});
  }
  resolve(h, lib.device_get_max_mig_device_count, {"nvmlDeviceGetMaxMigDeviceCount"});
  resolve(h, lib.device_get_mig_device_handle_by_index, {"nvmlDeviceGetMigDeviceHandleByIndex"});
  resolve(h, lib.device_get_gpu_instance_id, {"nvmlDeviceGetGpuInstanceId"});
  resolve(h, lib.device_get_compute_instance_id, {"nvmlDeviceGetComputeInstanceId"});
  resolve(h, lib.device_get_gpu_instance_by_id, {"nvmlDeviceGetGpuInstanceById"});
  resolve(h, lib.gpu_instance_get_info, {"nvmlGpuInstanceGetInfo"});
  resolve(h, lib.event_set_create, {"nvmlEventSetCreate"});
  resolve(h, lib.device_register_events, {"nvmlDeviceRegisterEvents"});
  resolve(h, lib.event_set_wait, {"nvmlEventSetWait_v2", "nvmlEventSetWait"});
  resolve(h, lib.event_set_free, {"nvmlEventSetFree"});
  resolve(h, lib.device_get_processes_utilization_info, {"nvmlDeviceGetProcessesUtilizationInfo"});
  resolve(h, lib.device_get_process_utilization, {"nvmlDeviceGetProcessUtilization"});
  resolve(h, lib.gpm_query_device_support, {"nvmlGpmQueryDeviceSupport"});
  resolve(h, lib.gpm_sample_alloc, {"nvmlGpmSampleAlloc"});
  resolve(h, lib.gpm_sample_free, {"nvmlGpmSampleFree"});
  resolve(h, lib.gpm_sample_get, {"nvmlGpmSampleGet"});
  resolve(h, lib.gpm_mig_sample_get, {"nvmlGpmMigSampleGet"});
  resolve(h, lib.gpm_metrics_get, {"nvmlGpmMetricsGet"});

  if (!lib.init || !lib.shutdown || !lib.device_get_count || !lib.device_get_handle_by_index || !lib.device_get_uuid ||
      !lib.device_get_name) {
    ::dlclose(h);
    throw GpuUnavailable("libnvidia-ml.so.1 lacks the basic NVML functions (init, device count, handle, UUID, name)");
  }
  if (const Return r = lib.init(); r != kSuccess) {
    const std::string why = error_text(lib, r);
    ::dlclose(h);
    throw GpuUnavailable("nvmlInit failed: " + why);
  }
  return lib;
}

void close_library(Library& lib) {
  if (!lib.handle) return;
  lib.shutdown();
  ::dlclose(lib.handle);
  lib.handle = nullptr;
}

std::string error_text(const Library& lib, Return r) {
  if (lib.error_string) {
    if (const char* s = lib.error_string(r)) return s;
  }
  return "NVML error " + std::to_string(r);
}

}  // namespace gpupack::nvml
