#include "k8s/plugin_settings.hpp"

#include <yaml-cpp/yaml.h>

#include <fstream>
#include <set>
#include <sstream>

#include "core/errors.hpp"
#include "core/units.hpp"
#include "io/yaml_fields.hpp"
#include "io/input_file.hpp"

namespace gpupack::k8s {

namespace {

class Reader : public YamlFields {
 public:
  using YamlFields::YamlFields;

  std::string path(const YAML::Node& node, const char* key, const std::string& where, std::string fallback) const {
    const std::string p = get<std::string>(node, key, where).value_or(fallback);
    if (p.empty() || p[0] != '/') fail(where + "." + key, "must be an absolute path");
    return p;
  }

  MpsSliceSize slice(const YAML::Node& node, const std::string& where) const {
    only_keys(node, where, {"sm_percent", "memory", "count"});
    MpsSliceSize s;
    if (!node["sm_percent"]) fail(where + ".sm_percent", "is required (it names the resource gpupack.io/mps-<pct>)");
    s.sm_percent = in_range(node, "sm_percent", where, 1, 100, 100);
    s.count = in_range(node, "count", where, 1, 60, 1);
    s.memory_bytes = size(node, "memory", where);
    return s;
  }

};

}  // namespace

const char* to_string(AllocationPolicy policy) {
  return policy == AllocationPolicy::packed ? "packed" : "distributed";
}

PluginSettings parse_plugin_settings(const std::string& yaml_text, const std::string& source) {
  YAML::Node root;
  try {
    root = YAML::Load(yaml_text);
  } catch (const YAML::Exception& e) {
    throw InputError(source + ": not valid YAML: " + e.what());
  }
  PluginSettings s;
  if (!root.IsMap() || !root["device_plugin"] || root["device_plugin"].IsNull()) return s;
  const Reader r(source);
  const std::string where = "device_plugin";
  const YAML::Node dp = root["device_plugin"];
  r.only_keys(dp, where,
              {"enabled", "directory", "pod_resources_socket", "cdi", "cdi_directory", "allocation_policy",
               "resources", "features_file", "cast_ai_labels", "mps_slices"});
  s.enabled = r.get<bool>(dp, "enabled", where).value_or(true);  // the section says "run the plugin"
  s.plugin_dir = r.path(dp, "directory", where, s.plugin_dir);
  s.pod_resources_socket = r.path(dp, "pod_resources_socket", where, s.pod_resources_socket);
  s.cdi = r.get<bool>(dp, "cdi", where).value_or(false);
  s.cdi_dir = r.path(dp, "cdi_directory", where, s.cdi_dir);
  const std::string policy = r.get<std::string>(dp, "allocation_policy", where).value_or("packed");
  if (policy == "packed") {
    s.policy = AllocationPolicy::packed;
  } else if (policy == "distributed") {
    s.policy = AllocationPolicy::distributed;
  } else {
    r.fail(where + ".allocation_policy", "'" + policy + "' is not a policy (accepted: packed, distributed)");
  }
  const std::string resources = r.get<std::string>(dp, "resources", where).value_or("all");
  if (resources != "all" && resources != "gpupack-only") {
    r.fail(where + ".resources", "'" + resources + "' is not accepted (accepted: all, gpupack-only)");
  }
  s.gpupack_resources_only = resources == "gpupack-only";
  if (dp["features_file"] && dp["features_file"].IsScalar() && dp["features_file"].as<std::string>().empty()) {
    s.features_file.clear();  // "" turns the NFD file off
  } else {
    s.features_file = r.path(dp, "features_file", where, s.features_file);
  }
  s.cast_ai_labels = r.get<bool>(dp, "cast_ai_labels", where).value_or(false);
  if (const YAML::Node slices = dp["mps_slices"]; slices && !slices.IsNull()) {
    if (!slices.IsMap()) r.fail(where + ".mps_slices", "must map a GPU or MIG instance (as in gpus[]) to a list of slices");
    for (const auto& kv : slices) {
      const auto ref = kv.first.as<std::string>();
      const std::string swhere = where + ".mps_slices." + ref;
      if (!kv.second.IsSequence() || kv.second.size() == 0) r.fail(swhere, "must be a non-empty list of slices");
      for (std::size_t i = 0; i < kv.second.size(); ++i) {
        // The percentages may add up to more than 100: MPS caps, it does not reserve.
        s.mps_slices[ref].push_back(r.slice(kv.second[i], swhere + "[" + std::to_string(i) + "]"));
      }
    }
  }
  return s;
}

PluginSettings load_plugin_settings(const std::string& path) {
  return parse_plugin_settings(read_input_file(path), path);
}

}  // namespace gpupack::k8s
