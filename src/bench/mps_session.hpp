#pragma once
// gpupack bench's own MPS control daemon: private pipe and log directories under a fresh temporary
// directory (never the system's /tmp/nvidia-mps), started through mps/MpsDaemon and always shut down with
// `quit`: by quit(), by the destructor when an experiment throws, and so on Ctrl-C too (bench turns
// SIGINT/SIGTERM into an exception, see interrupt.hpp).
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "mps/mps_daemon.hpp"
#include "os/env.hpp"
#include "os/process_runner.hpp"

namespace gpupack::bench {

struct MpsSessionOptions {
  std::string control_binary = "nvidia-cuda-mps-control";
  std::string gpu_uuid;       // CUDA_VISIBLE_DEVICES of the daemon; empty: the default device
  std::string temp_base;      // where the temporary directory goes; empty: temp_root (TMPDIR or /tmp)
  bool check_foreign_daemons = true;  // refuse when another MPS daemon runs on this machine
};

class MpsSession {
 public:
  // Starts the daemon. On failure returns nullptr and sets `why_not` to the reason (missing binary, not
  // Linux, another daemon owns the GPU, the daemon failed): bench reports MPS as skipped with it. The
  // temporary directory, the daemon's files and its waits go through `env` (its fs, clock and vars),
  // which must outlive the session.
  static std::unique_ptr<MpsSession> start(const MpsSessionOptions& options, Env env, std::string& why_not);
  ~MpsSession();
  MpsSession(const MpsSession&) = delete;
  MpsSession& operator=(const MpsSession&) = delete;

  // What an MPS client needs in its environment (the private pipe and log directories).
  std::map<std::string, std::string> client_environment() const;
  const MpsPaths& paths() const { return paths_; }
  // Sends quit, waits until the daemon is gone, removes the temporary directory. Idempotent; returns
  // false when the daemon was still there at the timeout.
  bool quit();
  bool running() const { return !quit_done_; }

 private:
  MpsSession(const MpsSessionOptions& options, Env env, std::string temp_dir);

  PosixProcessRunner runner_;
  Filesystem& fs_;
  Clock& clock_;
  std::string temp_dir_;
  MpsPaths paths_;
  std::unique_ptr<MpsDaemon> daemon_;
  bool quit_done_ = false;
};

// Pids of MPS control daemons or servers that are not ours (from /proc, read through `fs`): while one
// runs, it owns the GPU.
std::vector<int> foreign_mps_processes(const Filesystem& fs);
// Whether a control program is NVIDIA's own (by file name): only then can another MPS daemon on this machine
// own the GPU that ours would serve. A fake control program (tests, --mps-control) never meets a real
// daemon, and checking for one would see the fakes of tests that run beside it.
bool is_nvidia_mps_control(const std::string& control_binary);

}  // namespace gpupack::bench
