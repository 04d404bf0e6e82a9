#include "agent/agent.hpp"

#include "os/logger.hpp"

#include <signal.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iostream>

#include "agent/admission_slots.hpp"
#include "agent/mps_targets.hpp"
#include "core/errors.hpp"
#include "k8s/allocation.hpp"
#include "k8s/device_plugins.hpp"

namespace gpupack {

Agent::Agent(AgentDeps deps, std::string config_path, std::string version)
    : deps_(deps), config_path_(std::move(config_path)), version_(std::move(version)) {}

Agent::~Agent() { stop(); }

void Agent::log(const std::string& line, LogLevel level) const {
  // The level as a word the agent command's log redirect reads back (os/logger.hpp); info goes unmarked.
  std::cerr << "gpupack agent: " << (level == LogLevel::info ? std::string() : std::string(to_string(level)) + ": ") << line
            << std::endl;
}

void Agent::start_supervisors() {
  for (auto& t : mps_targets(config_, deps_.gpu.devices(), deps_.fs.effective_uid())) {
    auto s = std::make_unique<MpsSupervisor>(deps_.runner, deps_.fs, deps_.clock, t.options);
    s->start();
    log("MPS daemon up for " + t.target_uuid + " (pipe directory " + t.options.daemon.paths.pipe_dir + ")");
    supervisors_[t.target_uuid] = std::move(s);
  }
}

void Agent::start(int port_override) {
  // The whole file is checked before any directory, lock or daemon is touched, as at reload: a bad file
  // (device_plugin section included) is an input error (exit 2), never an MPS or internal one.
  config_ = load_node_config(deps_.fs, config_path_);
  check_against_devices(config_, deps_.gpu.devices(), deps_.catalog);
  check_device_plugins(config_);
  secure_mps_root(deps_.fs, config_);
  prepare_slots();
  auto [host, port] = split_address(config_.metrics_address);
  start_supervisors();
  start_device_plugins();  // after the MPS daemons: advertise only what is up
  {
    std::lock_guard<std::mutex> g(mutex_);
    last_gpu_read_ = deps_.clock.now();  // staleness counts from the start, not from the clock's epoch
  }
  http_ = std::make_unique<HttpEndpoint>([this] { return metrics_shared(); }, [this] { return health(); });
  refresh();
  port_ = http_->start(host, port_override >= 0 ? port_override : port);
  log("serving /metrics and /healthz on " + host + ":" + std::to_string(port_) + " (GPU backend " + deps_.gpu.name() + ")");
}

NodeSnapshot Agent::build_snapshot(const std::vector<GpuDeviceInfo>& devices) const {
  NodeSnapshot s;
  s.version = version_;
  s.backend = deps_.gpu.name();
  s.devices = devices;
  const auto targets = resolve_targets(config_, devices);
  const std::string locks = deps_.fs.read_file("/proc/locks").value_or("");
  for (const auto& t : targets) {
    SharingSnapshot sh;
    sh.gpu_uuid = t.device->uuid;
    sh.target_uuid = t.uuid();
    sh.mode = std::string(to_string(t.config->mode));
    sh.clients_limit = t.config->clients;
    sh.clients_admitted = AdmissionSlots(deps_.fs, AdmissionSlots::dir_for(config_, sh.target_uuid), t.config->clients).held(locks);
    sh.sm_percent = t.config->limits.sm_percent;
    sh.memory_limit_bytes = t.config->limits.memory_bytes;
    sh.tenant = t.config->tenant.value_or("");
    sh.predicted_sm_active = t.config->predicted_sm_active;
    s.sharing.push_back(sh);
  }
  for (const auto& [target, sup] : supervisors_) {
    s.mps.push_back({target, sup->daemon().options().paths.pipe_dir, sup->status()});
  }
  for (const auto& d : devices) {
    for (const auto& p : d.processes) {
      ProcessSnapshot ps;
      const int pid = static_cast<int>(p.pid);
      ps.uid = deps_.proc.uid(pid);
      if (const auto cg = deps_.proc.cgroup(pid)) {
        if (const auto pod = pod_from_cgroup(*cg)) {
          ps.pod_uid = pod->pod_uid;
          ps.container_id = pod->container_id;
        }
      }
      if (!pod_allocations_.empty()) {
        if (const auto ids = deps_.proc.environment_variable(pid, k8s::kDeviceIdsEnv)) {
          if (const auto pod = k8s::pod_of_client(*ids, pod_allocations_)) {
            ps.pod = pod->pod;
            ps.pod_namespace = pod->pod_namespace;
            ps.container = pod->container;
          }
        }
      }
      if (const auto env = deps_.proc.environment_variable(pid, "CUDA_MPS_PINNED_DEVICE_MEM_LIMIT")) {
        ps.allocated_bytes = pinned_limit_device0(*env);
      }
      if (const auto env = deps_.proc.environment_variable(pid, "CUDA_MPS_ACTIVE_THREAD_PERCENTAGE")) {
        ps.allocated_sm_ratio = active_thread_ratio(*env);
      }
      if (!ps.allocated_bytes || !ps.allocated_sm_ratio) {
        // The configured default of the target the process runs on.
        for (const auto& t : targets) {
          if (t.device != &d) continue;
          if (t.mig && p.gpu_instance_id != t.mig->gpu_instance_id) continue;
          if (!ps.allocated_bytes) ps.allocated_bytes = t.config->limits.memory_bytes;
          if (!ps.allocated_sm_ratio && t.config->limits.sm_percent) ps.allocated_sm_ratio = *t.config->limits.sm_percent / 100.0;
        }
      }
      s.processes[p.pid] = ps;
    }
  }
  s.xid_errors = xid_errors_;
  s.reloads = reloads_;
  s.reload_failures = reload_failures_;
  s.last_refresh_unix_seconds = std::floor(deps_.clock.unix_seconds() * 1000) / 1000;
  return s;
}

void Agent::refresh() {
  for (auto& [target, sup] : supervisors_) {
    const bool was_up = sup->status().daemon_up;
    sup->check();
    const MpsStatus st = sup->status();
    if (was_up && !st.daemon_up) log("MPS daemon for " + target + " is down; restarting with backoff", LogLevel::warning);
    if (!st.last_error.empty()) log("MPS " + target + ": " + st.last_error, LogLevel::warning);
  }
  std::string text;
  HealthReport h;
  bool gpus_read = false;
  try {
    const auto devices = deps_.gpu.devices();
    const auto xids = deps_.gpu.poll_xid_events();
    if (device_plugins_) device_plugins_->update_health(devices, xids);
    for (const auto& x : xids) {
      ++xid_errors_[x.uuid];
      log("XID " + std::to_string(x.xid) + " on " + x.uuid, LogLevel::warning);
    }
    refresh_pod_allocations();
    text = render_node_metrics(build_snapshot(devices), deps_.catalog);
    h.text += "gpus: ok (" + std::to_string(devices.size()) + " seen)\n";
    gpus_read = true;
  } catch (const std::exception& e) {
    h.healthy = false;
    h.text += std::string("gpus: ") + e.what() + "\n";
    log(std::string("reading the GPUs failed: ") + e.what(), LogLevel::error);
  }
  for (const auto& [target, sup] : supervisors_) {
    const MpsStatus st = sup->status();
    h.healthy = h.healthy && st.daemon_up;
    h.text += "mps " + target + ": " + (st.daemon_up ? "up" : "down" + (st.last_error.empty() ? "" : " (" + st.last_error + ")")) + "\n";
  }
  std::lock_guard<std::mutex> g(mutex_);
  if (!text.empty()) metrics_ = std::make_shared<const std::string>(std::move(text));
  health_ = h;
  if (gpus_read) last_gpu_read_ = deps_.clock.now();
  stale_after_ = std::max<std::chrono::nanoseconds>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::duration<double>(kStaleIntervals * config_.check_interval_seconds)),
      kStaleFloor);
}

