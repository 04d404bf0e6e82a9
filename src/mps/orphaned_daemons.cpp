#include "mps/orphaned_daemons.hpp"

#include <algorithm>
#include <csignal>
#include <map>
#include <set>

#include "mps/mps_daemon.hpp"

namespace gpupack {

namespace {

// The value of `key` in a /proc/PID/environ text (NUL-separated KEY=VALUE entries).
std::string environ_value(const std::string& environ, const std::string& key) {
  size_t start = 0;
  while (start < environ.size()) {
    size_t end = environ.find('\0', start);
    if (end == std::string::npos) end = environ.size();
    if (environ.compare(start, key.size() + 1, key + "=") == 0) return environ.substr(start + key.size() + 1, end - start - key.size() - 1);
    start = end + 1;
  }
  return "";
}

struct Found {
  std::string log_dir;
  std::vector<int> pids;  // the control daemon and its servers
  bool temporary = false; // its environment carries MpsDaemon::kTemporaryEnv
};

// A temporary daemon whose pipe directory was removed under it (a killed test harness removes its temporary
// directory while the command that started the daemon is still quitting it): no quit can reach it any more,
// and no command can use it, so its processes are stopped with SIGTERM, then SIGKILL. True when all are gone.
bool any_alive(const ProcessRunner& runner, const std::vector<int>& pids) {
  return std::any_of(pids.begin(), pids.end(), [&](int pid) { return runner.is_alive(pid); });
}

bool stop_unreachable(ProcessRunner& runner, Clock& clock, const std::vector<int>& pids) {
  for (int sig : {SIGTERM, SIGKILL}) {
    for (int pid : pids) runner.send_signal(pid, sig);
    for (int i = 0; i < 100 && any_alive(runner, pids); ++i) clock.sleep_for(std::chrono::milliseconds(50));  // up to 5 s
    if (!any_alive(runner, pids)) return true;
  }
  return false;
}

}  // namespace

std::vector<std::string> quit_orphaned_daemons(ProcessRunner& runner, Filesystem& fs, Clock& clock,
                                               const std::string& control_binary) {
  const std::string file = control_binary.substr(control_binary.find_last_of('/') + 1);
  // The kernel keeps 15 characters of a command name: nvidia-cuda-mps-control and -server both read
  // "nvidia-cuda-mps".
  const std::string comm = file.substr(0, 15);
  std::map<std::string, Found> by_pipe;
  for (const std::string& name : fs.list_dir("/proc")) {
    if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::string command = fs.read_file("/proc/" + name + "/comm").value_or("");
    while (!command.empty() && command.back() == '\n') command.pop_back();
    if (command != comm) continue;
    const std::string environ = fs.read_file("/proc/" + name + "/environ").value_or("");
    const std::string pipe = environ_value(environ, "CUDA_MPS_PIPE_DIRECTORY");
    if (pipe.empty()) continue;
    Found& f = by_pipe[pipe];
    f.pids.push_back(std::stoi(name));
    if (f.log_dir.empty()) f.log_dir = environ_value(environ, "CUDA_MPS_LOG_DIRECTORY");
    if (environ_value(environ, MpsDaemon::kTemporaryEnv) == "1") f.temporary = true;
  }
  std::vector<std::string> lines;
  for (const auto& [pipe, found] : by_pipe) {
    if (!fs.read_file(pipe + "/" + MpsDaemon::kTemporaryMark)) {
      if (!found.temporary || fs.stat(pipe).exists) continue;  // not a command's own daemon
      const std::string which = "an MPS daemon left by a gpupack command that was killed, its pipe directory removed (pid " +
                                std::to_string(found.pids.front()) + ", pipe directory " + pipe + ")";
      if (stop_unreachable(runner, clock, found.pids)) {
        if (!found.log_dir.empty()) fs.remove_all(found.log_dir);
        lines.push_back("stopped " + which);
      } else {
        lines.push_back("could not stop " + which + ": kill its processes (pids of " + control_binary + ")");
      }
      continue;
    }
    MpsDaemonOptions o;
    o.paths = {pipe, found.log_dir};
    o.binary = control_binary;
    MpsDaemon daemon(runner, fs, clock, o);
    try {
      daemon.lock();  // held: the command that started it still runs
    } catch (const MpsError&) {
      continue;
    }
    const std::string which = "an MPS daemon left by a gpupack command that was killed (pid " +
                              std::to_string(found.pids.front()) + ", pipe directory " + pipe + ")";
    bool gone = daemon.quit();
    // Its servers outlive the control daemon for a moment: wait for them too (up to 10 s), so that the
    // caller's own daemon does not meet a half-dead server owning the GPU.
    for (int i = 0; gone && i < 200 && any_alive(runner, found.pids); ++i) clock.sleep_for(std::chrono::milliseconds(50));
    gone = gone && !any_alive(runner, found.pids);
    daemon.unlock();
    if (!gone) {
      lines.push_back("could not quit " + which + ": stop it with: echo quit | CUDA_MPS_PIPE_DIRECTORY=" + pipe + " " +
                      control_binary);
      continue;
    }
    fs.remove_all(pipe);
    if (!found.log_dir.empty()) fs.remove_all(found.log_dir);
    lines.push_back("quit " + which);
  }
  return lines;
}

}  // namespace gpupack
