#pragma once
// The wait of a program's kernels for SMs that its neighbours' kernels hold, from its own profile: the cell
// beside a neighbour that can hold every SM (the standard neighbour at 100% of the threads, which
// `gpupack profile --sweep` runs; ProfileDramPoint::fills).
//
// Launch-bound programs (many short kernels, little of their request on the GPU) lose most here, and the SM
// contention of the rest of the model misses it: on an H200 bert-base-b4 (kernels 0.2 of its request) ran
// 92-104 req/s beside three dlrm-b4096 at 100% of the threads, 0.31-0.33 of its rate alone, where the
// model predicted 188 (run54, run58). A request's kernels each wait for blocks of the neighbours to leave
// SMs; beside 1, 2 and 3 dlrm (SM activity 0.83 each alone) its requests grew 2.1, 4.0 and 6.4 ms, and
// beside the triad at 50% of the threads (which leaves half the SMs free) not at all (run57, run58). So the
// wait is measured per unit of the SM activity of a neighbour that can hold every SM, and carried on how far
// the neighbours whose caps together can hold every SM, and the program itself, go past every SM
// (contention::sm_overload): beside the inference scenario's nine neighbours (1.14 of the SMs) bert grew
// 1.8 ms, not the 3.1 ms their whole activity predicted (runs 64, 77, 81). Not beside neighbours that leave
// SMs free. Nor for a program whose own kernels fill the GPU while they run (profile_prediction.cpp): there
// the cell's loss is the DRAM (run61's dlrm-b4096).
#include <optional>

#include "core/profile_facts.hpp"
#include "model/dram_sensitivity.hpp"

namespace gpupack {

struct SaturationWait {
  double per_sm = 0;       // the wait per unit of the others' SM activity, a share of its request time alone
  double measured_sm = 0;  // the largest neighbour SM activity it was measured beside
  // Its p99 less its mean request beside that neighbour, ms (ProfileDramPoint::tail_excess_ms); none where the
  // cell has no p99. Beside neighbours that keep every SM busy each request waits for them, so the wait
  // lengthens its requests alike and its slowest ones run past the rest by what its own jitter adds, as in that
  // cell: mobilenet-v3-b8's p99 was 1.23x its mean there (1.40x alone), and in the saturated mixes of runs 85-100
  // planned from the profiles alone, beside three dlrm-b4096, 1.04-1.07x (mean 18.9 ms, p99 19.8), where the
  // model's tail beside neighbours made it 1.3x and its req/s was predicted 16-23% high with its p99 within
  // -5..+3%.
  std::optional<double> tail_excess_ms;
  std::optional<double> tail_ratio;  // its p99 over its mean request there (ProfileDramPoint::tail_ratio)
};

// From the profile's cells beside a neighbour that can hold every SM and whose SM activity alone was
// measured: the request's growth beyond what `modelled` (the model with its measured DRAM residual) predicts
// for that cell, per unit of the neighbour's SM activity (the mean over such cells; none can be negative).
// None without such a cell.
std::optional<SaturationWait> measured_saturation_wait(const ProfileFacts& p, const ModelledCell& modelled);

}  // namespace gpupack
