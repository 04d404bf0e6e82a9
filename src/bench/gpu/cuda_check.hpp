#pragma once
// CUDA runtime errors become exceptions that the worker turns into its JSON "error" field.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <stdexcept>
#include <string>

#include "core/errors.hpp"

namespace gpupack::bench::gpu {

// No usable driver or device: the worker exits 3 (unavailable) instead of 1.
class CudaUnavailable : public UnavailableError {
 public:
  using UnavailableError::UnavailableError;
};

inline void cuda_check(cudaError_t status, const char* what) {
  if (status != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(status));
}

// Checks both the launch and (without blocking) the kernel's configuration.
inline void check_launch(const char* what) { cuda_check(cudaGetLastError(), what); }

// Device memory owned for the lifetime of a measurement.
template <typename T>
class DeviceBuffer {
 public:
  explicit DeviceBuffer(size_t count) : count_(count) {
    cuda_check(cudaMalloc(reinterpret_cast<void**>(&ptr_), count * sizeof(T)), "cudaMalloc");
  }
  ~DeviceBuffer() { cudaFree(ptr_); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  T* get() const { return ptr_; }
  size_t size() const { return count_; }

 private:
  T* ptr_ = nullptr;
  size_t count_;
};

// A CUDA event pair timing device work in milliseconds.
class EventTimer {
 public:
  EventTimer() {
    cuda_check(cudaEventCreate(&start_), "cudaEventCreate");
    cuda_check(cudaEventCreate(&stop_), "cudaEventCreate");
  }
  ~EventTimer() {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }
  EventTimer(const EventTimer&) = delete;
  EventTimer& operator=(const EventTimer&) = delete;
  void start(cudaStream_t s = nullptr) { cuda_check(cudaEventRecord(start_, s), "cudaEventRecord"); }
  double stop_ms(cudaStream_t s = nullptr) {
    cuda_check(cudaEventRecord(stop_, s), "cudaEventRecord");
    cuda_check(cudaEventSynchronize(stop_), "cudaEventSynchronize");
    float ms = 0;
    cuda_check(cudaEventElapsedTime(&ms, start_, stop_), "cudaEventElapsedTime");
    return ms;
  }

 private:
  cudaEvent_t start_{}, stop_{};
};

}  // namespace gpupack::bench::gpu
