#pragma once
// Text output of `gpupack bench` (the end-of-run table).
#include <iosfwd>

#include "bench/results.hpp"

namespace gpupack {

void print_bench_summary(std::ostream& out, const bench::BenchResults& results);

}  // namespace gpupack
