#include "k8s/device_plugins.hpp"

#include <set>

#include "k8s/cdi_spec.hpp"
#include "k8s/container_check.hpp"
#include "k8s/pod_resources.hpp"
#include "k8s/registration.hpp"

namespace gpupack::k8s {

namespace {

// Which file is at `path` now: "" when none. The change time tells a socket made anew on the same inode.
std::string identity(const Filesystem& fs, const std::string& path) {
  const FileInfo info = fs.stat(path);
  if (!info.exists) return "";
  return std::to_string(info.device_major) + ":" + std::to_string(info.device_minor) + ":" +
         std::to_string(info.inode) + ":" + std::to_string(info.change_ns);
}

constexpr auto kTick = std::chrono::milliseconds(1000);
constexpr auto kRegisterTimeout = std::chrono::milliseconds(3000);

}  // namespace

HealthTracker health_tracker_for(const std::vector<PluginResource>& resources) {
  std::set<std::string> gpus, migs;
  for (const auto& r : resources) {
    for (const auto& d : r.devices) {
      gpus.insert(d.gpu_uuid);
      if (d.mig) migs.insert(d.target_uuid);
    }
  }
  return HealthTracker(gpus, migs);
}

DevicePlugins::DevicePlugins(std::vector<PluginResource> resources, DevicePluginSettings settings, Filesystem& fs,
                             Log log)
    : resources_(std::move(resources)),
      fs_(fs),
      settings_(std::move(settings)),
      log_(log ? std::move(log) : Log([](const std::string&) {})),
      health_(health_tracker_for(resources_)) {
  for (const auto& r : resources_) {
    ServerOptions o{settings_.plugin_dir, settings_.policy, settings_.cdi, {}};
    o.pre_start_check = [this, name = r.name](const std::vector<std::string>& ids) { return check_container(name, ids); };
    servers_.push_back(std::make_unique<DevicePluginServer>(r, o, fs_));
  }
  registered_with_.assign(servers_.size(), "");
}

DevicePlugins::~DevicePlugins() { stop(); }

std::string DevicePlugins::check_container(const std::string& resource, const std::vector<std::string>& ids) const {
  std::map<std::string, PodContainer> allocations;
  try {
    allocations = PodResourcesClient(settings_.pod_resources_socket).list(std::chrono::seconds(2));
  } catch (const std::exception& e) {
    // Not knowing is no reason to keep a container from starting.
    log_("PreStartContainer for " + resource + ": cannot list the container's other resources: " + e.what());
    return "";
  }
  std::string refusal = mixed_resources_error(resource, ids, allocations);
  if (!refusal.empty()) log_("PreStartContainer refused: " + refusal);
  return refusal;
}

DevicePluginServer* DevicePlugins::server(const std::string& resource_name) {
  for (auto& s : servers_) {
    if (s->resource_name() == resource_name) return s.get();
  }
  return nullptr;
}

void DevicePlugins::start() {
  if (settings_.cdi) log_("CDI spec written to " + write_cdi_spec(fs_, settings_.cdi_dir, resources_));
  watch_ = std::make_unique<DirectoryWatch>(settings_.plugin_dir);  // before serving: no event is missed
  for (auto& s : servers_) {
    s->start();
    log_("device plugin " + s->resource_name() + " serving on " + s->socket_path() + " (" +
         std::to_string(s->resource().devices.size()) + " devices)");
  }
  stopping_ = false;
  watcher_ = std::thread([this] { watch_loop(); });
}

void DevicePlugins::stop() {
  if (watcher_.joinable()) {
    stopping_ = true;
    watch_->interrupt();
    watcher_.join();
  }
  for (auto& s : servers_) s->stop();
  watch_.reset();
}

void DevicePlugins::update_health(const std::vector<GpuDeviceInfo>& devices, const std::vector<XidEvent>& xids) {
  std::lock_guard lock(health_mutex_);
  const auto unhealthy = health_.update(devices, xids);
  for (auto& s : servers_) {
    if (s->set_unhealthy(unhealthy)) {
      std::string why;
      for (const auto& [uuid, reason] : unhealthy) why += (why.empty() ? "" : ", ") + uuid + " " + reason;
      log_("device plugin " + s->resource_name() + ": health changed (unhealthy: " + (why.empty() ? "none" : why) + ")");
    }
  }
}

void DevicePlugins::carry_health_from(const DevicePlugins& previous) {
  std::map<std::string, std::string> verdicts;
  {
    std::lock_guard lock(previous.health_mutex_);
    verdicts = previous.health_.xid_verdicts();
  }
  std::lock_guard lock(health_mutex_);
  health_.carry_over(verdicts);
  for (auto& s : servers_) s->set_unhealthy(health_.xid_verdicts());
}

// Brings every plugin to "serving and registered": restarts a server whose socket is gone (kubelet
// deleted it), then registers each unregistered one while kubelet.sock exists.
void DevicePlugins::reconcile() {
  const std::string kubelet = settings_.plugin_dir + "/" + kKubeletSocket;
  const std::string kubelet_now = identity(fs_, kubelet);
  for (std::size_t i = 0; i < servers_.size() && !stopping_; ++i) {
    auto& s = *servers_[i];
    if (!fs_.stat(s.socket_path()).exists) {
      s.stop();
      try {
        s.start();
      } catch (const std::exception& e) {
        log_(e.what());
        continue;
      }
      registered_with_[i].clear();
    }
    if (kubelet_now.empty() || registered_with_[i] == kubelet_now) continue;
    try {
      register_plugin(kubelet, s.endpoint(), s.resource_name(), /*pre_start_required=*/true, kRegisterTimeout);
      registered_with_[i] = kubelet_now;
      ++registrations_;
      log_("device plugin " + s.resource_name() + " registered with " + kubelet);
    } catch (const std::exception& e) {
      log_(e.what());  // retried on the next event or tick
    }
  }
}

void DevicePlugins::watch_loop() {
  reconcile();
  while (!stopping_) {
    // Any event in the directory (kubelet.sock created anew, our socket deleted) or a quiet second:
    // reconcile compares what is there with what we registered.
    watch_->wait(kTick);
    reconcile();
  }
}

}  // namespace gpupack::k8s
