#include "bench/mps_session.hpp"

#include <signal.h>

#include <algorithm>

#include "mps/orphaned_daemons.hpp"

namespace gpupack::bench {

namespace {
std::string make_temp_dir(Filesystem& fs, const Environment& vars, const std::string& base_option) {
  const std::string base = !base_option.empty() ? base_option : temp_root(vars);
  try {
    return fs.make_temp_dir(base, "gpupack-bench-mps");
  } catch (const FileError&) {
    throw MpsError("cannot create a temporary directory under " + base);
  }
}
}  // namespace

std::vector<int> foreign_mps_processes(const Filesystem& fs) {
  std::vector<int> pids;
  for (const std::string& name : fs.list_dir("/proc")) {
    if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
    const std::string command = fs.read_file("/proc/" + name + "/comm").value_or("");
    if (command.rfind("nvidia-cuda-mps", 0) != 0) continue;
    // A zombie owns nothing: a daemon that quit after its parent was gone stays one under a container
    // init that never reaps (seen on the device machine after a killed command's daemon was quit).
    if (is_zombie_stat(fs.read_file("/proc/" + name + "/stat").value_or(""))) continue;
    pids.push_back(std::stoi(name));
  }
  std::sort(pids.begin(), pids.end());  // /proc lists them in pid order; say the lowest first as before
  return pids;
}

bool is_nvidia_mps_control(const std::string& control_binary) {
  const auto slash = control_binary.rfind('/');
  return control_binary.substr(slash == std::string::npos ? 0 : slash + 1) == "nvidia-cuda-mps-control";
}

MpsSession::MpsSession(const MpsSessionOptions& options, Env env, std::string temp_dir)
    : fs_(env.fs), clock_(env.clock), temp_dir_(std::move(temp_dir)), paths_{temp_dir_ + "/pipe", temp_dir_ + "/log"} {
  MpsDaemonOptions daemon_options;
  daemon_options.paths = paths_;
  daemon_options.binary = options.control_binary;
  daemon_options.temporary = true;
  if (!options.gpu_uuid.empty()) daemon_options.visible_devices = {options.gpu_uuid};
  daemon_ = std::make_unique<MpsDaemon>(runner_, fs_, clock_, daemon_options);
}

std::unique_ptr<MpsSession> MpsSession::start(const MpsSessionOptions& options, Env env, std::string& why_not) {
  if (options.check_foreign_daemons && is_nvidia_mps_control(options.control_binary)) {
    PosixProcessRunner runner;
    for (const auto& line : quit_orphaned_daemons(runner, env.fs, env.clock, options.control_binary)) env.log.log(line);
    if (const auto pids = foreign_mps_processes(env.fs); !pids.empty()) {
      why_not = "an MPS daemon not started by gpupack already runs (pid " + std::to_string(pids.front()) +
                ") and owns the GPU; stop it (echo quit | nvidia-cuda-mps-control) to measure MPS";
      return nullptr;
    }
  }
  std::unique_ptr<MpsSession> session;
  try {
    session.reset(new MpsSession(options, env, make_temp_dir(env.fs, env.vars, options.temp_base)));
    session->daemon_->start();
    return session;
  } catch (const std::exception& e) {
    why_not = e.what();
    // A daemon that started but did not answer is still told to quit (the destructor does it).
    return nullptr;
  }
}

MpsSession::~MpsSession() { quit(); }

std::map<std::string, std::string> MpsSession::client_environment() const {
  return daemon_->control().environment();
}

bool MpsSession::quit() {
  if (quit_done_) return true;
  quit_done_ = true;
  // The servers outlive the control daemon for a moment after quit; wait for them too, so that the
  // next run (or the next bench) does not find a half-dead server owning the GPU.
  std::vector<int> servers;
  try {
    servers = daemon_->control().server_list();
  } catch (const std::exception&) {
  }
  bool gone = true;
  try {
    gone = daemon_->quit();
  } catch (const std::exception&) {
    gone = false;
  }
  for (int pid : servers) {
    for (int i = 0; i < 200 && ::kill(pid, 0) == 0; ++i) clock_.sleep_for(std::chrono::milliseconds(50));  // up to 10 s each
    gone = gone && ::kill(pid, 0) != 0;
  }
  daemon_->unlock();
  if (gone) fs_.remove_all(temp_dir_);
  return gone;
}

}  // namespace gpupack::bench
