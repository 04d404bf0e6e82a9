#pragma once
// How far apart a program ran alone from one start to the next (its profile's baseline runs), and whether a
// prediction's miss is no larger than that: a miss the profile could not have told from the machine's noise.
// `gpupack model replay` counts such replicas ("OR RUN RANGE") and `gpupack verify` names them. Pure.
#include <optional>

#include "core/profile_facts.hpp"

namespace gpupack::verify {

// The lowest and highest run of a baseline, each figure a ratio to its median (ProfileBaseline::req_low...);
// a figure without two runs has none.
struct RunRange {
  std::optional<double> req_low, req_high, p99_low, p99_high;
};

// The range of `b`; empty for none.
RunRange run_range_of(const ProfileBaseline* b);

// Whether a prediction error (predicted / measured - 1) is within `target` of the prediction moved anywhere
// within the runs' range [low, high] of ratios: measured / predicted within [low / (1 + target),
// high / (1 - target)]. Without a range: within the target.
bool within_run_range(double error, std::optional<double> low, std::optional<double> high, double target);

// Both figures of a replica at once (errors predicted / measured - 1), each against its target.
bool within_run_range(const RunRange& range, double req_per_s_error, double req_target, double p99_error,
                      double p99_target);

}  // namespace gpupack::verify
