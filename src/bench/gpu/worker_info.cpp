// `bench-worker info`: what the device is, and how fast the bench kernels run on it alone, so the parent
// can size every later experiment in milliseconds rather than in GPU-specific loop counts.
#include <cstdio>
#include <string>

#include "bench/gpu/cuda_check.hpp"
#include "bench/gpu/kernels.hpp"
#include "bench/gpu/worker_modes.hpp"

namespace gpupack::bench::gpu {

namespace {

std::string uuid_text(const cudaUUID_t& uuid) {
  const auto* b = reinterpret_cast<const unsigned char*>(uuid.bytes);
  char text[64];
  std::snprintf(text, sizeof text, "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0],
                b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
  return text;
}

// FMA-loop iterations per millisecond for a grid of `blocks` x `threads`: a short warm-up, then the
// median-free best of three (the GPU is idle here, so the best is the steady state).
double fma_iters_per_ms(int blocks, int threads, long iters) {
  DeviceBuffer<float> out(static_cast<size_t>(blocks) * static_cast<size_t>(threads));
  launch_fma(out.get(), blocks, threads, iters / 10, nullptr);
  check_launch("fma warm-up");
  EventTimer timer;
  double best = 1e30;
  for (int i = 0; i < 3; ++i) {
    timer.start();
    launch_fma(out.get(), blocks, threads, iters, nullptr);
    check_launch("fma calibration");
    const double ms = timer.stop_ms();
    if (ms < best) best = ms;
  }
  return static_cast<double>(iters) / best;
}

double gemm_ms(int n) {
  const size_t count = static_cast<size_t>(n) * static_cast<size_t>(n);
  DeviceBuffer<float> a(count), b(count), c(count);
  cuda_check(cudaMemset(a.get(), 0x3c, count * sizeof(float)), "cudaMemset");
  cuda_check(cudaMemset(b.get(), 0x3c, count * sizeof(float)), "cudaMemset");
  launch_gemm(a.get(), b.get(), c.get(), n, nullptr);
  check_launch("gemm warm-up");
  EventTimer timer;
  double best = 1e30;
  for (int i = 0; i < 3; ++i) {
    timer.start();
    launch_gemm(a.get(), b.get(), c.get(), n, nullptr);
    check_launch("gemm calibration");
    const double ms = timer.stop_ms();
    if (ms < best) best = ms;
  }
  return best;
}

}  // namespace

Json run_info(const WorkerRequest& request) {
  int device = 0;
  cuda_check(cudaGetDevice(&device), "cudaGetDevice");
  cudaDeviceProp prop{};
  cuda_check(cudaGetDeviceProperties(&prop, device), "cudaGetDeviceProperties");
  int driver = 0, runtime = 0, compute_mode = 0;
  cuda_check(cudaDriverGetVersion(&driver), "cudaDriverGetVersion");
  cuda_check(cudaRuntimeGetVersion(&runtime), "cudaRuntimeGetVersion");
  cuda_check(cudaDeviceGetAttribute(&compute_mode, cudaDevAttrComputeMode, device), "cudaDeviceGetAttribute");
  size_t free_bytes = 0, total_bytes = 0;
  cuda_check(cudaMemGetInfo(&free_bytes, &total_bytes), "cudaMemGetInfo");
  auto version = [](int v) { return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10); };
  static const char* kComputeModes[] = {"Default", "Exclusive_Thread", "Prohibited", "Exclusive_Process"};
  Json calibration{
      {"client_iters_per_ms", fma_iters_per_ms(request.blocks, request.threads, 200000)},
      {"latency_iters_per_ms", fma_iters_per_ms(4, 128, 200000)},
      {"saturating_iters_per_ms", fma_iters_per_ms(prop.multiProcessorCount * 8, 256, 20000)},
      {"gemm_n", request.gemm_n},
      {"gemm_ms", gemm_ms(request.gemm_n)},
  };
  return Json{{"name", prop.name},
              {"uuid", uuid_text(prop.uuid)},
              {"compute_capability", std::to_string(prop.major) + "." + std::to_string(prop.minor)},
              {"sm_count", prop.multiProcessorCount},
              {"memory_bytes", total_bytes},
              {"memory_free_bytes", free_bytes},
              {"cuda_driver_version", version(driver)},
              {"cuda_runtime_version", version(runtime)},
              {"compute_mode", compute_mode >= 0 && compute_mode < 4 ? kComputeModes[compute_mode] : "unknown"},
              {"pci_bus_id", prop.pciBusID},
              {"calibration", calibration}};
}

}  // namespace gpupack::bench::gpu
