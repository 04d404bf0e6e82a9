// The worker of a gpupack built without nvcc: it can only say so.
#include <ostream>

#include "bench/worker.hpp"
#include "core/exit_codes.hpp"

namespace gpupack::bench {

bool built_with_cuda() { return false; }

int run_worker(const WorkerRequest&, std::istream&, std::ostream& out) {
  out << R"json({"error": "gpupack was built without CUDA (nvcc was not found at build time)", "unavailable": true})json"
      << '\n';
  return exit_code_for(ErrorKind::unavailable);
}

int run_standard_neighbour(const StandardNeighbourOptions&, std::ostream&, std::ostream& err) {
  err << "gpupack neighbour: gpupack was built without CUDA (nvcc was not found at build time)\n";
  return exit_code_for(ErrorKind::unavailable);
}

}  // namespace gpupack::bench
