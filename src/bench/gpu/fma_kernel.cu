// FMA chains: pure arithmetic, no memory traffic beyond one store per thread.
#include "bench/gpu/kernels.hpp"

namespace gpupack::bench::gpu {

namespace {
// Eight independent chains keep the FMA pipes busy; the loop count is a run-time value, so the compiler
// cannot fold the work away, and the final store keeps every chain live.
__global__ void fma_kernel(float* out, long iters) {
  const unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
  float x[8];
#pragma unroll
  for (int k = 0; k < 8; ++k) x[k] = 1.0f + 1e-3f * static_cast<float>(k) + 1e-7f * static_cast<float>(tid);
  const float b = 0.9999f, c = 1e-4f;
  for (long i = 0; i < iters; ++i) {
#pragma unroll
    for (int k = 0; k < 8; ++k) x[k] = fmaf(x[k], b, c);
  }
  float sum = 0.0f;
#pragma unroll
  for (int k = 0; k < 8; ++k) sum += x[k];
  out[tid] = sum;
}
}  // namespace

void launch_fma(float* out, int blocks, int threads, long iters, cudaStream_t stream) {
  fma_kernel<<<blocks, threads, 0, stream>>>(out, iters);
}

}  // namespace gpupack::bench::gpu
