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

// Per-process utilisation. nvmlProcessUtilizationInfo_v1_t and nvmlProcessesUtilizationInfo_v1_t (driver
// >= 550, nvmlDeviceGetProcessesUtilizationInfo); the version word is NVML_STRUCT_VERSION: size | ver << 24.
struct ProcessUtilizationInfoV1 {
  unsigned long long timeStamp;  // CPU time, microseconds
  unsigned int pid;
  unsigned int smUtil, memUtil, encUtil, decUtil, jpgUtil, ofaUtil;  // percent
};
struct ProcessesUtilizationInfoV1 {
  unsigned int version;
  unsigned int processSamplesCount;  // in: array size; out: rows written (or needed)
  unsigned long long lastSeenTimeStamp;
  ProcessUtilizationInfoV1* procUtilArray;
};
inline constexpr unsigned int kProcessesUtilizationInfoV1Version =
    static_cast<unsigned int>(sizeof(ProcessesUtilizationInfoV1)) | (1u << 24);
// nvmlProcessUtilizationSample_t, the older nvmlDeviceGetProcessUtilization's row.
struct ProcessUtilizationSample {
  unsigned int pid;
  unsigned long long timeStamp;
  unsigned int smUtil, memUtil, encUtil, decUtil;
};

// GPM (Hopper and newer): counters sampled into opaque buffers; metrics computed from two samples.
struct GpmSampleSt;
using GpmSample = GpmSampleSt*;
struct GpmSupport {  // nvmlGpmSupport_t
  unsigned int version;            // kGpmSupportVersion
  unsigned int isSupportedDevice;  // out
};
inline constexpr unsigned int kGpmSupportVersion = 1;  // NVML_GPM_SUPPORT_VERSION
struct GpmMetric {  // nvmlGpmMetric_t
  unsigned int metricId;
  Return nvmlReturn;
  double value;  // percent for the utilisation metrics
  struct {
    char* shortName;
    char* longName;
    char* unit;
  } metricInfo;
};
inline constexpr unsigned int kGpmMetricMax = 333;  // NVML_GPM_METRIC_MAX (the array is sized by it)
struct GpmMetricsGet {  // nvmlGpmMetricsGet_t
  unsigned int version;  // kGpmMetricsGetVersion
  unsigned int numMetrics;
  GpmSample sample1, sample2;
  GpmMetric metrics[kGpmMetricMax];
};
inline constexpr unsigned int kGpmMetricsGetVersion = 1;  // NVML_GPM_METRICS_GET_VERSION
// nvmlGpmMetricId_t values gpupack reads.
// The sizes nvml.h gives on LP64 Linux: a mismatch here would corrupt the driver's writes.
static_assert(sizeof(ProcessUtilizationInfoV1) == 40 && sizeof(ProcessesUtilizationInfoV1) == 24);
static_assert(sizeof(ProcessUtilizationSample) == 32 && sizeof(GpmMetric) == 40);
static_assert(sizeof(GpmMetricsGet) == 24 + 40 * kGpmMetricMax);
inline constexpr unsigned int kGpmSmUtil = 2;
inline constexpr unsigned int kGpmSmOccupancy = 3;
inline constexpr unsigned int kGpmAnyTensorUtil = 5;
inline constexpr unsigned int kGpmDramBwUtil = 10;
inline constexpr unsigned long long kNotAvailableMemory = 0xFFFFFFFFFFFFFFFFull;  // NVML_VALUE_NOT_AVAILABLE
inline constexpr unsigned int kDeviceUuidBufferSize = 96;
inline constexpr unsigned int kDeviceNameBufferSize = 96;

}  // namespace gpupack::nvml
