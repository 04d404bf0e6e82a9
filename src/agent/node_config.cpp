#include "agent/node_config.hpp"

#include <yaml-cpp/yaml.h>

#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "core/errors.hpp"
#include "core/gpu_catalog.hpp"
#include "core/units.hpp"
#include "io/yaml_fields.hpp"
#include "mps/mps_control.hpp"
#include "io/input_file.hpp"

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

  SharingMode mode(const YAML::Node& node, const std::string& where) const {
    const std::string m = get<std::string>(node, "mode", where).value_or("exclusive");
    if (m == "exclusive") return SharingMode::exclusive;
    if (m == "time-slicing") return SharingMode::time_slicing;
    if (m == "mps") return SharingMode::mps;
    fail(where + ".mode", "'" + m + "' is not a sharing mode (accepted: exclusive, time-slicing, mps)");
  }

  void target(const YAML::Node& node, const std::string& where, const char* ref_key, SharingTarget& t) const {
    const auto ref = get<std::string>(node, ref_key, where);
    if (!ref || ref->empty()) fail(where + "." + ref_key, "is required");
    t.ref = *ref;
    t.mode = mode(node, where);
    // 60 is the highest MPS client limit of any CUDA version; the device check tightens it per GPU.
    t.clients = in_range(node, "clients", where, 1, 60, 1);
    if (t.mode == SharingMode::exclusive && t.clients != 1) fail(where + ".clients", "must be 1 in mode exclusive");
    t.tenant = get<std::string>(node, "tenant", where);
    t.limits = limits(node["limits"], where + ".limits");
    if (t.mode != SharingMode::mps && t.limits.sm_percent) {
      fail(where + ".limits.sm_percent", "SM limits need mode mps (time-slicing and exclusive cannot enforce them)");
    }
  }

};

}  // namespace

const char* to_string(SharingMode mode) {
  switch (mode) {
    case SharingMode::exclusive: return "exclusive";
    case SharingMode::time_slicing: return "time-slicing";
    case SharingMode::mps: return "mps";
  }
  return "?";
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
                          "device_plugin"});  // device_plugin: parsed by k8s/plugin_settings
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
  const YAML::Node gpus = root["gpus"];
  if (!gpus || !gpus.IsSequence() || gpus.size() == 0) r.fail("gpus", "must list at least one GPU");
  std::set<std::string> seen;
  for (std::size_t i = 0; i < gpus.size(); ++i) {
    const std::string where = "gpus[" + std::to_string(i) + "]";
    r.only_keys(gpus[i], where, {"gpu", "mode", "clients", "tenant", "limits", "mig"});
    GpuConfig g;
    r.target(gpus[i], where, "gpu", g);
    if (!seen.insert(g.ref).second) r.fail(where + ".gpu", "'" + g.ref + "' is listed twice");
    const YAML::Node mig = gpus[i]["mig"];
    if (mig && !mig.IsNull()) {
      if (!mig.IsSequence()) r.fail(where + ".mig", "must be a list of instances");
      for (std::size_t j = 0; j < mig.size(); ++j) {
        const std::string mwhere = where + ".mig[" + std::to_string(j) + "]";
        r.only_keys(mig[j], mwhere, {"instance", "mode", "clients", "tenant", "limits"});
        SharingTarget t;
        r.target(mig[j], mwhere, "instance", t);
        if (!seen.insert(t.ref).second) r.fail(mwhere + ".instance", "'" + t.ref + "' is listed twice");
        g.mig.push_back(t);
      }
    }
    c.gpus.push_back(g);
  }
  return c;
}

NodeConfig load_node_config(const std::string& path) {
  // Bounded like every input file (docs/cli.md): --config /dev/zero is one line, not a gigabyte read.
  return parse_node_config(read_input_file(path), path);
}

void check_against_devices(const NodeConfig& config, const std::vector<GpuDeviceInfo>& devices) {
  static const GpuCatalog catalog = builtin_catalog();
  // One GPU (or MIG instance) named twice, by index and by UUID or by profile@start and by UUID, would be
  // supervised and advertised twice: the parser cannot see it, the devices can.
  std::map<std::string, std::string> named;  // UUID -> the reference that named it first
  auto once = [&](const std::string& uuid, const std::string& ref) {
    const auto [it, fresh] = named.emplace(uuid, ref);
    if (!fresh) {
      throw InputError("node config: '" + it->second + "' and '" + ref + "' are the same " +
                       (uuid.rfind("MIG-", 0) == 0 ? "MIG instance" : "GPU") + " (" + uuid + "); list it once");
    }
  };
  for (const auto& g : config.gpus) {
    if (const GpuDeviceInfo* d = find_device(devices, g.ref)) {
      once(d->uuid, g.ref);
      for (const auto& m : g.mig) {
        for (const auto& inst : d->mig_instances) {
          if (mig_matches(inst, m.ref)) once(inst.uuid, m.ref);
        }
      }
    }
  }
  for (const auto& g : config.gpus) {
    const GpuDeviceInfo* d = find_device(devices, g.ref);
    if (!d) {
      std::string known;
      for (const auto& dev : devices) known += (known.empty() ? "" : ", ") + std::to_string(dev.index) + " (" + dev.uuid + ")";
      throw InputError("node config: GPU '" + g.ref + "' is not on this machine (GPUs here: " +
                       (known.empty() ? "none" : known) + ")");
    }
    const GpuModel* model = catalog.find(d->name);
    if (g.mode == SharingMode::mps && model) {
      // Clients over the limit fail at context creation (error 808). The CUDA 13.0 limit (48 on Volta+)
      // is the safe one: the node's CUDA may be older than 13.1, which raises it to 60.
      const int limit = mps_client_limit(*model, {13, 0});
      if (g.clients > limit) {
        throw InputError("node config: GPU '" + g.ref + "': clients " + std::to_string(g.clients) +
                         " exceeds the MPS client limit of " + model->name + " (" + std::to_string(limit) + ")");
      }
    }
    if (g.limits.memory_bytes && d->memory_total_bytes && *g.limits.memory_bytes > *d->memory_total_bytes) {
      throw InputError("node config: GPU '" + g.ref + "': limits.memory exceeds the GPU's memory (" +
                       format_size(*d->memory_total_bytes) + ")");
    }
    if (!g.mig.empty() && !d->mig_enabled.value_or(false)) {
      throw InputError("node config: GPU '" + g.ref + "' lists MIG instances but MIG is not enabled on it");
    }
    for (const auto& m : g.mig) {
      bool found = false;
      for (const auto& inst : d->mig_instances) found = found || mig_matches(inst, m.ref);
      if (!found) throw InputError("node config: MIG instance '" + m.ref + "' is not on GPU '" + g.ref + "'");
    }
  }
}

bool mig_matches(const MigInstanceInfo& instance, const std::string& ref) {
  if (instance.uuid == ref) return true;
  return !instance.profile.empty() && instance.placement_start &&
         ref == instance.profile + "@" + std::to_string(*instance.placement_start);
}

MpsPaths mps_paths_for(const NodeConfig& config, const std::string& target_uuid) {
  const std::string base = config.mps_root + "/" + target_uuid;
  return {base + "/pipe", base + "/log"};
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
