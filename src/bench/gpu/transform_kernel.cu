// Fixed memory traffic with a tunable amount of arithmetic per element: the compute stage of the
// copy/compute overlap test (H2D, this kernel, D2H on separate streams).
#include "bench/gpu/kernels.hpp"

namespace gpupack::bench::gpu {

namespace {
__global__ void transform_kernel(const float* __restrict__ x, float* __restrict__ y, size_t n, int rounds) {
  const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  for (size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    float v = x[i];
    for (int r = 0; r < rounds; ++r) v = fmaf(v, 0.999f, 0.5f);
    y[i] = v;
  }
}
}  // namespace

void launch_transform(const float* x, float* y, size_t n, int rounds, cudaStream_t stream) {
  int sms = 0, device = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  transform_kernel<<<sms * 8, 256, 0, stream>>>(x, y, n, rounds);
}

}  // namespace gpupack::bench::gpu
