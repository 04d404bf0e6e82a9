// STREAM's triad, a = b + s * c: two reads and one write per element and one FMA, so DRAM bandwidth, not
// the SMs, sets its pace (the standard neighbour's request, standard_neighbour.cpp).
#include "bench/gpu/kernels.hpp"

namespace gpupack::bench::gpu {

namespace {
__global__ void triad_kernel(float4* __restrict__ a, const float4* __restrict__ b, const float4* __restrict__ c,
                             size_t n4, float s) {
  const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  for (size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n4; i += stride) {
    const float4 x = b[i], y = c[i];
    a[i] = make_float4(fmaf(s, y.x, x.x), fmaf(s, y.y, x.y), fmaf(s, y.z, x.z), fmaf(s, y.w, x.w));
  }
}
}  // namespace

void launch_triad(float* a, const float* b, const float* c, size_t n, float s, cudaStream_t stream) {
  int sms = 0, device = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);  // under an MPS cap: the capped count
  triad_kernel<<<sms * 4, 256, 0, stream>>>(reinterpret_cast<float4*>(a), reinterpret_cast<const float4*>(b),
                                            reinterpret_cast<const float4*>(c), n / 4, s);
}

}  // namespace gpupack::bench::gpu
