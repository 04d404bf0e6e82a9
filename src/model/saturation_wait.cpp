#include "model/saturation_wait.hpp"

#include <algorithm>

namespace gpupack {

std::optional<SaturationWait> measured_saturation_wait(const ProfileFacts& p, const ModelledCell& modelled) {
  double sum = 0;
  int cells = 0;
  double most = 0;
  std::optional<double> tail, ratio;
  for (const ProfileDramPoint& d : p.dram_neighbour) {
    if (!d.fills() || !d.neighbour_sm || *d.neighbour_sm <= 0 || d.req_ratio <= 0) continue;
    // Request times as shares of its request alone: measured 1 / req_ratio, the model's req factor.
    const double beyond = std::max(0.0, 1.0 / d.req_ratio - modelled(d).req_factor);
    sum += beyond / *d.neighbour_sm;
    if (*d.neighbour_sm >= most) {
      most = *d.neighbour_sm;
      tail = d.tail_excess_ms;
      ratio = d.tail_ratio;
    }
    ++cells;
  }
  if (cells == 0) return std::nullopt;
  return SaturationWait{sum / cells, most, tail, ratio};
}

}  // namespace gpupack
