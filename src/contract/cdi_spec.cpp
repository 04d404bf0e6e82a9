#include "contract/cdi_spec.hpp"

#include <nlohmann/json.hpp>

namespace gpupack {

namespace {

using Json = nlohmann::ordered_json;

constexpr unsigned kMigMinorsFirst = 3;          // after config (1) and monitor (2)
constexpr unsigned kMigMinorsPerGi = 1 + 8;      // the GI's access node and up to 8 compute instances
constexpr unsigned kMigMinorsPerGpu = 15 * kMigMinorsPerGi;

bool is_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

}  // namespace

std::vector<std::string> mig_device_nodes(const MigDeviceIds& ids) {
  const unsigned gi = kMigMinorsFirst + ids.gpu_minor * kMigMinorsPerGpu + ids.gpu_instance_id * kMigMinorsPerGi;
  const unsigned ci = gi + 1 + ids.compute_instance_id;
  return {"/dev/nvidia" + std::to_string(ids.gpu_minor), "/dev/nvidia-caps/nvidia-cap" + std::to_string(gi),
          "/dev/nvidia-caps/nvidia-cap" + std::to_string(ci)};
}

std::optional<unsigned> gpu_instance_id_for_placement(int memory_slices, int start, int size) {
  if (memory_slices <= 0 || (memory_slices & (memory_slices - 1)) != 0) return std::nullopt;
  if (size <= 0 || (size & (size - 1)) != 0 || size > memory_slices || start < 0 || start % size != 0 ||
      start + size > memory_slices) {
    return std::nullopt;
  }
  // Level k of the tree holds memory_slices / size nodes, numbered from (memory_slices / size) - 1.
  const int per_level = memory_slices / size;
  return static_cast<unsigned>(per_level - 1 + start / size);
}

std::string cdi_minimum_version(const std::string& kind, const std::vector<CdiDevice>& devices) {
  const auto slash = kind.find('/');
  const std::string cls = slash == std::string::npos ? kind : kind.substr(slash + 1);
  bool v060 = slash != std::string::npos && cls.find('.') != std::string::npos;
  bool v050 = false;
  for (const auto& d : devices) {
    v060 = v060 || !d.annotations.empty();
    v050 = v050 || (!d.name.empty() && !is_letter(d.name.front()));
  }
  if (v060) return "0.6.0";
  if (v050) return "0.5.0";
  return "0.3.0";
}

std::string cdi_spec_json(const std::vector<CdiDevice>& devices, const std::string& kind) {
  Json list = Json::array();
  for (const auto& d : devices) {
    Json edits = Json::object();
    if (!d.env.empty()) edits["env"] = d.env;
    if (!d.device_nodes.empty()) {
      edits["deviceNodes"] = Json::array();
      for (const auto& p : d.device_nodes) edits["deviceNodes"].push_back({{"path", p}});
    }
    if (!d.mounts.empty()) {
      edits["mounts"] = Json::array();
      for (const auto& m : d.mounts) {
        edits["mounts"].push_back({{"hostPath", m.host_path}, {"containerPath", m.container_path}, {"options", m.options}});
      }
    }
    Json device = {{"name", d.name}};
    if (!d.annotations.empty()) {
      device["annotations"] = Json::object();
      for (const auto& [k, v] : d.annotations) device["annotations"][k] = v;
    }
    device["containerEdits"] = edits;
    list.push_back(device);
  }
  const Json spec = {{"cdiVersion", cdi_minimum_version(kind, devices)},
                     {"kind", kind},
                     {"devices", list},
                     {"containerEdits",
                      {{"deviceNodes", Json::array({{{"path", "/dev/nvidiactl"}}, {{"path", "/dev/nvidia-uvm"}}})}}}};
  return spec.dump(2) + "\n";
}

}  // namespace gpupack
