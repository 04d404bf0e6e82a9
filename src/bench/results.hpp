#pragma once
// Everything one `gpupack bench` run measured: raw samples, never only summaries, so that the JSON keeps
// every sample and the report, verdicts and calibration are recomputed from the same numbers.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "bench/options.hpp"
#include "measure/colocation_grid.hpp"
#include "measure/workload_profile.hpp"

namespace gpupack::bench {

struct DeviceInfo {
  std::string name, uuid, compute_capability;
  std::string gpu_uuid;              // the physical GPU: differs from uuid when CUDA sees a MIG instance
  std::string driver_version;        // the NVIDIA driver (nvidia-smi), e.g. 580.159.04; "" when unknown
  std::string cuda_driver_version;   // the CUDA version the driver supports, e.g. 13.0
  std::string cuda_runtime_version;  // the CUDA runtime gpupack was built with
  std::string compute_mode;          // Default, Exclusive_Process, ...
  std::string mig_mode;              // Enabled, Disabled, or "" when unknown / not supported
  int sm_count = 0;
  std::uint64_t memory_bytes = 0;
  std::vector<std::string> mig_instances;  // MIG UUIDs of the existing instances (MIG mode on)
  // Alone speeds of the bench kernels, from the info worker: converts milliseconds of work into loop counts.
  double client_iters_per_ms = 0, latency_iters_per_ms = 0, saturating_iters_per_ms = 0;
  double gemm_ms = 0;
  int gemm_n = 0;
};

struct StreamKernels {
  int k = 0;
  int blocks_per_kernel = 0;
  std::vector<double> serial_ms, concurrent_ms;
};

struct CopyOverlap {
  int chunks = 0, streams = 0, rounds_per_element = 0;
  std::uint64_t chunk_bytes = 0;
  std::vector<double> serial_ms, overlapped_ms;
};

struct StreamsResult {
  std::vector<StreamKernels> kernels;
  CopyOverlap copy;
};

// K throughput clients at once under one mode: "timeslicing", "mps" or "mig" (target: the MIG UUID).
struct ClientRun {
  std::string mode, target;
  int k = 0;
  std::vector<double> seconds;  // per client, measured work only (after all were ready)
  double flops_per_client = 0;
};

// The latency client under one setting: "alone", "timeslicing", "mps", "mps_cap25", ...
struct IsolationRun {
  std::string setting;
  std::optional<int> neighbour_cap;                // CUDA_MPS_ACTIVE_THREAD_PERCENTAGE of the neighbour
  std::vector<double> latency_us;
  std::optional<double> neighbour_kernels_per_s;  // none for "alone"
};

struct ThreadLimitCheck {
  int percent = 0;
  int sms_seen = 0, sm_total = 0;
  double gflops = 0;           // saturating FMA throughput under the cap
  double baseline_gflops = 0;  // the same under MPS at 100%
};

struct MemoryLimitCheck {
  long limit_mib = 0, within_mib = 0, beyond_mib = 0;
  bool within_ok = false, beyond_failed = false;
  std::string within_error, beyond_error;
};

struct Skip {
  std::string part, reason;
};

struct BenchResults {
  std::string started_at;  // ISO 8601 UTC
  double elapsed_s = 0;
  std::string command_line;
  BenchOptions options;
  BenchPlan plan;
  DeviceInfo device;
  std::optional<StreamsResult> streams;
  std::vector<ClientRun> clients;
  std::optional<double> neighbour_alone_kernels_per_s;
  std::vector<IsolationRun> isolation;
  std::vector<ThreadLimitCheck> thread_limits;
  std::optional<MemoryLimitCheck> memory_limit;
  std::optional<measure::ColocationGrid> colocation;
  std::vector<measure::SmSharePoint> sm_share_curve;  // --sweep: one copy of the program per MPS thread cap  // --client-cmd: the user's program per mode and K
  std::vector<Skip> skipped;
};

}  // namespace gpupack::bench
