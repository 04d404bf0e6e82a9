#pragma once
// Launchers for the bench kernels. Every kernel does a fixed amount of real work (FMA chains, a tiled
// GEMM, memory traffic) so that its time grows when its context is switched out or its SMs are shared.
// Never a clock64() spin: a spin keeps counting while its context is off the GPU and hides contention.
#include <cuda_runtime_api.h>

#include <cstddef>

namespace gpupack::bench::gpu {

// blocks x threads threads, each running `iters` iterations of 8 independent FMA chains; writes one float
// per thread to out (blocks * threads floats) so the compiler keeps the work.
void launch_fma(float* out, int blocks, int threads, long iters, cudaStream_t stream);

// C = A * B for n x n row-major floats (n a multiple of 16), shared-memory tiles of 16 x 16.
void launch_gemm(const float* a, const float* b, float* c, int n, cudaStream_t stream);

// y[i] = f(x[i]) for n floats, with `rounds` FMAs per element: reads and writes each element once.
void launch_transform(const float* x, float* y, size_t n, int rounds, cudaStream_t stream);

// a[i] = b[i] + s * c[i] for n floats (n a multiple of 4, the vectors 16-byte aligned, as cudaMalloc's are).
void launch_triad(float* a, const float* b, const float* c, size_t n, float s, cudaStream_t stream);

}  // namespace gpupack::bench::gpu
