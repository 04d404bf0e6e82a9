#pragma once
// `gpupack verify --report FILE.html`: one self-contained page: the replica table (predicted against
// measured p99 and throughput, error, spread, SLO) and bar charts of both (bench's inline SVG charts).
#include <string>

#include "verify/verify_result.hpp"

namespace gpupack::verify {

std::string render_verify_html(const VerifyReport& report, const std::string& plan_path);

}  // namespace gpupack::verify
