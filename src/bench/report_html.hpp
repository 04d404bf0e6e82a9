#pragma once
// The `--report FILE.html` page: one self-contained file (inline CSS and SVG, no script, no external
// resource) with the device, the verdicts, and charts of throughput by mode and K, latency distributions
// per setting, and the limit checks.
#include <string>

#include "bench/results.hpp"

namespace gpupack::bench {

std::string render_report(const BenchResults& results);

}  // namespace gpupack::bench
