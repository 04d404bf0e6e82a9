// The multi-process clients: a throughput client (fixed FMA work), the latency-critical client (small
// synchronous kernels, each timed on the host as a request would be), and the saturating neighbour
// (tiled GEMMs back to back until the parent says "stop").
#include <poll.h>
#include <unistd.h>

#include <chrono>
#include <istream>
#include <string>
#include <vector>

#include "bench/gpu/cuda_check.hpp"
#include "bench/gpu/kernels.hpp"
#include "bench/gpu/worker_modes.hpp"

namespace gpupack::bench::gpu {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// What the parent said since the last look, without blocking: "mark" restarts the count (the
// measured window begins), "stop" or a closed stdin ends the run. Reads fd 0 directly: the parent sends
// nothing else after "go", so nothing is lost by bypassing std::cin's buffer.
enum class Command { none, mark, stop };
Command poll_parent() {
  pollfd p{0, POLLIN, 0};
  if (poll(&p, 1, 0) <= 0) return Command::none;
  char buffer[64];
  const ssize_t n = read(0, buffer, sizeof buffer);
  if (n <= 0) return Command::stop;
  const std::string text(buffer, static_cast<size_t>(n));
  if (text.find("stop") != std::string::npos) return Command::stop;
  return text.find("mark") != std::string::npos ? Command::mark : Command::none;
}

}  // namespace

Json run_fma(const WorkerRequest& r, std::istream& in, std::ostream& out) {
  DeviceBuffer<float> buffer(static_cast<size_t>(r.blocks) * static_cast<size_t>(r.threads));
  launch_fma(buffer.get(), r.blocks, r.threads, r.iters / 20 + 1, nullptr);
  check_launch("fma warm-up");
  ready_and_wait(r, in, out);
  const auto start = Clock::now();
  for (int i = 0; i < r.launches; ++i) launch_fma(buffer.get(), r.blocks, r.threads, r.iters, nullptr);
  check_launch("fma");
  cuda_check(cudaDeviceSynchronize(), "fma");
  const double seconds = seconds_since(start);
  const double flops = 16.0 * r.blocks * r.threads * static_cast<double>(r.iters) * r.launches;  // 8 FMAs = 16 flops
  return Json{{"seconds", seconds}, {"sm_count", visible_sm_count()}, {"flops", flops}, {"gflops", flops / seconds / 1e9}};
}

Json run_latency(const WorkerRequest& r, std::istream& in, std::ostream& out) {
  DeviceBuffer<float> buffer(static_cast<size_t>(r.blocks) * static_cast<size_t>(r.threads));
  for (int i = 0; i < 20; ++i) launch_fma(buffer.get(), r.blocks, r.threads, r.iters, nullptr);
  check_launch("latency warm-up");
  ready_and_wait(r, in, out);
  std::vector<double> samples_us;
  samples_us.reserve(static_cast<size_t>(r.launches));
  const auto start = Clock::now();
  for (int i = 0; i < r.launches; ++i) {
    const auto t0 = Clock::now();
    launch_fma(buffer.get(), r.blocks, r.threads, r.iters, nullptr);
    cuda_check(cudaStreamSynchronize(nullptr), "latency kernel");
    samples_us.push_back(std::chrono::duration<double, std::micro>(Clock::now() - t0).count());
  }
  check_launch("latency");
  return Json{{"seconds", seconds_since(start)}, {"sm_count", visible_sm_count()}, {"samples_us", samples_us}};
}

Json run_neighbour(const WorkerRequest& r, std::istream& in, std::ostream& out) {
  const size_t count = static_cast<size_t>(r.gemm_n) * static_cast<size_t>(r.gemm_n);
  DeviceBuffer<float> a(count), b(count), c(count);
  cuda_check(cudaMemset(a.get(), 0x3c, count * sizeof(float)), "cudaMemset");
  cuda_check(cudaMemset(b.get(), 0x3c, count * sizeof(float)), "cudaMemset");
  launch_gemm(a.get(), b.get(), c.get(), r.gemm_n, nullptr);
  check_launch("gemm warm-up");
  ready_and_wait(r, in, out);
  // Two GEMMs in flight at all times, so the GPU never idles while the host checks for "stop".
  cudaEvent_t done[2];
  for (auto& e : done) cuda_check(cudaEventCreateWithFlags(&e, cudaEventDisableTiming), "cudaEventCreate");
  auto start = Clock::now();
  const auto first_start = start;
  long kernels = 0;
  constexpr double kMaxSeconds = 120;  // a neighbour whose parent vanished stops by itself
  for (long i = 0;; ++i) {
    cudaEvent_t& slot = done[i % 2];
    if (i >= 2) {
      cuda_check(cudaEventSynchronize(slot), "gemm");
      ++kernels;
    }
    launch_gemm(a.get(), b.get(), c.get(), r.gemm_n, nullptr);
    cuda_check(cudaEventRecord(slot, nullptr), "cudaEventRecord");
    const Command command = poll_parent();
    if (command == Command::stop || seconds_since(first_start) > kMaxSeconds) break;
    if (command == Command::mark) {
      start = Clock::now();
      kernels = 0;
    }
  }
  const double seconds = seconds_since(start);  // GEMMs still in flight are not counted
  cuda_check(cudaDeviceSynchronize(), "gemm");
  for (auto e : done) cudaEventDestroy(e);
  const double n = r.gemm_n;
  return Json{{"seconds", seconds},
              {"kernels", kernels},
              {"kernels_per_s", static_cast<double>(kernels) / seconds},
              {"gflops", 2.0 * n * n * n * static_cast<double>(kernels) / seconds / 1e9},
              {"sm_count", visible_sm_count()}};
}

Json run_memlimit(const WorkerRequest& r) {
  size_t free_bytes = 0, total_bytes = 0;
  cuda_check(cudaMemGetInfo(&free_bytes, &total_bytes), "cudaMemGetInfo");
  auto attempt = [](long mib) {
    void* p = nullptr;
    const cudaError_t status = cudaMalloc(&p, static_cast<size_t>(mib) << 20);
    if (status == cudaSuccess) cudaFree(p);
    cudaGetLastError();  // an out-of-memory error is not sticky; clear it for the next attempt
    return Json{{"mib", mib}, {"ok", status == cudaSuccess}, {"error", status == cudaSuccess ? "" : cudaGetErrorName(status)}};
  };
  return Json{{"memory_free_bytes", free_bytes}, {"memory_total_bytes", total_bytes},
              {"within", attempt(r.within_mib)}, {"beyond", attempt(r.beyond_mib)}};
}

}  // namespace gpupack::bench::gpu
