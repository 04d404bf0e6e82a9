#pragma once
// `gpupack profile`: runs a program alone and samples its GPU memory and the GPU's utilisation through
// the GPU layer, then turns the peak and the mean into a workload entry for `gpupack plan`.
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gpu/gpu_backend.hpp"
#include "os/clock.hpp"
#include "os/proc_reader.hpp"
#include "os/process_runner.hpp"

namespace gpupack {

struct ProfileOptions {
  std::vector<std::string> command;
  std::string name;  // workload name; default: the program's file name
  std::chrono::milliseconds interval{500};
  std::optional<std::chrono::milliseconds> duration;  // stop the program (SIGTERM) after this long
  double headroom = 0.15;                             // added to the peak memory
};

struct ProfileSample {
  double seconds = 0;
  std::uint64_t memory_bytes = 0;      // the program's GPU memory (its processes, else the device delta)
  std::optional<double> utilization;   // the busiest GPU it used, 0..1
};

struct ProfileResult {
  std::string name;
  int exit_code = 0;
  bool stopped_at_duration = false;
  std::vector<ProfileSample> samples;
  std::uint64_t peak_memory_bytes = 0;
  std::uint64_t memory_with_headroom_bytes = 0;  // rounded up to a whole MiB
  std::optional<double> mean_utilization;
  std::string gpu_name;  // product name of the GPU it ran on (first one if none was seen)
  bool per_process = false;  // memory from the program's own processes (else device delta)
};

ProfileResult profile_program(const ProfileOptions& options, ProcessRunner& runner, GpuBackend& gpu, ProcReader& proc,
                              Clock& clock);

// The YAML workload entry `gpupack plan` reads (docs/workloads.md), with comments saying how it was measured.
std::string workload_yaml(const ProfileResult& result);

}  // namespace gpupack
