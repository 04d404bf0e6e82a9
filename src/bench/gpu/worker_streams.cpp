// `bench-worker streams`: concurrency inside one process. (1) K kernels that each use 1/8 of the SMs, on
// one stream (they serialise) vs on K streams (they can run side by side). (2) A batch pipeline, H2D copy,
// compute, D2H copy per chunk, with pinned host memory: all on one stream vs chunks spread over streams so
// the copy engines work while the SMs compute.
#include <algorithm>
#include <vector>

#include "bench/gpu/cuda_check.hpp"
#include "bench/gpu/kernels.hpp"
#include "bench/gpu/worker_modes.hpp"

namespace gpupack::bench::gpu {

namespace {

constexpr int kMaxStreams = 8;
constexpr size_t kChunkFloats = size_t{4} << 20;  // 16 MiB per chunk
constexpr int kChunks = 8;
constexpr int kPipelineStreams = 4;

class Streams {
 public:
  explicit Streams(int n) : streams_(static_cast<size_t>(n)) {
    for (auto& s : streams_) cuda_check(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "cudaStreamCreate");
  }
  ~Streams() {
    for (auto s : streams_) cudaStreamDestroy(s);
  }
  Streams(const Streams&) = delete;
  Streams& operator=(const Streams&) = delete;
  cudaStream_t operator[](size_t i) const { return streams_[i % streams_.size()]; }

 private:
  std::vector<cudaStream_t> streams_;
};

class PinnedBuffer {
 public:
  explicit PinnedBuffer(size_t floats) { cuda_check(cudaMallocHost(reinterpret_cast<void**>(&ptr_), floats * sizeof(float)), "cudaMallocHost"); }
  ~PinnedBuffer() { cudaFreeHost(ptr_); }
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;
  float* get() const { return ptr_; }

 private:
  float* ptr_ = nullptr;
};

// Host-clock milliseconds of everything `work` enqueues, from an idle device to an idle device.
template <typename F>
double time_ms(F&& work) {
  cuda_check(cudaDeviceSynchronize(), "sync");
  EventTimer timer;
  timer.start();
  work();
  check_launch("streams launch");
  cuda_check(cudaDeviceSynchronize(), "sync");
  return timer.stop_ms();
}

Json kernel_concurrency(const WorkerRequest& r, const Streams& streams) {
  const int blocks = std::max(1, visible_sm_count() / kMaxStreams);
  DeviceBuffer<float> out(static_cast<size_t>(blocks) * static_cast<size_t>(r.threads) * kMaxStreams);
  auto slot = [&](int i) { return out.get() + static_cast<size_t>(i) * static_cast<size_t>(blocks * r.threads); };
  Json result = Json::array();
  for (int k : {2, 4, 8}) {
    std::vector<double> serial, concurrent;
    for (int rep = 0; rep < r.launches; ++rep) {
      serial.push_back(time_ms([&] {
        for (int i = 0; i < k; ++i) launch_fma(slot(i), blocks, r.threads, r.iters, streams[0]);
      }));
      concurrent.push_back(time_ms([&] {
        for (int i = 0; i < k; ++i) launch_fma(slot(i), blocks, r.threads, r.iters, streams[static_cast<size_t>(i)]);
      }));
    }
    result.push_back(Json{{"k", k}, {"blocks_per_kernel", blocks}, {"serial_ms", serial}, {"concurrent_ms", concurrent}});
  }
  return result;
}

// Rounds of arithmetic per element that make one chunk's kernel take about as long as copying it: the
// case where overlap can hide the most.
int balanced_rounds(const float* d_in, float* d_out, const float* h_in) {
  EventTimer timer;
  launch_transform(d_in, d_out, kChunkFloats, 64, nullptr);
  timer.start();
  cuda_check(cudaMemcpyAsync(const_cast<float*>(d_in), h_in, kChunkFloats * sizeof(float), cudaMemcpyHostToDevice, nullptr), "H2D");
  const double copy_ms = timer.stop_ms();
  timer.start();
  launch_transform(d_in, d_out, kChunkFloats, 64, nullptr);
  check_launch("transform");
  const double kernel_ms = timer.stop_ms();
  const double rounds = 64.0 * copy_ms / std::max(kernel_ms, 1e-3);
  return static_cast<int>(std::clamp(rounds, 1.0, 20000.0));
}

Json copy_overlap(const WorkerRequest& r, const Streams& streams) {
  const size_t total = kChunkFloats * kChunks;
  PinnedBuffer h_in(total), h_out(total);
  for (size_t i = 0; i < total; ++i) h_in.get()[i] = static_cast<float>(i % 1024) * 1e-3f;
  DeviceBuffer<float> d_in(total), d_out(total);
  const int rounds = balanced_rounds(d_in.get(), d_out.get(), h_in.get());
  auto pipeline = [&](bool spread) {
    for (int c = 0; c < kChunks; ++c) {
      const size_t off = static_cast<size_t>(c) * kChunkFloats;
      cudaStream_t s = spread ? streams[static_cast<size_t>(c % kPipelineStreams)] : streams[0];
      cuda_check(cudaMemcpyAsync(d_in.get() + off, h_in.get() + off, kChunkFloats * sizeof(float), cudaMemcpyHostToDevice, s), "H2D");
      launch_transform(d_in.get() + off, d_out.get() + off, kChunkFloats, rounds, s);
      cuda_check(cudaMemcpyAsync(h_out.get() + off, d_out.get() + off, kChunkFloats * sizeof(float), cudaMemcpyDeviceToHost, s), "D2H");
    }
  };
  std::vector<double> serial, overlapped;
  for (int rep = 0; rep < r.launches; ++rep) {
    serial.push_back(time_ms([&] { pipeline(false); }));
    overlapped.push_back(time_ms([&] { pipeline(true); }));
  }
  return Json{{"chunks", kChunks},          {"chunk_bytes", kChunkFloats * sizeof(float)},
              {"streams", kPipelineStreams}, {"rounds_per_element", rounds},
              {"serial_ms", serial},         {"overlapped_ms", overlapped}};
}

}  // namespace

Json run_streams(const WorkerRequest& request) {
  Streams streams(kMaxStreams);
  Json result{{"kernels", kernel_concurrency(request, streams)}, {"copy_overlap", copy_overlap(request, streams)}};
  return result;
}

}  // namespace gpupack::bench::gpu
