#include "model/dram_sensitivity.hpp"

#include <algorithm>
#include <utility>
#include <vector>

namespace gpupack {

namespace {

struct ResidualPoint {
  double others = 0, req = 1, p99 = 1;
};

// What a cell measured: its req/s slowdown and p99 growth against alone.
ResidualPoint measured_point(const ProfileDramPoint& d) {
  const double req = d.req_ratio > 0 ? 1.0 / d.req_ratio : 1.0;
  // Without a measured p99 the tail grows as the requests lengthen (closed loop).
  return {d.others_dram, req, d.p99_ratio.value_or(req)};
}

// A neighbour never makes a program faster, and a cell the model already predicts as slow as measured
// leaves nothing over: a factor below 1 is 1.
ResidualPoint residual_point(const ResidualPoint& measured, const DramCellModel& modelled) {
  return {measured.others, std::max(1.0, measured.req / std::max(1.0, modelled.req_factor)),
          std::max(1.0, measured.p99 / std::max(1e-9, modelled.p99_factor))};
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

// A neighbour drawing more of the bandwidth on more of the SMs does not leave a program faster than one drawing
// less: where a cell at a larger draw measured a smaller req/s slowdown than one below it, the single windows'
// noise is in both, and the measured slowdowns are pooled to their mean (pool adjacent violators) before the
// model's own prediction of each cell is divided out. bert-base-b4's H200 profile (run64) lost 39% beside the
// triad at 25% of the threads and 23% beside it at 50%; read as measured, the first cell carried /1.45 onto
// every mix drawing 0.4 of the bandwidth. Pooled after the model is divided out, the residuals of a program
// whose measured loss grew with the draw fall where the model's grows faster. The p99 growth is left as
// measured: pooling lowers the tail of the cell below, the unsafe side of an SLO (pooled too, mobilenet's
// lower tail let the saturated plan place 12 mobilenet-v3-b8 beside dlrm-b4096, where run85 measured dlrm at
// 9.64 ms against its SLO of 9).
void pool_req_slowdowns(std::vector<ResidualPoint>& points) {
  std::vector<std::pair<double, size_t>> blocks;  // (mean slowdown, points), non-decreasing
  for (const ResidualPoint& pt : points) {
    blocks.emplace_back(pt.req, 1);
    while (blocks.size() > 1 && blocks[blocks.size() - 2].first > blocks.back().first) {
      const auto [mean, n] = blocks.back();
      blocks.pop_back();
      auto& below = blocks.back();
      below.first = (below.first * static_cast<double>(below.second) + mean * static_cast<double>(n)) /
                    static_cast<double>(below.second + n);
      below.second += n;
    }
  }
  size_t i = 0;
  for (const auto& [mean, n] : blocks) {
    for (size_t j = 0; j < n; ++j) points[i++].req = mean;
  }
}

}  // namespace

std::optional<DramResidual> measured_dram_residual(const ProfileFacts& p, double others_dram,
                                                   const ModelledCell& modelled) {
  if (others_dram <= 0) return std::nullopt;
  const double own = std::max(0.0, p.dram_bw.value_or(0.0));
  const auto growth = [own](double others) { return queue_growth(own + others); };
  std::vector<ResidualPoint> measured;
  std::vector<DramCellModel> models;
  for (const ProfileDramPoint& d : p.dram_neighbour) {
    // A neighbour that could hold every SM measured the wait for them as well (model/saturation_wait.hpp).
    if (d.fills()) continue;
    // Increasing draws only (the reader sorts them), none at no draw.
    if (d.others_dram <= (measured.empty() ? 0.0 : measured.back().others)) continue;
    measured.push_back(measured_point(d));
    models.push_back(modelled(d));
  }
  if (measured.empty()) return std::nullopt;
  std::vector<ResidualPoint> monotone = measured;
  pool_req_slowdowns(monotone);
  std::vector<ResidualPoint> points;
  for (size_t i = 0; i < monotone.size(); ++i) points.push_back(residual_point(monotone[i], models[i]));
  const auto pooled = [&](size_t i) { return monotone[i].req != measured[i].req; };
  ResidualPoint previous{0, 1, 1};
  for (size_t i = 0; i < points.size(); ++i) {
    const ResidualPoint& here = points[i];
    if (others_dram <= here.others) {
      // Linear in the queue's growth between the points (equal growths: the point's own residual).
      const double span = growth(here.others) - growth(previous.others);
      const double t = span > 0 ? (growth(others_dram) - growth(previous.others)) / span : 1.0;
      return DramResidual{along(previous.req, here.req, t), along(previous.p99, here.p99, t), here.others, false,
                          pooled(i)};
    }
    previous = here;
  }
  return DramResidual{previous.req, previous.p99, previous.others, true, pooled(points.size() - 1)};
}

}  // namespace gpupack
