// The node.yaml parser: the agent's sections and the device plugin's, in one pass over one file.
#include <yaml-cpp/yaml.h>

#include <set>

#include "contract/node_config.hpp"
#include "contract/resource_names.hpp"
#include "core/errors.hpp"
#include "io/yaml_fields.hpp"

namespace gpupack {

namespace {

class Reader : public YamlFields {
 public:
  using YamlFields::YamlFields;

  ClientLimits limits(const YAML::Node& node, const std::string& where) const {
    ClientLimits l;
    if (!node || node.IsNull()) return l;
    only_keys(node, where, {"sm_percent", "memory"});
    if (node["sm_percent"]) l.sm_percent = in_range(node, "sm_percent", where, 1, 100, 100);
    l.memory_bytes = size(node, "memory", where);
    return l;
  }

  Sharing mode(const YAML::Node& node, const std::string& where) const {
    const std::string m = get<std::string>(node, "mode", where).value_or(std::string(to_string(Sharing::exclusive)));
    if (const auto s = parse_sharing(m); s && *s != Sharing::streams) return *s;
    fail(where + ".mode", "'" + m + "' is not a sharing mode (accepted: " + sharing_names(false) + ")");
  }

  void target(const YAML::Node& node, const std::string& where, const char* ref_key, SharingTarget& t) const {
    const auto ref = get<std::string>(node, ref_key, where);
    if (!ref || ref->empty()) fail(where + "." + ref_key, "is required");
    t.ref = *ref;
    t.mode = mode(node, where);
    // 60 is the highest MPS client limit of any CUDA version; the device check tightens it per GPU.
    t.clients = in_range(node, "clients", where, 1, 60, 1);
    if (t.mode == Sharing::exclusive && t.clients != 1) fail(where + ".clients", "must be 1 in mode exclusive");
    t.tenant = get<std::string>(node, "tenant", where);
    t.limits = limits(node["limits"], where + ".limits");
    if (t.mode != Sharing::mps && t.limits.sm_percent) {
      fail(where + ".limits.sm_percent", "SM limits need mode mps (time-slicing and exclusive cannot enforce them)");
    }
    t.predicted_sm_active = get<double>(node, "predicted_sm_active", where);
    if (t.predicted_sm_active && !(*t.predicted_sm_active >= 0 && *t.predicted_sm_active <= 1)) {
      fail(where + ".predicted_sm_active", "must be a share from 0 to 1");
    }
  }

  std::string path(const YAML::Node& node, const char* key, const std::string& where, std::string fallback) const {
    const std::string p = get<std::string>(node, key, where).value_or(fallback);
    if (p.empty() || p[0] != '/') fail(where + "." + key, "must be an absolute path");
    return p;
  }

  MpsSliceSize slice(const YAML::Node& node, const std::string& where) const {
    only_keys(node, where, {"sm_percent", "memory", "count", "resource"});
    MpsSliceSize s;
    if (!node["sm_percent"]) fail(where + ".sm_percent", "is required (it names the resource gpupack.io/mps-<pct>)");
    s.sm_percent = in_range(node, "sm_percent", where, 1, 100, 100);
    s.count = in_range(node, "count", where, 1, 60, 1);
    s.memory_bytes = size(node, "memory", where);
    s.resource = get<std::string>(node, "resource", where);
    if (s.resource) {
      if (const std::string problem = gpupack_resource_name_problem(*s.resource); !problem.empty()) {
        fail(where + ".resource", "'" + *s.resource + "': " + problem);
      }
    }
    return s;
  }

  void gpus(const YAML::Node& gpus, NodeConfig& c) const {
    if (!gpus || !gpus.IsSequence() || gpus.size() == 0) fail("gpus", "must list at least one GPU");
    std::set<std::string> seen;
    for (std::size_t i = 0; i < gpus.size(); ++i) {
      const std::string where = "gpus[" + std::to_string(i) + "]";
      only_keys(gpus[i], where, {"gpu", "mode", "clients", "tenant", "limits", "predicted_sm_active", "mig"});
      GpuConfig g;
      target(gpus[i], where, "gpu", g);
      if (!seen.insert(g.ref).second) fail(where + ".gpu", "'" + g.ref + "' is listed twice");
      const YAML::Node mig = gpus[i]["mig"];
      if (mig && !mig.IsNull()) {
        if (!mig.IsSequence()) fail(where + ".mig", "must be a list of instances");
        for (std::size_t j = 0; j < mig.size(); ++j) {
          const std::string mwhere = where + ".mig[" + std::to_string(j) + "]";
          only_keys(mig[j], mwhere, {"instance", "mode", "clients", "tenant", "limits", "predicted_sm_active"});
          SharingTarget t;
          target(mig[j], mwhere, "instance", t);
          // A placement (profile@start) names an instance within its GPU; a UUID names it on the node.
          const std::string key = t.ref.find('@') == std::string::npos ? t.ref : g.ref + "/" + t.ref;
          if (!seen.insert(key).second) fail(mwhere + ".instance", "'" + t.ref + "' is listed twice");
          g.mig.push_back(t);
        }
      }
      c.gpus.push_back(g);
    }
  }

