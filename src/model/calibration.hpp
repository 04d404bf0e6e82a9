#pragma once
// The synthetic model's calibration (docs/decisions.md), part of ModelParameters
// (model/model_parameters.hpp). Defaults are the measurements of ../shared/reference/mps.md on an H200;
// `gpupack plan --model bench.json` replaces them with the figures `gpupack bench` measured on the user's
// GPU.
#include <array>

namespace gpupack {

// Values of a curve at fixed points (e.g. at 25/50/75 % or at K = 2/4/8 clients).
struct CurvePoint {
  double x = 0;
  double y = 0;
};

struct Calibration {
  // p99 of a latency client beside one saturating neighbour, relative to alone.
  double timeslicing_p99_inflation = 8.4;
  double mps_p99_inflation = 1.74;
  // The same under MPS with the neighbour capped at 25/50/75 % active threads. 50 % is measured (1.09);
  // 25 and 75 % are interpolated between 0 % (no neighbour, 1.0), 50 % and 100 % (uncapped, 1.74).
  std::array<double, 3> mps_capped_p99_inflation{1.045, 1.09, 1.415};
  // Throughput the capped neighbour keeps, as a fraction of alone (50 %: measured 0.52; others interpolated).
  std::array<double, 3> mps_capped_neighbour_throughput{0.26, 0.52, 0.76};
  // Per-client time with K = 2/4/8 concurrent clients relative to one (K = 8: middle of 5.4-6.4 measured).
  std::array<double, 3> timeslicing_slowdown{2.0, 3.1, 5.9};
  std::array<double, 3> mps_slowdown{1.05, 1.06, 1.1};
};

// The cap percentages and client counts the arrays above are indexed by.
inline constexpr std::array<int, 3> kCalibrationCaps{25, 50, 75};
inline constexpr std::array<int, 3> kCalibrationClients{2, 4, 8};

}  // namespace gpupack
