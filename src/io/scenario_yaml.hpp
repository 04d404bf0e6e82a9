#pragma once
// Reads a planning scenario from YAML text (docs/workloads.md). Strict: unknown keys (with a suggestion),
// wrong types, zero, negative or absurd sizes, duplicate names and unknown GPU models are InputErrors whose
// one-line message starts with "<source>:<line>:<column>: ". No file access here: the caller reads.
#include <string_view>

#include "core/gpu_catalog.hpp"
#include "core/scenario.hpp"

namespace gpupack {

// `source` names the input in messages (a file name). The fleet may be absent (then scenario.fleet is
// empty and the caller supplies a model).
Scenario parse_scenario_yaml(std::string_view text, std::string_view source, const GpuCatalog& catalog);

// Largest memory one replica may ask for: no GPU has more than 192 GB, so anything above 1 TiB is a typo.
inline constexpr unsigned long long kMaxWorkloadMemory = 1ull << 40;

// The largest scenario gpupack plans (docs/workloads.md), in all fleet entries and all workloads
// together: sized so that a plan finishes in seconds, not to be a fleet-management system. Measured in
// docs/workloads.md; a larger fleet is planned in parts (per cluster or node pool).
inline constexpr long kMaxFleetGpus = 10000;
inline constexpr long kMaxTotalReplicas = 10000;

}  // namespace gpupack