bool Agent::reload() {
  // Everything that can refuse the new file is checked before anything changes: a bad file leaves the
  // old config, the MPS daemons and the device plugins as they were.
  NodeConfig next;
  try {
    next = load_node_config(deps_.fs, config_path_);
    check_against_devices(next, deps_.gpu.devices(), deps_.catalog);
    check_device_plugins(next);
    secure_mps_root(deps_.fs, next);
  } catch (const std::exception& e) {
    ++reload_failures_;
    log(std::string("reload refused, the old config stays in force: ") + e.what(), LogLevel::error);
    return false;
  }
  if (next.metrics_address != config_.metrics_address) log("metrics_address changes take effect at the next restart", LogLevel::warning);
  const auto targets = mps_targets(next, deps_.gpu.devices(), deps_.fs.effective_uid());
  std::map<std::string, const MpsTarget*> wanted;
  for (const auto& t : targets) wanted[t.target_uuid] = &t;
  // Targets no longer in mode mps: their daemons quit. Kept targets: new defaults, daemon untouched
  // (its clients keep running).
  for (auto it = supervisors_.begin(); it != supervisors_.end();) {
    const auto w = wanted.find(it->first);
    if (w == wanted.end()) {
      log("MPS for " + it->first + " is no longer configured; quitting its daemon");
      it->second->stop();
      it = supervisors_.erase(it);
      continue;
    }
    it->second->set_defaults(w->second->options.active_thread_percentage, w->second->options.pinned_mem_limits);
    ++it;
  }
  config_ = next;
  prepare_slots();
  start_device_plugins(true);
  for (const auto& t : targets) {
    if (supervisors_.count(t.target_uuid)) continue;
    auto s = std::make_unique<MpsSupervisor>(deps_.runner, deps_.fs, deps_.clock, t.options);
    try {
      s->start();
      log("MPS daemon up for " + t.target_uuid);
    } catch (const MpsError& e) {
      log("MPS daemon for " + t.target_uuid + " did not start: " + e.what(), LogLevel::error);
    }
    supervisors_[t.target_uuid] = std::move(s);
  }
  ++reloads_;
  log("config reloaded from " + config_path_);
  return true;
}

