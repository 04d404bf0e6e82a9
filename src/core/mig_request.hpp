#pragma once
// Parses the profile list users type: "3g.40gb 2g.20gb 2x1g.10gb" (a count prefix "Nx" repeats a profile;
// "nvidia.com/mig-1g.10gb" is accepted too).
#include <span>
#include <string>

#include "core/gpu_model.hpp"
#include "core/mig_layout.hpp"

namespace gpupack {

// The largest count one token may carry; far above any GPU's instance limit, low enough to catch typos.
inline constexpr int kMaxTokenCount = 64;

// Throws InputError naming the bad token and the accepted profiles of `model`.
MigCounts parse_mig_request(const GpuModel& model, std::span<const std::string> tokens);

}  // namespace gpupack
