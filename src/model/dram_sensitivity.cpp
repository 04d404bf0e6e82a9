#include "model/dram_sensitivity.hpp"

#include <algorithm>

namespace gpupack {

namespace {

struct ResidualPoint {
  double others = 0, req = 1, p99 = 1;
};

// A neighbour never makes a program faster, and a cell the model already predicts as slow as measured
// leaves nothing over: a factor below 1 is 1.
ResidualPoint residual_point(const ProfileDramPoint& d, const DramCellModel& modelled) {
  const double req = d.req_ratio > 0 ? 1.0 / d.req_ratio : 1.0;
  // Without a measured p99 the tail grows as the requests lengthen (closed loop).
  const double p99 = d.p99_ratio.value_or(req);
  return {d.others_dram, std::max(1.0, req / std::max(1.0, modelled.req_factor)),
          std::max(1.0, p99 / std::max(1e-9, modelled.p99_factor))};
}

double along(double from, double to, double t) { return from + (to - from) * t; }

// How the wait for memory grows with the DRAM's load: as rho / (1 - rho), a single queue's (M/M/1), so a
// program that lost half its rate beside the triad's 0.72 loses little beside copies of itself drawing 0.3
// (3 dlrm-b4096 alone on an H100 kept 45-52% each, results/run40-corpus-h100: the SMs they share, not
// the DRAM), and most of it near saturation. The load is capped short of 1, where the queue has no bound.
double queue_growth(double load) {
  const double rho = std::clamp(load, 0.0, 0.95);
  return rho / (1 - rho);
}

}  // namespace

std::optional<DramResidual> measured_dram_residual(const ProfileFacts& p, double others_dram,
                                                   const ModelledCell& modelled) {
  if (others_dram <= 0) return std::nullopt;
  const double own = std::max(0.0, p.dram_bw.value_or(0.0));
  const auto growth = [own](double others) { return queue_growth(own + others); };
  ResidualPoint previous{0, 1, 1};
  std::optional<ResidualPoint> last;
  for (const ProfileDramPoint& d : p.dram_neighbour) {
    // A neighbour that could hold every SM measured the wait for them as well (model/saturation_wait.hpp).
    if (d.fills()) continue;
    if (d.others_dram <= previous.others) continue;  // increasing draws only (the reader sorts them)
    const ResidualPoint here = residual_point(d, modelled(d));
    if (others_dram <= here.others) {
      // Linear in the queue's growth between the points (equal growths: the point's own residual).
      const double span = growth(here.others) - growth(previous.others);
      const double t = span > 0 ? (growth(others_dram) - growth(previous.others)) / span : 1.0;
      return DramResidual{along(previous.req, here.req, t), along(previous.p99, here.p99, t), here.others, false};
    }
    last = previous = here;
  }
  if (!last) return std::nullopt;
  return DramResidual{last->req, last->p99, last->others, true};
}

}  // namespace gpupack
