#pragma once
// `gpupack profile`'s measurement of one run of a program: it starts the program with GPUPACK_REPORT
// set, samples the GPU (memory of the process tree, GPM activity or NVML utilisation), the tree's host
// CPU time and the client report, and keeps only the steady window: from the program's ready line, or
// from its first GPU memory plus a warm-up, for `duration`. Start-up never counts.
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/gpu_catalog.hpp"
#include "gpu/gpu_backend.hpp"
#include "measure/report_source.hpp"
#include "measure/workload_profile.hpp"
#include "os/clock.hpp"
#include "os/cpu_work_probe.hpp"
#include "os/proc_reader.hpp"
#include "os/process_runner.hpp"

namespace gpupack::measure {

// The program could not be measured (never used the GPU, exited before the window, did not start in
// time): one line for the user. No profile is produced.
class ProfileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Ctrl-C or SIGTERM arrived; the program was stopped.
class ProfileInterrupted : public std::runtime_error {
 public:
  ProfileInterrupted() : std::runtime_error("interrupted") {}
};

struct SteadyOptions {
  std::vector<std::string> command;
  std::string name;                        // default: the program's file name
  std::map<std::string, std::string> env;  // added to the program's environment (MPS variables)
  std::string report_path;                 // set as GPUPACK_REPORT
  std::chrono::milliseconds interval{500};
  std::chrono::milliseconds warmup{3000};     // after the first GPU memory, when no ready line came
  std::chrono::milliseconds duration{10000};  // the window
  std::chrono::milliseconds startup_timeout{120000};  // until the window must have started
  std::chrono::milliseconds stop_grace{5000};  // SIGTERM, then SIGKILL after this long
  double headroom = 0.15;
  // Whether GPU memory must be seen; sweep runs under MPS (where the server, not the program, may hold
  // the memory) start their window at the ready line instead.
  bool require_gpu = true;
  std::function<bool()> interrupted;  // polled every interval; true stops the program and throws
};

struct SteadyDeps {
  ProcessRunner& runner;
  GpuBackend& gpu;
  ProcReader& proc;
  Clock& clock;
  ReportSource& report;
  const GpuCatalog& catalog;  // names the GPU's model in the profile
  CpuWorkProbe* cpu_probe = nullptr;  // timed once a sample in the window where given (host_core_work)
};

// What a series of fresh runs (the baseline's, the sweep's) needs: SteadyDeps but a report per run.
struct RunsDeps {
  ProcessRunner& runner;
  GpuBackend& gpu;
  ProcReader& proc;
  Clock& clock;
  const GpuCatalog& catalog;
  std::function<std::unique_ptr<ReportSource>(const std::string& path)> open_report;
};

struct SteadyRun {
  WorkloadProfile profile;  // all but the SM-share curve; compute_demand from GPM or utilisation
  int exit_code = 0;
  bool stopped_by_gpupack = false;  // SIGTERM at the window's end (its exit code is then not an error)
  double window_start_seconds = 0;  // since the program started
};

// Throws ProfileError or ProfileInterrupted; std::runtime_error when the program cannot be started.
SteadyRun measure_steady(const SteadyOptions& options, const SteadyDeps& deps);

// compute_demand from what a single run saw: GPM SM activity, else NVML utilisation, else a whole GPU.
ComputeDemand demand_from_activity(const ProfileActivity& activity);

}  // namespace gpupack::measure
