#pragma once
// The entry point of `gpupack bench-worker`: runs one measurement (worker_protocol.hpp) and prints its
// JSON result. Implemented by the CUDA part when it is built (src/bench/gpu), else by no_cuda_worker.cpp.
#include <iosfwd>

#include "bench/worker_protocol.hpp"

namespace gpupack::bench {

// Whether this binary was built with the CUDA parts (nvcc was found at build time).
bool built_with_cuda();

// Runs the request; the exit code follows docs/cli.md (3 when no GPU or driver is usable).
int run_worker(const WorkerRequest& request, std::istream& in, std::ostream& out);

}  // namespace gpupack::bench
