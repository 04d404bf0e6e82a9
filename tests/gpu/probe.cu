// A tiny CUDA client for the GPU-machine check (tests/gpu/node_on_gpu.sh):
//   probe sms             prints the SMs the process may use (MPS active thread percentage applies)
//   probe busy SEC MIB    allocates MIB of device memory and keeps the GPU busy for SEC seconds
#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

__global__ void spin(float* data, int n, int rounds) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = data[i];
  for (int r = 0; r < rounds; ++r) x = x * 1.000001f + 0.5f;  // real arithmetic, not a clock spin
  data[i] = x;
}

int main(int argc, char** argv) {
  if (argc >= 2 && std::strcmp(argv[1], "sms") == 0) {
    int sms = 0;
    const cudaError_t e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    if (e != cudaSuccess) {
      std::fprintf(stderr, "probe: %s\n", cudaGetErrorString(e));
      return 1;
    }
    std::printf("%d\n", sms);
    return 0;
  }
  if (argc >= 4 && std::strcmp(argv[1], "busy") == 0) {
    const double seconds = std::atof(argv[2]);
    const size_t bytes = static_cast<size_t>(std::atol(argv[3])) << 20;
    float* data = nullptr;
    if (cudaMalloc(&data, bytes) != cudaSuccess) return 1;
    cudaMemset(data, 0, bytes);
    const int n = 1 << 22;
    const auto start = std::chrono::steady_clock::now();
    while (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() < seconds) {
      spin<<<n / 256, 256>>>(data, n, 2000);
      cudaDeviceSynchronize();
    }
    cudaFree(data);
    return 0;
  }
  std::fprintf(stderr, "usage: probe sms | probe busy SECONDS MIB\n");
  return 2;
}
