#pragma once
// One run of a configuration: start a private MPS daemon per MPS slice with the rendered defaults, start
// every replica with its rendered environment plus GPUPACK_REPORT / GPUPACK_GO, wait until every replica
// that speaks the client report wrote its ready line, release them together (the go file), measure the
// window, then stop everything: replicas (SIGTERM to the process tree, SIGKILL after a grace) and daemons
// (quit). Stopping happens on every way out: success, a failure, an exception, Ctrl-C.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpu/gpu_backend.hpp"
#include "measure/client_report.hpp"
#include "measure/report_source.hpp"
#include "os/clock.hpp"
#include "os/cpu_work_probe.hpp"
#include "os/filesystem.hpp"
#include "os/proc_reader.hpp"
#include "os/process_runner.hpp"
#include "verify/shared_stalls.hpp"
#include "verify/verify_setup.hpp"
#include "verify/window_activity.hpp"

namespace gpupack::verify {

// The configuration could not be measured (a daemon did not start, a replica never got ready or died
// before it): one line naming what and why. Everything was stopped before it is thrown.
class VerifyFailure : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Ctrl-C or SIGTERM; everything was stopped before it is thrown.
class VerifyInterrupted : public std::runtime_error {
 public:
  VerifyInterrupted() : std::runtime_error("interrupted") {}
};

struct SessionOptions {
  double warmup_s = 5;          // after the release, before the window
  double duration_s = 20;       // the window
  double ready_timeout_s = 120;  // from the start until every reporting replica is ready
  double stop_grace_s = 5;      // SIGTERM, then SIGKILL
  double poll_s = 0.02;         // how often reports and children are looked at
  double sample_s = 0.5;        // how often the GPU is sampled (memory, activity)
  std::string mps_control = "nvidia-cuda-mps-control";
  std::string work_dir;         // an existing private directory for this run's files
  std::function<bool()> interrupted;
};

struct SessionDeps {
  ProcessRunner& runner;
  Filesystem& fs;
  Clock& clock;
  ProcReader& proc;
  GpuBackend* gpu = nullptr;  // none: memory and activity are not checked
  std::function<std::unique_ptr<measure::ReportSource>(const std::string& path)> open_report;
  CpuWorkProbe* cpu_probe = nullptr;  // none: the node's host speed is not timed (VerifyReport::host_core_work)
};

struct ReplicaRun {
  std::string name;                 // workload-replica
  std::optional<int> exit_code;     // when it ended by itself during the run
  bool ended_early = false;         // it ended by itself before the window's end
  bool reported = false;            // a valid ready line arrived
  std::optional<measure::ReportFigures> figures;  // over the window
  std::vector<RequestSpan> requests;  // the window's request lines, in gpupack's clock (for shared stalls)
  long malformed_lines = 0;
  std::optional<std::uint64_t> peak_memory_bytes;  // of its process tree, from the GPU samples
  bool gpu_seen = false;            // a process of its tree appeared on the GPU
  std::string log_tail;             // the end of its stdout/stderr (for messages)
};

struct SessionRun {
  std::vector<std::vector<ReplicaRun>> slices;  // parallel to the setup's slices and replicas
  double window_s = 0;
  // Per slice, the GPU's GPM activity over the window (verify/window_activity.hpp); none without GPM.
  std::vector<std::optional<WindowActivity>> activity;
};

// Throws VerifyFailure, VerifyInterrupted, or MpsError when a daemon cannot be started.
SessionRun run_session(const std::vector<SliceSetup>& slices, const SessionOptions& options, const SessionDeps& deps);

}  // namespace gpupack::verify
