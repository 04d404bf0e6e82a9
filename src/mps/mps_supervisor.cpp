#include "mps/mps_supervisor.hpp"

#include <algorithm>

namespace gpupack {

MpsSupervisor::MpsSupervisor(ProcessRunner& runner, Filesystem& fs, Clock& clock, MpsSupervisorOptions options)
    : clock_(clock), options_(std::move(options)), daemon_(runner, fs, clock, options_.daemon) {}

MpsSupervisor::~MpsSupervisor() = default;

void MpsSupervisor::apply_defaults() {
  const MpsControl& c = daemon_.control();
  if (options_.active_thread_percentage) c.set_default_active_thread_percentage(*options_.active_thread_percentage);
  for (const auto& [device, value] : options_.pinned_mem_limits) c.set_default_device_pinned_mem_limit(device, value);
}

void MpsSupervisor::ensure_server() {
  if (!options_.server_uid) return;
  if (!daemon_.control().server_list().empty()) return;
  daemon_.control().start_server(*options_.server_uid);
  if (saw_server_) {
    std::lock_guard<std::mutex> g(mutex_);
    ++status_.server_restarts;
  }
  saw_server_ = true;
}

void MpsSupervisor::bring_up() {
  daemon_.lock();
  // Defaults apply only to servers started afterwards and are lost when the daemon quits, so a daemon
  // we did not start gets them too, before its server starts.
  if (!daemon_.is_running()) {
    daemon_.start();
    // Counted as soon as the daemon runs again: when applying the defaults or starting the server
    // fails right after (an old server still leaving the GPU), the restart happened all the same.
    if (started_) {
      std::lock_guard<std::mutex> g(mutex_);
      ++status_.daemon_restarts;
    }
  }
  known_daemon_pid_ = daemon_.pid();
  apply_defaults();
  ensure_server();
}

void MpsSupervisor::start() {
  bring_up();
  started_ = true;
  check();
}

void MpsSupervisor::failed(const std::string& why) {
  backoff_ = backoff_.count() == 0 ? options_.backoff_initial : std::min(backoff_ * 2, options_.backoff_max);
  next_attempt_ = clock_.now() + backoff_;
  std::lock_guard<std::mutex> g(mutex_);
  status_.last_error = why;
}

void MpsSupervisor::check() {
  if (!started_) return;
  MpsStatus seen;
  try {
    if (!daemon_.is_running()) {
      {
        std::lock_guard<std::mutex> g(mutex_);
        status_.daemon_up = false;
        status_.daemon_pid.reset();
        status_.servers.clear();
      }
      if (clock_.now() < next_attempt_) return;
      bring_up();
    } else {
      // A daemon with another pid than the one we saw was restarted behind our back (killed and
      // started again between two checks): a restart too.
      const auto pid = daemon_.pid();
      if (pid && known_daemon_pid_ && *pid != *known_daemon_pid_) {
        std::lock_guard<std::mutex> g(mutex_);
        ++status_.daemon_restarts;
      }
      if (pid) known_daemon_pid_ = pid;
      ensure_server();
    }
    const MpsControl& c = daemon_.control();
    seen.daemon_up = true;
    seen.daemon_pid = daemon_.pid();
    for (int pid : c.server_list()) {
      MpsServerStatus s;
      s.pid = pid;
      s.state = c.server_status(pid);
      s.clients = c.client_list(pid);
      seen.servers.push_back(s);
    }
  } catch (const std::exception& e) {
    failed(e.what());
    return;
  }
  backoff_ = std::chrono::milliseconds(0);
  std::lock_guard<std::mutex> g(mutex_);
  seen.daemon_restarts = status_.daemon_restarts;
  seen.server_restarts = status_.server_restarts;
  status_ = std::move(seen);
}

bool MpsSupervisor::stop() {
  const bool was_started = started_;
  started_ = false;
  if (!was_started) return true;
  const bool gone = daemon_.quit();
  std::lock_guard<std::mutex> g(mutex_);
  status_.daemon_up = !gone;
  status_.servers.clear();
  return gone;
}

void MpsSupervisor::set_defaults(std::optional<int> active_thread_percentage,
                                 std::vector<std::pair<int, std::string>> pinned_mem_limits) {
  options_.active_thread_percentage = active_thread_percentage;
  options_.pinned_mem_limits = std::move(pinned_mem_limits);
  if (!started_) return;
  try {
    apply_defaults();
  } catch (const std::exception& e) {
    failed(e.what());  // the next restart applies them
  }
}

MpsStatus MpsSupervisor::status() const {
  std::lock_guard<std::mutex> g(mutex_);
  return status_;
}

}  // namespace gpupack
