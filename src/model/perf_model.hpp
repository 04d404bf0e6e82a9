#pragma once
// The performance model (docs/decisions.md): predicted p99 inflation of a latency client from its
// neighbours' load, and per-client throughput under K concurrent clients, for each sharing.
#include <span>

#include "model/model_parameters.hpp"

namespace gpupack {

// p99 under MPS relative to alone when the neighbours may occupy `neighbour_pct` percent of the slice's
// SMs at the same time (their summed active-thread caps, at most 100): piecewise linear through
// (0, 1), (25, c25), (50, c50), (75, c75), (100, uncapped). Monotone even if a calibration is not.
double mps_p99_inflation(const ModelParameters& m, double neighbour_pct);

// p99 under time-slicing: every neighbour that is busy when a request arrives holds the GPU for a time
// slice first. `neighbour_load` are the neighbours' mean busy fractions of the slice (0..1). The busy
// count at the 99th percentile is taken as mean + timeslicing_busy_z (2.33) standard deviations (a normal approximation of
// the sum of independent Bernoulli variables), at most the number of neighbours; each busy neighbour
// adds (measured inflation - 1), which reproduces the measurement for one saturating neighbour.
double timeslicing_p99_inflation(const ModelParameters& m, std::span<const double> neighbour_load);

// The share of its own throughput an MPS client keeps under an active-thread cap of `cap_pct` when it
// keeps `demand` (0..1) of the slice's SMs busy alone: a client capped at c % does the work of a
// saturating client capped at c % (the calibrated curve through (0, 0), (25, t25), (50, t50),
// (75, t75), (100, 1), made non-decreasing), so it keeps min(1, that / demand). With the measured
// curve (50 %: 0.52) a cap at or above the demand costs nothing; a GPU where caps cost more shows it.
double mps_capped_throughput(const ModelParameters& m, int cap_pct, double demand);

// Per-client time with `k_effective` concurrently busy clients relative to one client alone, piecewise
// linear through (1, 1) and the calibrated K = 2/4/8 points, extended linearly past 8.
double timeslicing_slowdown(const ModelParameters& m, double k_effective);
double mps_slowdown(const ModelParameters& m, double k_effective);

}  // namespace gpupack
