#pragma once
// One MPS control daemon: start it on private pipe/log directories, ask whether it runs, stop it with
// quit. Used by `gpupack mps`, the agent's supervisor and `gpupack bench` (a private daemon per run).
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "mps/mps_control.hpp"
#include "os/clock.hpp"
#include "os/filesystem.hpp"
#include "os/process_runner.hpp"

namespace gpupack {

struct MpsDaemonOptions {
  MpsPaths paths;
  std::string binary = MpsControl::kDefaultBinary;
  std::vector<std::string> visible_devices;  // GPU UUIDs for CUDA_VISIBLE_DEVICES; empty: all GPUs
  std::optional<unsigned> owner_uid;         // chown the directories to this uid (needs root)
  std::chrono::milliseconds start_timeout{10'000};
  std::chrono::milliseconds quit_timeout{10'000};
  // A daemon one gpupack command starts for itself and quits at its end (profile, bench, verify): start()
  // marks its pipe directory (kTemporaryMark), so that a later command may quit it when the command that
  // started it was killed (mps/orphaned_daemons.hpp). Never for the node agent's daemon, which serves
  // other programs.
  bool temporary = false;
};

class MpsDaemon {
 public:
  // The control daemon's pid file inside the pipe directory (written by nvidia-cuda-mps-control -d).
  static constexpr const char* kPidFile = "nvidia-cuda-mps-control.pid";
  // gpupack's own lock inside the pipe directory: held while a gpupack process manages this daemon.
  static constexpr const char* kLockFile = "gpupack.lock";
  // The mark of a temporary daemon (MpsDaemonOptions::temporary) in its pipe directory.
  static constexpr const char* kTemporaryMark = "gpupack-temporary";
  // The same mark in the temporary daemon's environment (value "1"): it outlives a pipe directory that was
  // removed under the daemon (a killed test harness's temporary directory), after which nothing can reach
  // the daemon through its pipe.
  static constexpr const char* kTemporaryEnv = "GPUPACK_MPS_TEMPORARY";

  MpsDaemon(ProcessRunner& runner, Filesystem& fs, Clock& clock, MpsDaemonOptions options);

  // Creates the directories (mode 0700), takes the lock, clears a stale pid file, runs `<binary> -d`
  // and waits until the daemon answers. Throws MpsError naming the cause: binary missing, not Linux,
  // a directory owned by another user or not writable, the lock held by another gpupack, a daemon
  // already running on this pipe directory, or the daemon not answering.
  void start();
  // Sends quit and waits until the daemon is gone. Returns false if it was still there at the timeout.
  bool quit();
  // A daemon answers on this pipe directory (pid file names a live process, or the control replies).
  bool is_running() const;
  // The daemon's pid from its pid file, when present and alive.
  std::optional<int> pid() const;

  // Creates the pipe directory if needed and takes its lock without starting anything (supervisors
  // hold it for their lifetime).
  // Throws MpsError when another process holds it.
  void lock();
  bool holds_lock() const { return lock_ != nullptr; }
  void unlock() { lock_.reset(); }

  const MpsControl& control() const { return control_; }
  const MpsDaemonOptions& options() const { return options_; }

 private:
  void prepare_directory(const std::string& dir, const char* what);
  void clear_stale_pid_file();

  ProcessRunner& runner_;
  Filesystem& fs_;
  Clock& clock_;
  MpsDaemonOptions options_;
  MpsControl control_;
  std::unique_ptr<FileLock> lock_;
};

}  // namespace gpupack
