#include "os/cpu_work_probe.hpp"

#include <pthread.h>
#include <sched.h>

#include <chrono>
#include <cstdint>

namespace gpupack {

namespace {

// Each step depends on the last (a 64-bit LCG), so the chain runs at the core's speed whatever the
// compiler does; the result is kept observable.
constexpr std::uint64_t kSteps = 1u << 20;
volatile std::uint64_t g_sink = 0;

}  // namespace

double time_fixed_cpu_work_ms() {
  const auto begin = std::chrono::steady_clock::now();
  std::uint64_t x = g_sink + 1;
  for (std::uint64_t i = 0; i < kSteps; ++i) x = x * 6364136223846793005ULL + 1442695040888963407ULL;
  g_sink = x;
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - begin).count();
}

PinnedCpuWorkProbe::PinnedCpuWorkProbe() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (::sched_getaffinity(0, sizeof set, &set) != 0) return;
  for (int c = 0; c < CPU_SETSIZE; ++c) {
    if (CPU_ISSET(c, &set)) cores_.push_back(c);
  }
}

std::optional<double> PinnedCpuWorkProbe::time_next_core() {
  if (cores_.empty()) return std::nullopt;
  cpu_set_t own;
  CPU_ZERO(&own);
  if (::pthread_getaffinity_np(::pthread_self(), sizeof own, &own) != 0) return std::nullopt;
  const int core = cores_[next_++ % cores_.size()];
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(core, &one);
  if (::pthread_setaffinity_np(::pthread_self(), sizeof one, &one) != 0) return std::nullopt;
  const double ms = time_fixed_cpu_work_ms();
  ::pthread_setaffinity_np(::pthread_self(), sizeof own, &own);
  return ms;
}

}  // namespace gpupack
