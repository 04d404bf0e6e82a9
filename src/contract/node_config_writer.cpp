// The node.yaml writer: only what differs from the parser's defaults, so a rendered file stays short and
// reads back as the config it was written from (tests/contract/node_config_test.cpp).
#include <yaml-cpp/yaml.h>

#include "contract/node_config.hpp"

namespace gpupack {

namespace {

std::string size_text(std::uint64_t bytes) { return mps_memory_text(bytes) + "iB"; }  // "1536MiB"

void limits(YAML::Emitter& y, const ClientLimits& l) {
  if (!l.sm_percent && !l.memory_bytes) return;
  y << YAML::Key << "limits" << YAML::Value << YAML::BeginMap;
  if (l.sm_percent) y << YAML::Key << "sm_percent" << YAML::Value << *l.sm_percent;
  if (l.memory_bytes) y << YAML::Key << "memory" << YAML::Value << size_text(*l.memory_bytes);
  y << YAML::EndMap;
}

// `with_clients` false for a GPU shared through its MIG instances: its own count means nothing.
void target(YAML::Emitter& y, const char* ref_key, const SharingTarget& t, bool with_clients) {
  y << YAML::Key << ref_key << YAML::Value << YAML::DoubleQuoted << t.ref;
  y << YAML::Key << "mode" << YAML::Value << std::string(to_string(t.mode));
  if (with_clients || t.clients != 1) y << YAML::Key << "clients" << YAML::Value << t.clients;
  if (t.tenant) y << YAML::Key << "tenant" << YAML::Value << *t.tenant;
  limits(y, t.limits);
  if (t.predicted_sm_active) y << YAML::Key << "predicted_sm_active" << YAML::Value << *t.predicted_sm_active;
}

void device_plugin(YAML::Emitter& y, const DevicePluginSettings& s) {
  const DevicePluginSettings d;
  if (s == d) return;
  y << YAML::Key << "device_plugin" << YAML::Value << YAML::BeginMap;
  y << YAML::Key << "enabled" << YAML::Value << s.enabled;
  if (s.plugin_dir != d.plugin_dir) y << YAML::Key << "directory" << YAML::Value << s.plugin_dir;
  if (s.pod_resources_socket != d.pod_resources_socket) {
    y << YAML::Key << "pod_resources_socket" << YAML::Value << s.pod_resources_socket;
  }
  if (s.cdi != d.cdi) y << YAML::Key << "cdi" << YAML::Value << s.cdi;
  if (s.cdi_dir != d.cdi_dir) y << YAML::Key << "cdi_directory" << YAML::Value << s.cdi_dir;
  if (s.policy != d.policy) y << YAML::Key << "allocation_policy" << YAML::Value << to_string(s.policy);
  if (s.gpupack_resources_only) y << YAML::Key << "resources" << YAML::Value << "gpupack-only";
  if (s.features_file != d.features_file) {
    y << YAML::Key << "features_file" << YAML::Value << YAML::DoubleQuoted << s.features_file;
  }
  if (s.cast_ai_labels) y << YAML::Key << "cast_ai_labels" << YAML::Value << true;
  if (!s.mps_slices.empty()) {
    y << YAML::Key << "mps_slices" << YAML::Value << YAML::BeginMap;
    for (const auto& [ref, slices] : s.mps_slices) {
      y << YAML::Key << YAML::DoubleQuoted << ref << YAML::Value << YAML::BeginSeq;
      for (const auto& slice : slices) {
        y << YAML::BeginMap << YAML::Key << "sm_percent" << YAML::Value << slice.sm_percent;
        if (slice.memory_bytes) y << YAML::Key << "memory" << YAML::Value << size_text(*slice.memory_bytes);
        y << YAML::Key << "count" << YAML::Value << slice.count;
        if (slice.resource) y << YAML::Key << "resource" << YAML::Value << *slice.resource;
        y << YAML::EndMap;
      }
      y << YAML::EndSeq;
    }
    y << YAML::EndMap;
  }
  y << YAML::EndMap;
}

}  // namespace

std::string write_node_config(const NodeConfig& config) {
  const NodeConfig d;
  YAML::Emitter y;
  y << YAML::BeginMap << YAML::Key << "version" << YAML::Value << 1;
  if (config.mps_root != d.mps_root) y << YAML::Key << "mps_root" << YAML::Value << config.mps_root;
  if (config.uid) y << YAML::Key << "uid" << YAML::Value << *config.uid;
  if (config.metrics_address != d.metrics_address) y << YAML::Key << "metrics_address" << YAML::Value << config.metrics_address;
  if (config.control_binary != d.control_binary) y << YAML::Key << "control_binary" << YAML::Value << config.control_binary;
  if (config.check_interval_seconds != d.check_interval_seconds) {
    y << YAML::Key << "check_interval_seconds" << YAML::Value << config.check_interval_seconds;
  }
  y << YAML::Key << "gpus" << YAML::Value << YAML::BeginSeq;
  for (const auto& g : config.gpus) {
    y << YAML::BeginMap;
    target(y, "gpu", g, g.mig.empty());
    if (!g.mig.empty()) {
      y << YAML::Key << "mig" << YAML::Value << YAML::BeginSeq;
      for (const auto& m : g.mig) {
        y << YAML::BeginMap;
        target(y, "instance", m, true);
        y << YAML::EndMap;
      }
      y << YAML::EndSeq;
    }
    y << YAML::EndMap;
  }
  y << YAML::EndSeq;
  device_plugin(y, config.device_plugin);
  y << YAML::EndMap;
  return std::string(y.c_str()) + "\n";
}

}  // namespace gpupack
