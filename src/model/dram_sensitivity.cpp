#include "model/dram_sensitivity.hpp"

#include <algorithm>

namespace gpupack {

namespace {

struct SlowdownPoint {
  double others = 0, req = 1, p99 = 1;
};

// A neighbour never makes a program faster: a measured ratio on the fast side of alone is noise, 1.
SlowdownPoint slowdown_point(const ProfileDramPoint& d) {
  const double req = d.req_ratio > 0 ? std::max(1.0, 1.0 / d.req_ratio) : 1.0;
  // Without a measured p99 the tail grows as the requests lengthen (closed loop).
  const double p99 = d.p99_ratio ? std::max(1.0, *d.p99_ratio) : req;
  return {d.others_dram, req, p99};
}

double along(double from, double to, double t) { return from + (to - from) * t; }

}  // namespace

std::optional<DramSlowdown> measured_dram_slowdown(const ProfileFacts& p, double others_dram) {
  if (others_dram <= 0) return std::nullopt;
  SlowdownPoint previous{0, 1, 1};
  std::optional<SlowdownPoint> last;
  for (const ProfileDramPoint& d : p.dram_neighbour) {
    if (d.others_dram <= previous.others) continue;  // increasing draws only (the reader sorts them)
    const SlowdownPoint here = slowdown_point(d);
    if (others_dram <= here.others) {
      const double t = (others_dram - previous.others) / (here.others - previous.others);
      return DramSlowdown{along(previous.req, here.req, t), along(previous.p99, here.p99, t), here.others, false};
    }
    last = previous = here;
  }
  if (!last) return std::nullopt;
  // Beyond the largest measured draw: the slope from no draw to it, extended (its own last segment could be
  // flat from noise); a saturated DRAM slows it at least this much.
  const double t = others_dram / last->others;
  return DramSlowdown{along(1.0, last->req, t), along(1.0, last->p99, t), last->others, true};
}

}  // namespace gpupack
