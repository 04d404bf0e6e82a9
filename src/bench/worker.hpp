#pragma once
// The entry point of `gpupack bench-worker`: runs one measurement (worker_protocol.hpp) and prints its
// JSON result. Implemented by the CUDA part when it is built (src/bench/gpu), else by no_cuda_worker.cpp.
#include <iosfwd>
#include <string>

#include "bench/worker_protocol.hpp"

namespace gpupack::bench {

// Whether this binary was built with the CUDA parts (nvcc was found at build time).
bool built_with_cuda();

// Runs the request; the exit code follows docs/cli.md (3 when no GPU or driver is usable).
int run_worker(const WorkerRequest& request, std::istream& in, std::ostream& out);

// `gpupack neighbour` (docs/profile.md, "The standard neighbour"): STREAM's triad over three vectors of 128M
// floats (1.5 GiB), four passes a request, until duration_s; it writes the client report
// (docs/client-report.md) to report_path and waits for go_path after its ready line, as a measured client.
// `--kind compute`: FMA chains on every SM instead (four kernels of 2048 threads an SM a request, each block
// holding its SM for the whole kernel) and no DRAM traffic: a neighbour that holds the SMs and not the DRAM,
// for `profile --compute-neighbour-cmd` and by hand.
enum class NeighbourKind { dram, compute, reporter };
struct StandardNeighbourOptions {
  NeighbourKind kind = NeighbourKind::dram;
  long compute_iters = 4500;  // --iters: FMA iterations a thread a kernel (how long its blocks hold their SMs)
  double duration_s = 3600;
  int warmup_requests = 10;
  std::string report_path;  // GPUPACK_REPORT; "" reports nothing
  std::string go_path;      // GPUPACK_GO; "" starts the requests right away
};
// Prints one summary line to out; errors go to err. Exit codes as the worker's (3: no GPU or driver).
int run_standard_neighbour(const StandardNeighbourOptions& options, std::ostream& out, std::ostream& err);

}  // namespace gpupack::bench
