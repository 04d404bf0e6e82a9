#pragma once
// The groups of /metrics families, split by file: node_metrics.cpp (GPUs, sharing, MIG, processes,
// MPS) and activity_metrics.cpp (GPM activity and waste per slice). Internal to the metrics layer.
#include <string>
#include <vector>

#include "metrics/exposition.hpp"
#include "metrics/node_snapshot.hpp"

namespace gpupack::metrics_detail {

struct GpuLabels {
  std::string index, uuid;
};

// GPM activity per GPU and per MIG instance.
void gpm_families(Exposition& e, const NodeSnapshot& s, const std::vector<GpuLabels>& ids);
// Allotted vs used per sharing target (the waste families).
void slice_families(Exposition& e, const NodeSnapshot& s);

}  // namespace gpupack::metrics_detail