  DevicePluginSettings device_plugin(const YAML::Node& dp) const {
    DevicePluginSettings s;
    if (!dp || dp.IsNull()) return s;
    const std::string where = "device_plugin";
    only_keys(dp, where,
              {"enabled", "directory", "pod_resources_socket", "cdi", "cdi_directory", "allocation_policy",
               "resources", "features_file", "cast_ai_labels", "mps_slices"});
    s.enabled = get<bool>(dp, "enabled", where).value_or(true);  // the section says "run the plugin"
    s.plugin_dir = path(dp, "directory", where, s.plugin_dir);
    s.pod_resources_socket = path(dp, "pod_resources_socket", where, s.pod_resources_socket);
    s.cdi = get<bool>(dp, "cdi", where).value_or(false);
    s.cdi_dir = path(dp, "cdi_directory", where, s.cdi_dir);
    const std::string policy = get<std::string>(dp, "allocation_policy", where).value_or("packed");
    if (policy == "packed") {
      s.policy = AllocationPolicy::packed;
    } else if (policy == "distributed") {
      s.policy = AllocationPolicy::distributed;
    } else {
      fail(where + ".allocation_policy", "'" + policy + "' is not a policy (accepted: packed, distributed)");
    }
    const std::string resources = get<std::string>(dp, "resources", where).value_or("all");
    if (resources != "all" && resources != "gpupack-only") {
      fail(where + ".resources", "'" + resources + "' is not accepted (accepted: all, gpupack-only)");
    }
    s.gpupack_resources_only = resources == "gpupack-only";
    if (dp["features_file"] && dp["features_file"].IsScalar() && dp["features_file"].as<std::string>().empty()) {
      s.features_file.clear();  // "" turns the NFD file off
    } else {
      s.features_file = path(dp, "features_file", where, s.features_file);
    }
    s.cast_ai_labels = get<bool>(dp, "cast_ai_labels", where).value_or(false);
    if (const YAML::Node slices = dp["mps_slices"]; slices && !slices.IsNull()) {
      if (!slices.IsMap()) fail(where + ".mps_slices", "must map a GPU or MIG instance (as in gpus[]) to a list of slices");
      std::set<std::string> seen;
      for (const auto& kv : slices) {
        // A key such as `? [a]` is valid YAML but names no GPU (and as<std::string> would throw a
        // conversion error that is no InputError: found by fuzz_node_config).
        if (!kv.first.IsScalar()) {
          fail(where + ".mps_slices", "'" + YAML::Dump(kv.first) + "' is not a GPU or MIG instance (keys as in gpus[])");
        }
        const std::string ref = kv.first.Scalar();
        const std::string swhere = where + ".mps_slices." + ref;
        // yaml-cpp keeps both of a key given twice: its slices would silently add up.
        if (!seen.insert(ref).second) fail(swhere, "is given twice");
        if (!kv.second.IsSequence() || kv.second.size() == 0) fail(swhere, "must be a non-empty list of slices");
        for (std::size_t i = 0; i < kv.second.size(); ++i) {
          // The percentages may add up to more than 100: MPS caps, it does not reserve.
          s.mps_slices[ref].push_back(slice(kv.second[i], swhere + "[" + std::to_string(i) + "]"));
        }
      }
    }
    return s;
  }
};

}  // namespace

const char* to_string(AllocationPolicy policy) {
  return policy == AllocationPolicy::packed ? "packed" : "distributed";
}

NodeConfig parse_node_config(const std::string& yaml_text, const std::string& source) {
  Reader r(source);
  YAML::Node root;
  try {
    root = YAML::Load(yaml_text);
  } catch (const YAML::Exception& e) {
    throw InputError(source + ": not valid YAML: " + e.what());
  }
  if (!root || root.IsNull()) throw InputError(source + ": the file is empty (see docs/node-config.md)");
  r.only_keys(root, "", {"version", "mps_root", "uid", "metrics_address", "control_binary", "check_interval_seconds", "gpus",
                          "device_plugin"});
  if (r.get<int>(root, "version", "").value_or(1) != 1) r.fail("version", "only version 1 is known");
  NodeConfig c;
  c.mps_root = r.get<std::string>(root, "mps_root", "").value_or(c.mps_root);
  if (c.mps_root.empty() || c.mps_root[0] != '/') r.fail("mps_root", "must be an absolute path");
  if (root["uid"]) c.uid = static_cast<unsigned>(r.in_range(root, "uid", "", 0, 2147483647, 0));
  c.metrics_address = r.get<std::string>(root, "metrics_address", "").value_or(c.metrics_address);
  try {
    split_address(c.metrics_address);
  } catch (const InputError& e) {
    r.fail("metrics_address", e.what());
  }
  c.control_binary = r.get<std::string>(root, "control_binary", "").value_or(c.control_binary);
  c.check_interval_seconds = r.get<double>(root, "check_interval_seconds", "").value_or(c.check_interval_seconds);
  if (c.check_interval_seconds < 0.05 || c.check_interval_seconds > 3600) {
    r.fail("check_interval_seconds", "must be between 0.05 and 3600");
  }
  r.gpus(root["gpus"], c);
  c.device_plugin = r.device_plugin(root["device_plugin"]);
  return c;
}

std::pair<std::string, int> split_address(const std::string& address) {
  const auto colon = address.rfind(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == address.size()) {
    throw InputError("'" + address + "' is not host:port");
  }
  const std::string port = address.substr(colon + 1);
  if (port.find_first_not_of("0123456789") != std::string::npos || port.size() > 5 || std::stoi(port) > 65535) {
    throw InputError("'" + address + "' has an invalid port");
  }
  return {address.substr(0, colon), std::stoi(port)};
}

}  // namespace gpupack
