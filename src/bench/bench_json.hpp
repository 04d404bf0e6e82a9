#pragma once
// The `--json FILE` document (docs/bench-schema.md): settings, device, every sample, derived numbers,
// verdicts, skipped parts, and the "calibration" object that `gpupack plan --calibration` reads.
#include <nlohmann/json.hpp>

#include "bench/results.hpp"

namespace gpupack::bench {

inline constexpr int kSchemaVersion = 2;
// The p99 and req/s tolerance of the compute demand read from --sweep (as `gpupack profile --sweep`).
inline constexpr double kSweepTolerance = 0.10;

nlohmann::ordered_json to_json(const BenchResults& results);

}  // namespace gpupack::bench
