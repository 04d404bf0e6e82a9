#pragma once
// Keeps one MPS control daemon healthy: starts it with gpupack's defaults applied, checks it through the
// control pipe, restarts the daemon or its server with exponential backoff when they die, and records
// what it saw (daemon up, server states, clients, restarts) for status output and metrics.
#include <chrono>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "mps/mps_daemon.hpp"

namespace gpupack {

struct MpsSupervisorOptions {
  MpsDaemonOptions daemon;
  std::optional<int> active_thread_percentage;             // set_default_active_thread_percentage
  std::vector<std::pair<int, std::string>> pinned_mem_limits;  // set_default_device_pinned_mem_limit dev value
  // Keep one server running for this uid (start_server -uid): it picks up the defaults above and is
  // ready before the first client; a server that dies is started again.
  std::optional<unsigned> server_uid;
  std::chrono::milliseconds backoff_initial{500};
  std::chrono::milliseconds backoff_max{30'000};
};

struct MpsServerStatus {
  int pid = 0;
  MpsServerState state = MpsServerState::unknown;
  std::vector<int> clients;
};

struct MpsStatus {
  bool daemon_up = false;
  std::optional<int> daemon_pid;
  std::vector<MpsServerStatus> servers;
  int daemon_restarts = 0;  // starts after the first
  int server_restarts = 0;  // servers started again after one was seen
  std::string last_error;   // the most recent failure, empty when the last check was clean
};

class MpsSupervisor {
 public:
  MpsSupervisor(ProcessRunner& runner, Filesystem& fs, Clock& clock, MpsSupervisorOptions options);
  ~MpsSupervisor();
  MpsSupervisor(const MpsSupervisor&) = delete;
  MpsSupervisor& operator=(const MpsSupervisor&) = delete;

  // Locks the pipe directory, starts the daemon (or adopts one already running there), applies the
  // defaults and starts the server. Throws MpsError when that fails.
  void start();
  // One health check and, when something died, one repair attempt (subject to backoff). Never throws.
  void check();
  // quit, then wait for the daemon to go. Returns false when it did not go in time.
  bool stop();

  // New per-client defaults (a config reload): applied to the running daemon at once, so servers started
  // from now on get them; running servers and their clients are left alone.
  void set_defaults(std::optional<int> active_thread_percentage, std::vector<std::pair<int, std::string>> pinned_mem_limits);

  MpsStatus status() const;
  const MpsDaemon& daemon() const { return daemon_; }

 private:
  void bring_up();  // start daemon, defaults, server; throws
  void apply_defaults();
  void ensure_server();
  void failed(const std::string& why);

  Clock& clock_;
  MpsSupervisorOptions options_;
  MpsDaemon daemon_;
  bool started_ = false;
  bool saw_server_ = false;
  std::optional<int> known_daemon_pid_;  // the daemon last seen, to notice one replaced between checks
  std::chrono::milliseconds backoff_{0};
  Clock::time_point next_attempt_{};
  mutable std::mutex mutex_;  // guards status_ (read by the metrics thread)
  MpsStatus status_;
};

}  // namespace gpupack
