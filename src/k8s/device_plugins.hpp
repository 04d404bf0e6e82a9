#pragma once
// All of the node's device plugins: one DevicePluginServer per advertised resource, registration with
// kubelet, the CDI spec, health from the GPU layer, and a watcher thread that re-serves and re-registers
// after a kubelet restart (inotify on the plugin directory, plus a once-a-second check of our sockets
// in case an event was missed). This is what the agent runs; tests drive it against a kubelet simulator.
#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "gpu/gpu_backend.hpp"
#include "k8s/device_plan.hpp"
#include "k8s/device_plugin_server.hpp"
#include "k8s/health.hpp"
#include "contract/node_config.hpp"
#include "k8s/socket_watch.hpp"
#include "os/filesystem.hpp"

namespace gpupack::k8s {

class DevicePlugins {
 public:
  using Log = std::function<void(const std::string&)>;

  // `fs` answers whether a socket is still there and which kubelet.sock is (the Env's files, os/env.hpp).
  DevicePlugins(std::vector<PluginResource> resources, DevicePluginSettings settings, Filesystem& fs, Log log = {});
  ~DevicePlugins();
  DevicePlugins(const DevicePlugins&) = delete;
  DevicePlugins& operator=(const DevicePlugins&) = delete;

  // Writes the CDI spec (when settings.cdi), serves every resource and starts the watcher thread, which
  // registers each plugin. kubelet not running yet is no error: registration happens when kubelet.sock
  // appears. Throws std::runtime_error when the directory cannot be watched or a socket not bound.
  void start();
  // Stops watching and serving; removes our sockets. Idempotent.
  void stop();

  // From the GPU layer's latest snapshot and the XID events since the previous one.
  void update_health(const std::vector<GpuDeviceInfo>& devices, const std::vector<XidEvent>& xids);
  // Takes over the sticky XID verdicts of plugins this one replaces; call before start().
  void carry_health_from(const DevicePlugins& previous);

  const std::vector<PluginResource>& resources() const { return resources_; }
  const DevicePluginSettings& settings() const { return settings_; }
  DevicePluginServer* server(const std::string& resource_name);
  std::uint64_t registrations() const { return registrations_.load(); }  // successful Register calls

 private:
  void watch_loop();
  // PreStartContainer of every plugin: refuses a container that holds two GPU resources (container_check.hpp).
  std::string check_container(const std::string& resource, const std::vector<std::string>& ids) const;
  void reconcile();

  const std::vector<PluginResource> resources_;
  Filesystem& fs_;
  const DevicePluginSettings settings_;
  const Log log_;
  std::vector<std::unique_ptr<DevicePluginServer>> servers_;
  // Per server, the kubelet.sock it registered with (inode and change time; empty: not registered). A
  // new kubelet makes a new socket file, which is how a restart is told from our own events.
  std::vector<std::string> registered_with_;  // touched by the watcher thread only once it runs
  mutable std::mutex health_mutex_;
  HealthTracker health_;
  std::unique_ptr<DirectoryWatch> watch_;
  std::thread watcher_;
  std::atomic<bool> stopping_{false};
  std::atomic<std::uint64_t> registrations_{0};
};

// The UUIDs a resource list covers, for HealthTracker.
HealthTracker health_tracker_for(const std::vector<PluginResource>& resources);

}  // namespace gpupack::k8s
