// `gpupack bench-worker`: dispatches to one mode and prints the result (or the error) as one JSON line.
#include <istream>
#include <ostream>
#include <string>

#include "bench/gpu/cuda_check.hpp"
#include "bench/gpu/worker_modes.hpp"
#include "bench/worker.hpp"
#include "core/exit_codes.hpp"

namespace gpupack::bench {

bool built_with_cuda() { return true; }

namespace gpu {

void ready_and_wait(const WorkerRequest& request, std::istream& in, std::ostream& out) {
  cuda_check(cudaDeviceSynchronize(), "warm-up");
  out << "ready" << std::endl;
  if (!request.sync) return;
  std::string line;
  while (std::getline(in, line)) {
    if (line == "go") return;
  }
  throw std::runtime_error("the parent closed stdin before saying go");
}

int visible_sm_count() {
  int device = 0, sms = 0;
  cuda_check(cudaGetDevice(&device), "cudaGetDevice");
  cuda_check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), "cudaDeviceGetAttribute");
  return sms;
}

void open_device() {
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess) throw CudaUnavailable(std::string("no usable CUDA driver or GPU: ") + cudaGetErrorString(status));
  if (count == 0) throw CudaUnavailable("no CUDA GPU is visible");
  cuda_check(cudaSetDevice(0), "cudaSetDevice");
  cuda_check(cudaFree(nullptr), "creating the CUDA context");
}

}  // namespace gpu

int run_worker(const WorkerRequest& request, std::istream& in, std::ostream& out) {
  using namespace gpu;
  try {
    open_device();
    // The measuring modes say "ready" themselves once warm; the others as soon as the context exists.
    if (request.mode == WorkerMode::info || request.mode == WorkerMode::streams || request.mode == WorkerMode::memlimit) {
      ready_and_wait(request, in, out);
    }
    Json result;
    switch (request.mode) {
      case WorkerMode::info: result = run_info(request); break;
      case WorkerMode::streams: result = run_streams(request); break;
      case WorkerMode::fma: result = run_fma(request, in, out); break;
      case WorkerMode::latency: result = run_latency(request, in, out); break;
      case WorkerMode::neighbour: result = run_neighbour(request, in, out); break;
      case WorkerMode::memlimit: result = run_memlimit(request); break;
    }
    out << result.dump() << std::endl;
    return exit_code::ok;
  } catch (const CudaUnavailable& e) {
    out << Json{{"error", e.what()}, {"unavailable", true}}.dump() << std::endl;
    return exit_code_for(ErrorKind::unavailable);
  } catch (const std::exception& e) {
    out << Json{{"error", e.what()}}.dump() << std::endl;
    return exit_code_for(ErrorKind::negative);
  }
}

}  // namespace gpupack::bench
