#pragma once
// The part of NVML's C API gpupack uses, declared here instead of including nvml.h: libnvidia-ml.so.1
// is opened with dlopen at run time (never linked), so gpupack builds and runs on machines without the
// driver. Layouts follow nvml.h (stable ABI since CUDA 11); only what is used is declared.
namespace gpupack::nvml {

using Return = int;
inline constexpr Return kSuccess = 0;
inline constexpr Return kErrorNotSupported = 3;
inline constexpr Return kErrorNoPermission = 4;
inline constexpr Return kErrorNotFound = 6;
inline constexpr Return kErrorInsufficientSize = 7;
inline constexpr Return kErrorTimeout = 10;
inline constexpr Return kErrorFunctionNotFound = 13;

struct DeviceSt;
using Device = DeviceSt*;
struct GpuInstanceSt;
using GpuInstance = GpuInstanceSt*;
struct EventSetSt;
using EventSet = EventSetSt*;

struct Memory {
  unsigned long long total, free, used;
};
// nvmlMemory_v2_t: `used` without the driver's reserved memory, as nvidia-smi shows it (the v1 `used`
// includes the reservation: 615 MiB "used" on an idle H200 where nvidia-smi says 0).
struct MemoryV2 {
  unsigned int version;
  unsigned long long total, reserved, free, used;
};
inline constexpr unsigned int kMemoryV2Version = static_cast<unsigned int>(sizeof(MemoryV2)) | (2u << 24);
struct Utilization {
  unsigned int gpu, memory;  // percent
};
struct ProcessInfoV1 {
  unsigned int pid;
  unsigned long long usedGpuMemory;
};
struct ProcessInfo {  // nvmlProcessInfo_t as used by the _v2 and _v3 process queries
  unsigned int pid;
  unsigned long long usedGpuMemory;
  unsigned int gpuInstanceId;
  unsigned int computeInstanceId;
};
struct GpuInstancePlacement {
  unsigned int start, size;
};
struct GpuInstanceInfo {
  Device device;
  unsigned int id;
  unsigned int profileId;
  GpuInstancePlacement placement;
};
struct EventData {
  Device device;
  unsigned long long eventType;
  unsigned long long eventData;
  unsigned int gpuInstanceId;
  unsigned int computeInstanceId;
};
inline constexpr unsigned long long kEventTypeXidCriticalError = 0x8;
inline constexpr unsigned long long kNotAvailableMemory = 0xFFFFFFFFFFFFFFFFull;  // NVML_VALUE_NOT_AVAILABLE
inline constexpr unsigned int kDeviceUuidBufferSize = 96;
inline constexpr unsigned int kDeviceNameBufferSize = 96;

}  // namespace gpupack::nvml
