// The agent's kubelet device plugins: from the node config (and its device_plugin section) to the
// running k8s::DevicePlugins and the NFD feature file. Kept apart from agent.cpp so that the MPS and
// metrics side reads without Kubernetes in the way.
#include "agent/agent.hpp"
#include "agent/device_plugin_targets.hpp"
#include "core/errors.hpp"
#include "k8s/device_plugins.hpp"
#include "k8s/node_labels.hpp"
#include "k8s/pod_resources.hpp"

namespace gpupack {

void Agent::start_device_plugins(bool reloading) {
  try {
    const DevicePluginSettings& settings = config_.device_plugin;
    if (!settings.enabled) {
      if (device_plugins_) log("device plugins: no device_plugin section any more; stopping them");
      device_plugins_.reset();
      return;
    }
    DevicePluginPlan plan = plan_device_plugins(config_, deps_.gpu.devices());
    if (!settings.features_file.empty()) {
      try {
        k8s::write_features_file(deps_.fs, settings.features_file, plan.labels);
      } catch (const std::runtime_error& e) {
        log(std::string("node labels not written: ") + e.what());  // labels are a convenience, not a reason to stop
      }
    }
    // Unchanged plugins keep serving: kubelet keeps its streams and nobody re-registers.
    if (device_plugins_ && device_plugins_->resources() == plan.resources && device_plugins_->settings() == settings) return;
    std::unique_ptr<k8s::DevicePlugins> plugins;
    if (!plan.resources.empty()) {
      plugins = std::make_unique<k8s::DevicePlugins>(std::move(plan.resources), settings, deps_.fs, [this](const std::string& line) { log(line); });
    }
    if (plugins && device_plugins_) plugins->carry_health_from(*device_plugins_);  // XIDs stay
    device_plugins_.reset();
    if (!plugins) {
      log("device plugins: nothing to advertise");
      return;
    }
    plugins->start();
    device_plugins_ = std::move(plugins);
  } catch (const std::exception& e) {
    if (!reloading) throw;
    log(std::string("device plugins not restarted after the reload: ") + e.what());
  }
}

void Agent::check_device_plugins(const NodeConfig& next) const {
  if (next.device_plugin.enabled) plan_device_plugins(next, deps_.gpu.devices());
}

void Agent::refresh_pod_allocations() {
  if (!device_plugins_) {
    pod_allocations_.clear();
    return;
  }
  try {
    // A short timeout: the refresh loop must not stall on a kubelet that does not answer.
    pod_allocations_ = k8s::PodResourcesClient(device_plugins_->settings().pod_resources_socket)
                           .list(std::chrono::milliseconds(500));
    if (!pod_allocations_error_.empty()) log("pod resources: kubelet answers again");
    pod_allocations_error_.clear();
  } catch (const std::exception& e) {
    pod_allocations_.clear();
    if (pod_allocations_error_ != e.what()) log(std::string("pod resources: ") + e.what() + " (metrics carry no pod names)");
    pod_allocations_error_ = e.what();
  }
}

}  // namespace gpupack
