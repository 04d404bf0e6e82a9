#include "contract/sharing.hpp"

namespace gpupack {

std::optional<Sharing> parse_sharing(std::string_view text) {
  for (const Sharing s : {Sharing::exclusive, Sharing::time_slicing, Sharing::mps, Sharing::streams}) {
    if (to_string(s) == text) return s;
  }
  return std::nullopt;
}

std::optional<GpuMode> parse_gpu_mode(std::string_view text) {
  for (const GpuMode m : {GpuMode::exclusive, GpuMode::time_slicing, GpuMode::mps, GpuMode::mig, GpuMode::mig_mps,
                          GpuMode::mig_time_slicing}) {
    if (to_string(m) == text) return m;
  }
  return std::nullopt;
}

}  // namespace gpupack
