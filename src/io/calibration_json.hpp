#pragma once
// Reads the "calibration" object `gpupack bench --json FILE` writes (contract in docs/workloads.md) into
// the performance model's constants; fields left out keep their defaults.
#include <string_view>

#include "model/calibration.hpp"

namespace gpupack {

// Throws InputError (naming `source` and the field) for bad JSON (numbers out of range and keys given
// twice included), a missing "calibration" object, an unknown field or point key, a field of the wrong
// type, or a value outside what the field can be (docs/bench-schema.md: ratios 0.95-1000, fractions
// (0, 1.05]).
Calibration parse_calibration_json(std::string_view text, std::string_view source, Calibration defaults = {});

}  // namespace gpupack