void Agent::prepare_slots() {
  try {
    prepare_admission_slots(deps_.fs, config_, deps_.gpu.devices());
  } catch (const std::runtime_error& e) {
    log(std::string("admission slots not laid out (gpupack run creates them if it can): ") + e.what(), LogLevel::warning);
  }
}

void Agent::stop() {
  device_plugins_.reset();  // stop advertising before the MPS daemons go
  if (http_) http_->stop();
  for (auto& [target, sup] : supervisors_) {
    if (sup->stop()) {
      log("MPS daemon for " + target + " quit");
    } else {
      log("MPS daemon for " + target + " did not quit in time", LogLevel::warning);
    }
  }
  supervisors_.clear();
}

namespace {
sigset_t agent_signals() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGHUP);
  return set;
}
}  // namespace

void Agent::block_signals() {
  const sigset_t set = agent_signals();
  ::pthread_sigmask(SIG_BLOCK, &set, nullptr);
}

int Agent::run_until_signal() {
  const sigset_t set = agent_signals();
  for (;;) {
    const double interval = config_.check_interval_seconds;
    timespec ts{};
    ts.tv_sec = static_cast<time_t>(interval);
    ts.tv_nsec = static_cast<long>((interval - std::floor(interval)) * 1e9);
    const int sig = ::sigtimedwait(&set, nullptr, &ts);
    if (sig == SIGHUP) {
      reload();
    } else if (sig == SIGTERM || sig == SIGINT) {
      log(std::string("got ") + (sig == SIGTERM ? "SIGTERM" : "SIGINT") + "; stopping");
      stop();
      return 0;
    }
    refresh();
  }
}

std::string Agent::metrics_text() const { return *metrics_shared(); }

HttpEndpoint::MetricsText Agent::metrics_shared() const {
  std::lock_guard<std::mutex> g(mutex_);
  return metrics_;
}

HealthReport Agent::health() const {
  std::lock_guard<std::mutex> g(mutex_);
  HealthReport h = health_;
  // Judged when asked, in the HTTP thread: a main loop stuck anywhere (a blocking open, a hung driver
  // call) no longer refreshes health_, so its last answer alone would say 200 for good.
  const auto age = deps_.clock.now() - last_gpu_read_;
  if (age > stale_after_) {
    const double seconds = std::chrono::duration<double>(age).count();
    h.healthy = false;
    h.text = "gpus: stale: no GPU read for " + std::to_string(static_cast<long long>(seconds)) + " s (more than " +
             std::to_string(kStaleIntervals) + " check intervals); the agent's loop is stuck or the GPUs cannot be read\n" + h.text;
  }
  return h;
}

}  // namespace gpupack
