#include "model/kernel_share_stretch.hpp"

#include <algorithm>

#include "model/host_cpu_grid.hpp"
#include "model/profile_alone.hpp"

namespace gpupack {

namespace {

// The request time at `pct` percent of the SMs on the segment through points a and b, A + B / pct fitted
// through both: B at least 0 (fewer SMs never make it faster; a noisy curve can rise below its top), A at
// least 0 (no part of it goes faster than in proportion to the SMs).
double segment_time(const ProfileSharePoint& a, const ProfileSharePoint& b, double pct) {
  const double ta = 1 / a.req_per_s;
  const double tb = 1 / b.req_per_s;
  const double inverse_span = 1.0 / a.pct - 1.0 / b.pct;
  const double per_inverse_pct = inverse_span > 0 ? std::max(0.0, (ta - tb) / inverse_span) : 0.0;
  const double fixed = std::max(0.0, ta - per_inverse_pct / a.pct);
  return fixed + per_inverse_pct / pct;
}

// The segment of the curve (sorted by pct) that holds `pct`: the lowest one below the curve, the highest
// above it.
size_t segment_at(const std::vector<ProfileSharePoint>& c, double pct) {
  for (size_t i = 1; i < c.size(); ++i) {
    if (pct <= c[i].pct) return i - 1;
  }
  return c.size() - 2;
}

}  // namespace

std::optional<KernelStretch> curve_kernel_stretch(const ProfileFacts& p, double cap, double contention,
                                                  double steady_kernel_share) {
  const auto& c = p.share_curve;
  if (contention <= 1 || c.size() < 2 || !p.sm_active || *p.sm_active <= 0) return std::nullopt;
  // Where its own copies saturated the GPU (grid_gpu_demand), they measured what its kernels get when others
  // share the SMs, which a cap alone does not: resnet50-b32 kept 0.70 of its rate capped at 25% of an H200's
  // SMs, and 0.49 as one of 4 copies (results/run46-inference-grid). The contention then stretches it in full.
  if (grid_gpu_demand(p)) return std::nullopt;
  for (const auto& pt : c) {
    if (pt.pct <= 0 || pt.req_per_s <= 0) return std::nullopt;
  }
  const double a = std::min(1.0, *p.sm_active);
  const double exposed = kernel_exposed_share(p);
  if (exposed < steady_kernel_share) return std::nullopt;
  const double width = a / exposed;
  if (c.front().pct >= 100 * width) return std::nullopt;
  const double own_pct = 100 * std::min(std::clamp(cap, 0.0, 1.0), width);
  if (own_pct <= 0) return std::nullopt;
  KernelStretch out;
  out.share = own_pct / 100 / contention;
  const double pct = own_pct / contention;
  const size_t i = segment_at(c, pct);
  const size_t own = segment_at(c, own_pct);
  out.from_pct = c[i].pct;
  out.to_pct = c[i + 1].pct;
  out.below_curve = pct < c.front().pct;
  const double there = segment_time(c[i], c[i + 1], pct);
  const double at_own = segment_time(c[own], c[own + 1], own_pct);
  out.stretch = std::clamp(there / at_own, 1.0, contention);
  return out;
}

}  // namespace gpupack
