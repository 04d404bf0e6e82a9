#pragma once
// How much longer a client's kernels run when the SMs are oversubscribed, from its own SM-share curve
// (docs/decisions.md, "The triad's share of oversubscribed SMs"). The slice's contention (SM pressure, the
// DRAM sum, bursts) says the client's kernels get 1 / contention of the SMs they had: its cap (at most its
// kernels' width) / contention. The model assumed kernel time grows in proportion (x contention); a
// bandwidth-bound kernel does not need all of its SMs to keep the DRAM busy, and its curve measured that:
// the STREAM triad kept 94-96% of its req/s at 25% of the SMs on an H100 and 82% on an H200
// (results/run34-corpus-h100, run39-corpus-h200). Between two points of the curve its request time is taken
// as a part the SMs do not set plus a part in inverse proportion to them, time(s) = A + B / s (a roofline:
// the DRAM transfers take as long on fewer SMs, the work on the SMs longer), and below the lowest point the
// lowest segment's A and B carry on.
//
// Only where the curve measures the kernels themselves: the client's kernels run at least
// steady_kernel_share of the time (its req/s alone is its kernels' rate, no launch or host time in it), and
// they are wider than the curve's lowest point (the caps cut them there; a curve flat above a narrow
// kernel's width says nothing about its SMs). Not where its MPS grid's copies saturated the GPU
// (model/host_cpu_grid.hpp, grid_gpu_demand): they measured the contention itself.
#include <optional>

#include "core/profile_facts.hpp"

namespace gpupack {

struct KernelStretch {
  double share = 0;         // the share of the GPU's SMs its kernels get: min(cap, width) / contention (0..1)
  double stretch = 1;       // its kernel time there over at min(cap, width), within [1, contention]
  int from_pct = 0;         // the curve's segment read at `share`
  int to_pct = 0;
  bool below_curve = false;  // `share` is below the curve's lowest point: the lowest segment carried on
};

// Its kernel time beside neighbours whose contention is `contention` (> 1) under a cap of `cap` (a share of
// the SMs, 0..1); none where the curve does not measure its kernels (above) or nothing is oversubscribed:
// then the kernel time grows x contention.
std::optional<KernelStretch> curve_kernel_stretch(const ProfileFacts& p, double cap, double contention,
                                                  double steady_kernel_share);

}  // namespace gpupack
