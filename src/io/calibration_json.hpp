#pragma once
// Reads the "calibration" object `gpupack bench --json FILE` writes (contract in docs/workloads.md) into
// the performance model's constants; fields left out keep their defaults.
#include <string_view>

#include "planner/calibration.hpp"

namespace gpupack {

// Throws InputError (naming `source` and the field) for bad JSON, a missing "calibration" object, a field
// of the wrong type, or a value that is not a positive finite number.
Calibration parse_calibration_json(std::string_view text, std::string_view source, Calibration defaults = {});

}  // namespace gpupack
