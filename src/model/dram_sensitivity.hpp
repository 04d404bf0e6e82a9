#pragma once
// How much a workload slows beside others that draw the GPU's DRAM bandwidth, from its own profile: the
// cells of `gpupack profile --neighbour-cmd` with a bandwidth-bound neighbour (issue 36, item 3). A STREAM
// triad beside a transformer encoder cut its req/s to 36% on an H100 where the model's DRAM queueing
// (fitted on three programs that draw little bandwidth) predicted a few percent (results/run34-corpus-h100);
// each program's own measurement replaces that guess where it exists.
#include <optional>

#include "core/profile_facts.hpp"

namespace gpupack {

struct DramSlowdown {
  double req_factor = 1;        // alone req/s / req/s beside the others (>= 1)
  double p99_factor = 1;        // p99 beside the others / alone (>= 1)
  double measured_others = 0;   // the largest draw of others the profile measured it beside
  bool extrapolated = false;    // the others draw more than that: the last segment extended
};

// The slowdown beside others drawing `others_dram` (0..1 of the bandwidth): piecewise linear through no
// slowdown at no draw and the profile's measured points; none without a measured point or with no draw.
std::optional<DramSlowdown> measured_dram_slowdown(const ProfileFacts& p, double others_dram);

}  // namespace gpupack
