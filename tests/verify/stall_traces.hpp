#pragma once
// Synthetic request traces for the shared-stall tests, shaped like the H100 probe
// (results/tail-probe-h100): a GEMM job whose 6 ms requests run back to back, a small-kernel MLP
// (0.2 ms requests) and launch-bound CNNs (3 ms requests). Every `every`-th GEMM request stalls the others:
// the MLP request that starts with it ends with it, and a CNN request that overlaps it takes that much
// longer.
#include <cmath>
#include <vector>

#include "verify/shared_stalls.hpp"

namespace gpupack::testing {

using verify::ClientSpans;
using verify::RequestSpan;

struct StallTrace {
  std::vector<ClientSpans> clients;  // gemm-0, mlp-b8-0, resnet18-b1-0, resnet18-b1-1
  int stalls = 0;
};

// every == 0: no stall. `offset_s` shifts the stalls off the GEMM's request boundaries (not in step).
inline StallTrace stall_trace(double seconds, int every, double offset_s = 0) {
  StallTrace out;
  ClientSpans gemm{"gemm-0", {}}, mlp{"mlp-b8-0", {}};
  std::vector<RequestSpan> stalls;
  int n = 0;
  for (double t = 0; t + 0.006 <= seconds; t += 0.006, ++n) {
    gemm.requests.push_back({t, t + 0.006});
    if (every > 0 && n % every == every - 1) stalls.push_back({t + offset_s, t + offset_s + 0.006});
  }
  out.stalls = static_cast<int>(stalls.size());
  size_t next = 0;
  for (double t = 0; t + 0.0002 <= seconds;) {
    while (next < stalls.size() && stalls[next].end_s <= t) ++next;
    double end = t + 0.0002;
    if (next < stalls.size() && stalls[next].start_s < end) end = std::max(end, stalls[next].end_s);
    mlp.requests.push_back({t, end});
    t = end;
  }
  out.clients = {gemm, mlp};
  for (int k = 0; k < 2; ++k) {
    ClientSpans cnn{"resnet18-b1-" + std::to_string(k), {}};
    next = 0;
    // Slightly different lengths (and a little jitter) so the two CNNs drift against the stalls.
    for (double t = 0.0007 * k; t + 0.003 <= seconds;) {
      double end = t + 0.003 + 0.0001 * k + 0.0002 * std::fabs(std::sin(t * 977));
      while (next < stalls.size() && stalls[next].end_s <= t) ++next;
      if (next < stalls.size() && stalls[next].start_s < end)
        end += stalls[next].end_s - stalls[next].start_s;
      cnn.requests.push_back({t, end});
      t = end;
    }
    out.clients.push_back(cnn);
  }
  return out;
}

}  // namespace gpupack::testing
