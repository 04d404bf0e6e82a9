#pragma once
// The node daemon (`gpupack agent --config node.yaml`): supervises one MPS daemon per GPU or MIG
// instance in mode mps, reads the GPUs every check interval, serves /metrics and /healthz, reloads the
// config on SIGHUP (keeping the old one when the new one is bad) and quits MPS on SIGTERM.
#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "agent/node_config.hpp"
#include "gpu/gpu_backend.hpp"
#include "k8s/pod_resources.hpp"
#include "metrics/http_endpoint.hpp"
#include "metrics/node_snapshot.hpp"
#include "os/logger.hpp"
#include "mps/mps_supervisor.hpp"
#include "os/clock.hpp"
#include "os/filesystem.hpp"
#include "os/proc_reader.hpp"
#include "os/process_runner.hpp"

namespace gpupack {

namespace k8s {
class DevicePlugins;
}

struct AgentDeps {
  ProcessRunner& runner;
  Filesystem& fs;
  Clock& clock;
  ProcReader& proc;
  GpuBackend& gpu;
  const GpuCatalog& catalog;  // the CLI's one catalog: node.yaml's limits and the metrics' model names
};

class Agent {
 public:
  Agent(AgentDeps deps, std::string config_path, std::string version);
  ~Agent();

  // Loads and checks the config (InputError), starts the MPS supervisors (MpsError) and the HTTP
  // endpoint (std::runtime_error). `port_override` >= 0 replaces the configured port (tests use 0).
  void start(int port_override = -1);
  // One pass: supervisors' health checks, a GPU snapshot, new metrics text.
  void refresh();
  // Re-reads the config. On error logs it, keeps the old config and returns false.
  bool reload();
  // Quits the MPS daemons and stops serving.
  void stop();
  // Blocks SIGTERM, SIGINT and SIGHUP in the calling thread and the threads it starts afterwards: call
  // it before start(), so that run_until_signal receives them instead of the HTTP thread.
  static void block_signals();
  // Refreshes every check interval until SIGTERM or SIGINT; SIGHUP reloads. Returns the exit code.
  int run_until_signal();

  std::string metrics_text() const;
  HttpEndpoint::MetricsText metrics_shared() const;  // what /metrics sends, without a copy
  // The last refresh's checks, and "gpus: stale" (unhealthy) when no GPU read succeeded for
  // kStaleIntervals check intervals: judged at each request, so a stuck main loop turns /healthz to 503.
  HealthReport health() const;
  int port() const { return port_; }

 private:
  void start_supervisors();
  // Kubelet device plugins (agent_device_plugins.cpp): (re)started when the config has a device_plugin
  // section and what it advertises changed; the NFD feature file written.
  // At a reload (`reloading`) errors are logged and the running plugins kept, else they are thrown.
  void start_device_plugins(bool reloading = false);
  // Throws what start_device_plugins would meet with `next` (a bad device_plugin section, MPS slices
  // that overcommit a GPU), so that a reload can refuse the file before it changes anything.
  void check_device_plugins(const NodeConfig& next) const;
  // The admission slots of every target (logged, not fatal: gpupack run lays them out itself if it can).
  void prepare_slots();
  // Asks kubelet's PodResources which container holds each allocated device ID (once per refresh, while
  // the device plugins run); on failure logs the error once and names no pods.
  void refresh_pod_allocations();
  NodeSnapshot build_snapshot(const std::vector<GpuDeviceInfo>& devices) const;
  void log(const std::string& line, LogLevel level = LogLevel::info) const;

  AgentDeps deps_;
  std::string config_path_;
  std::string version_;
  NodeConfig config_;
  std::map<std::string, std::unique_ptr<MpsSupervisor>> supervisors_;  // by target UUID
  std::unique_ptr<HttpEndpoint> http_;
  std::unique_ptr<k8s::DevicePlugins> device_plugins_;
  std::map<std::string, k8s::PodContainer> pod_allocations_;  // device ID -> container
  std::string pod_allocations_error_;
  int port_ = 0;
  std::map<std::string, std::uint64_t> xid_errors_;
  std::uint64_t reloads_ = 0, reload_failures_ = 0;
  mutable std::mutex mutex_;  // guards metrics_ and health_ (read by the HTTP thread)
  HttpEndpoint::MetricsText metrics_ = std::make_shared<const std::string>();
  HealthReport health_;
  // /healthz answers 503 once no GPU read succeeded for kStaleIntervals check intervals (at least
  // kStaleFloor, so that a slow read at a short interval does not flap): health() compares at each request.
  static constexpr int kStaleIntervals = 3;
  static constexpr std::chrono::nanoseconds kStaleFloor = std::chrono::seconds(2);
  Clock::time_point last_gpu_read_{};
  std::chrono::nanoseconds stale_after_ = std::chrono::hours(1);
};

}  // namespace gpupack
