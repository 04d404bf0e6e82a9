#pragma once
// The notes verify adds on how far a run's measurements can be trusted: a p99 that rests on few requests,
// repeats that differ by more than the tolerance (docs/verify.md, "Measured").
#include <string>
#include <utility>
#include <vector>

#include "verify/verify_result.hpp"

namespace gpupack::verify {

// A slice whose measured SM activity falls this far under the plan's prediction (model/slice_activity.hpp)
// is named: over the recorded corpus runs the prediction was within 0.10 of the measured in 78 of 87, and in
// every recorded run further under it (22 of 149) 14-30 launch-bound clients shared 16 host cores (16 decode
// loops: 0.11 against 0.32; 22 mobilenets beside a training job: 0.47 against 0.72; 27 resnet18-b1 beside a
// GEMM on H100s: 0.74 against 0.94).
inline constexpr double kSmActiveShortfall = 0.10;

// Adds to report.notes: the replicas in `few` (name, the fewest requests a window of it gave) whose p99
// rests on fewer than kSteadyP99Requests, those of report.replicas whose repeats differ by more than
// report.tolerance in p99 or req/s, and the slices whose SM activity fell more than kSmActiveShortfall under
// the plan's prediction.
void add_measurement_notes(VerifyReport& report, const std::vector<std::pair<std::string, std::string>>& few);

}  // namespace gpupack::verify
