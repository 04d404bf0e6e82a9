#pragma once
// The notes verify adds on how far a run's measurements can be trusted: a p99 that rests on few requests,
// repeats that differ by more than the tolerance (docs/verify.md, "Measured").
#include <string>
#include <utility>
#include <vector>

#include "verify/verify_result.hpp"

namespace gpupack::verify {

// Adds to report.notes: the replicas in `few` (name, the fewest requests a window of it gave) whose p99
// rests on fewer than kSteadyP99Requests, and those of report.replicas whose repeats differ by more than
// report.tolerance in p99 or req/s.
void add_measurement_notes(VerifyReport& report, const std::vector<std::pair<std::string, std::string>>& few);

}  // namespace gpupack::verify
