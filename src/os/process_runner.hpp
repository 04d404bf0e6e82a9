#pragma once
// Running other programs (nvidia-cuda-mps-control, a user's command) behind a small interface, so the
// MPS layer and the agent can be tested with a fake runner or a fake control program. Never a shell:
// argv goes to exec as is.
#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace gpupack {

struct ProcessSpec {
  std::vector<std::string> argv;             // argv[0] is a path or a name looked up in PATH
  std::map<std::string, std::string> env;    // added to (and overriding) the inherited environment
  std::string stdin_text;                    // written to the child's stdin, which is then closed
  std::chrono::milliseconds timeout{10'000};  // run(): the child is killed (SIGKILL) after this long
  // spawn(): descriptors of gpupack the child keeps, at the same numbers (every other one of gpupack's is
  // close-on-exec). gpupack run passes its admission slot's lock, so the slot lives as long as the program.
  std::vector<int> inherited_fds;
};

struct ProcessResult {
  int exit_code = -1;  // the child's exit status; 128 + signal when a signal ended it; 127 when exec failed
  std::string out, err;
  bool timed_out = false;
};

// A child that runs on while the caller does other things (gpupack run / profile). Stdin, stdout and
// stderr are inherited from gpupack.
class ChildProcess {
 public:
  virtual ~ChildProcess() = default;
  virtual int pid() const = 0;
  // The exit status (same encoding as ProcessResult::exit_code) once the child has ended.
  virtual std::optional<int> poll() = 0;
  virtual int wait() = 0;
  virtual void signal(int sig) = 0;
};

// Whether a /proc/PID/stat line is a zombie's (state Z after the command name in parentheses): ended, not
// yet reaped, e.g. under a container init that never reaps. It owns nothing and counts as gone.
bool is_zombie_stat(const std::string& stat_line);

class ProcessRunner {
 public:
  virtual ~ProcessRunner() = default;
  // Runs to completion, capturing stdout and stderr. A program that forks a daemon (mps-control -d)
  // returns when the direct child exits, even if the daemon keeps the pipes open.
  virtual ProcessResult run(const ProcessSpec& spec) = 0;
  // Starts a child with the inherited stdio; throws std::runtime_error when it cannot be started.
  virtual std::unique_ptr<ChildProcess> spawn(const ProcessSpec& spec) = 0;
  // Whether a process with this pid exists (not a zombie of ours).
  virtual bool is_alive(int pid) const = 0;
  virtual bool send_signal(int pid, int sig) = 0;
  // The absolute path of an executable (a name searched in PATH, or a path checked as is).
  virtual std::optional<std::string> find_program(const std::string& name) const = 0;
};

// The real thing: posix_spawnp, pipes, poll.
class PosixProcessRunner : public ProcessRunner {
 public:
  ProcessResult run(const ProcessSpec& spec) override;
  std::unique_ptr<ChildProcess> spawn(const ProcessSpec& spec) override;
  bool is_alive(int pid) const override;
  bool send_signal(int pid, int sig) override;
  std::optional<std::string> find_program(const std::string& name) const override;
};

}  // namespace gpupack
