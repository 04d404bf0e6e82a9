#include "model/saturation_wait.hpp"

#include <algorithm>
#include <vector>

namespace gpupack {

std::optional<SaturationWait> measured_saturation_wait(const ProfileFacts& p, const ModelledCell& modelled) {
  double sum = 0;
  int cells = 0;
  double most = 0;
  // The compute-bound neighbour's cell alone where it has one: beside the triad at 100% the wait is mixed with
  // the DRAM near saturation, which the DRAM residual carries only up to its capped cells' draws.
  std::vector<ProfileDramPoint> cells_beside;
  if (p.compute_neighbour) {
    cells_beside.push_back(*p.compute_neighbour);
  } else {
    cells_beside = p.dram_neighbour;
  }
  for (const ProfileDramPoint& d : cells_beside) {
    if (!d.fills() || !d.neighbour_sm || *d.neighbour_sm <= 0 || d.req_ratio <= 0) continue;
    // Request times as shares of its request alone: measured 1 / req_ratio, the model's req factor.
    const double beyond = std::max(0.0, 1.0 / d.req_ratio - modelled(d).req_factor);
    sum += beyond / *d.neighbour_sm;
    most = std::max(most, *d.neighbour_sm);
    ++cells;
  }
  if (cells == 0) return std::nullopt;
  return SaturationWait{sum / cells, most};
}

}  // namespace gpupack
