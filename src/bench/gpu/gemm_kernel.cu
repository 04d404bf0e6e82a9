// A classic shared-memory tiled SGEMM: the saturating neighbour. Every block loads 16x16 tiles of A and
// B, so the kernel uses all SMs, shared memory and the memory system, like a real model's matmuls.
#include "bench/gpu/kernels.hpp"

namespace gpupack::bench::gpu {

namespace {
constexpr int kTile = 16;

__global__ void gemm_kernel(const float* a, const float* b, float* c, int n) {
  __shared__ float ta[kTile][kTile];
  __shared__ float tb[kTile][kTile + 1];  // +1: no bank conflicts when reading columns
  const int row = blockIdx.y * kTile + threadIdx.y;
  const int col = blockIdx.x * kTile + threadIdx.x;
  float acc = 0.0f;
  for (int t = 0; t < n; t += kTile) {
    ta[threadIdx.y][threadIdx.x] = a[row * n + t + threadIdx.x];
    tb[threadIdx.y][threadIdx.x] = b[(t + threadIdx.y) * n + col];
    __syncthreads();
#pragma unroll
    for (int k = 0; k < kTile; ++k) acc = fmaf(ta[threadIdx.y][k], tb[k][threadIdx.x], acc);
    __syncthreads();
  }
  c[row * n + col] = acc;
}
}  // namespace

void launch_gemm(const float* a, const float* b, float* c, int n, cudaStream_t stream) {
  const dim3 block(kTile, kTile);
  const dim3 grid(static_cast<unsigned>(n / kTile), static_cast<unsigned>(n / kTile));
  gemm_kernel<<<grid, block, 0, stream>>>(a, b, c, n);
}

}  // namespace gpupack::bench::gpu
