#include "k8s/node_labels.hpp"

#include <algorithm>
#include <cctype>
#include <set>
#include <stdexcept>

#include "contract/resource_names.hpp"
#include "contract/sharing.hpp"

namespace gpupack::k8s {

std::string label_value(const std::string& text) {
  std::string v;
  for (const char c : text) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
    v += ok ? c : '-';
  }
  if (v.size() > 63) v.resize(63);
  // Must begin and end alphanumeric.
  while (!v.empty() && !std::isalnum(static_cast<unsigned char>(v.back()))) v.pop_back();
  while (!v.empty() && !std::isalnum(static_cast<unsigned char>(v.front()))) v.erase(v.begin());
  return v;
}

std::map<std::string, std::string> node_labels(const std::vector<ShareTarget>& targets,
                                               const std::vector<PluginResource>& resources, bool cast_ai) {
  std::map<std::string, std::string> labels;
  std::set<std::string> gpus;
  for (const auto& t : targets) {
    if (gpus.empty()) labels["gpupack.io/gpu.product"] = label_value(t.product);
    gpus.insert(t.gpu_uuid);
  }
  if (!gpus.empty()) labels["gpupack.io/gpu.count"] = std::to_string(gpus.size());
  int most_per_gpu = 0;
  std::set<Sharing> shared;
  std::map<std::string, int> per_gpu;  // devices on each physical GPU, over all resources
  for (const auto& r : resources) {
    const std::string part(resource_name_part(r.name));
    std::set<std::string> modes;
    std::map<std::string, int> per_target;
    for (const auto& d : r.devices) {
      modes.insert(d.sharing == Sharing::exclusive ? std::string("none") : std::string(to_string(d.sharing)));
      ++per_target[d.target_uuid];
      ++per_gpu[d.gpu_uuid];
      if (d.sharing != Sharing::exclusive) shared.insert(d.sharing);
    }
    int replicas = 0;
    for (const auto& [uuid, n] : per_target) replicas = std::max(replicas, n);
    // Under "resource.": the node-wide gpupack.io/gpu.count (physical GPUs) must not be overwritten by the
    // count of resource nvidia.com/gpu (issue 17: a 4-GPU node printed gpu.count=5).
    const std::string prefix = "gpupack.io/resource." + part;
    labels[prefix + ".sharing-strategy"] = modes.size() == 1 ? *modes.begin() : "mixed";
    labels[prefix + ".replicas"] = std::to_string(replicas);
    labels[prefix + ".count"] = std::to_string(r.devices.size());
  }
  for (const auto& [uuid, n] : per_gpu) most_per_gpu = std::max(most_per_gpu, n);
  if (cast_ai && !shared.empty()) {
    // The seeds' node templates: clients one GPU serves, and the strategy (MPS wins when both are used,
    // as their node template does).
    labels["scheduling.cast.ai/gpu-shared"] = std::to_string(most_per_gpu);
    labels["scheduling.cast.ai/gpu-sharing-strategy"] = cast_ai_sharing_strategy(shared.count(Sharing::mps) > 0);
  }
  return labels;
}

std::string features_file_text(const std::map<std::string, std::string>& labels) {
  std::string out = "# gpupack: node labels for Node Feature Discovery (written by the gpupack agent)\n";
  for (const auto& [k, v] : labels) out += k + "=" + v + "\n";
  return out;
}

void write_features_file(Filesystem& fs, const std::string& path, const std::map<std::string, std::string>& labels) {
  const auto slash = path.rfind('/');
  const std::string parent = slash == std::string::npos || slash == 0 ? "" : path.substr(0, slash);
  try {
    // A directory made here is 0755, not the umask's choice: whoever can write it can replace the file.
    if (!parent.empty() && !fs.stat(parent).exists) fs.make_dirs(parent, 0755);
    // Atomic, mode 0644 whatever the umask (node labels steer scheduling: readable by NFD, writable by
    // nobody else); NFD reads every file in features.d, and the temporary name starts with a dot, which
    // NFD skips.
    fs.write_file(path, features_file_text(labels));
  } catch (const std::runtime_error& e) {
    throw std::runtime_error("cannot write the node feature file " + path + " (" + e.what() + ")");
  }
}

}  // namespace gpupack::k8s
