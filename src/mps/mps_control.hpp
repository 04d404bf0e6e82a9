#pragma once
// A client for nvidia-cuda-mps-control's stdin protocol: one command per call, written to the control
// program's stdin with the daemon's pipe and log directories in its environment; the reply is what it
// prints. See ../shared/reference/mps.md for the commands.
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "os/process_runner.hpp"

namespace gpupack {

// Where one MPS control daemon keeps its control socket and pid file, and its logs. Clients must use the
// same pipe directory.
struct MpsPaths {
  std::string pipe_dir;
  std::string log_dir;
};

// What goes wrong with MPS that the user can see and fix: the message names the cause.
class MpsError : public std::runtime_error {
 public:
  explicit MpsError(const std::string& message) : std::runtime_error(message) {}
};

struct MpsReply {
  bool ok = false;       // the control program exited 0 within the timeout
  std::string text;      // its stdout, trailing whitespace removed
  std::string error;     // why it failed (stderr, exit code or timeout) when !ok
};

enum class MpsServerState { initializing, active, fault, unknown };
const char* to_string(MpsServerState state);
MpsServerState parse_server_state(const std::string& reply);

// One row of `ps`: a client process and the server it talks to.
struct MpsProcess {
  int pid = 0;
  int server_pid = 0;
  std::string device;
  std::string command;
};

class MpsControl {
 public:
  static constexpr const char* kDefaultBinary = "nvidia-cuda-mps-control";

  MpsControl(ProcessRunner& runner, MpsPaths paths, std::string binary = kDefaultBinary,
             std::chrono::milliseconds timeout = std::chrono::milliseconds(5000));

  // Sends one command (e.g. "get_server_list", "quit", "set_default_active_thread_percentage 50").
  MpsReply send(const std::string& command) const;

  // Typed helpers over send(); they throw MpsError when the daemon does not answer.
  std::vector<int> server_list() const;
  MpsServerState server_status(int server_pid) const;
  std::vector<int> client_list(int server_pid) const;
  std::vector<MpsProcess> ps() const;
  void start_server(unsigned uid) const;
  void set_default_active_thread_percentage(int percent) const;
  // `value` in the control program's syntax: 512M, 10G.
  void set_default_device_pinned_mem_limit(int device, const std::string& value) const;

  // The environment a process needs to reach this daemon (control program or MPS client).
  std::map<std::string, std::string> environment() const;
  const MpsPaths& paths() const { return paths_; }
  const std::string& binary() const { return binary_; }

 private:
  MpsReply checked(const std::string& command) const;

  ProcessRunner& runner_;
  MpsPaths paths_;
  std::string binary_;
  std::chrono::milliseconds timeout_;
};

// Parses whitespace-separated integers (get_server_list, get_client_list replies); other words ignored.
std::vector<int> parse_pid_list(const std::string& text);

}  // namespace gpupack
