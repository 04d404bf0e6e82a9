#pragma once
// Node labels describing what the plugins advertise, for Node Feature Discovery (a features.d file of
// key=value lines) and `gpupack labels`:
//   gpupack.io/gpu.product        NVML name with spaces as dashes (the first GPU's; nodes are homogeneous)
//   gpupack.io/gpu.count          physical GPUs (one name, one meaning: per-resource labels live under
//                                 gpupack.io/resource.<r>.*, so resource nvidia.com/gpu cannot overwrite it)
//   gpupack.io/resource.<r>.sharing-strategy  none | time-slicing | mps | mixed, per resource (<r>: the
//   gpupack.io/resource.<r>.replicas          name after the domain: gpu, mig-3g.40gb, mps-25,
//   gpupack.io/resource.<r>.count             mig-3g.40gb-mps-50); replicas = most devices on one GPU or
//                                             MIG instance, count = devices advertised
//   scheduling.cast.ai/gpu-shared, scheduling.cast.ai/gpu-sharing-strategy  (the seeds' labels, when on)
#include <map>
#include <string>
#include <vector>

#include "k8s/device_plan.hpp"
#include "os/filesystem.hpp"

namespace gpupack::k8s {

// `targets` name the GPUs' products; `resources` are plan_resources(targets).
std::map<std::string, std::string> node_labels(const std::vector<ShareTarget>& targets,
                                               const std::vector<PluginResource>& resources, bool cast_ai);

// "NVIDIA H100 80GB HBM3" -> "NVIDIA-H100-80GB-HBM3": a valid label value (<= 63, [A-Za-z0-9._-]).
std::string label_value(const std::string& text);

// key=value lines, sorted.
std::string features_file_text(const std::map<std::string, std::string>& labels);
// Writes the NFD feature file atomically (NFD may read it at any time) through `fs`, making its
// directory (0755) when missing. Throws std::runtime_error.
void write_features_file(Filesystem& fs, const std::string& path, const std::map<std::string, std::string>& labels);

}  // namespace gpupack::k8s
