#include "os/cpu_work_probe.hpp"

#include <pthread.h>
#include <sched.h>

#include <chrono>
#include <cstdint>

namespace gpupack {

namespace {

// Eight independent chains (64-bit LCGs and shift-adds), so the core issues several instructions a cycle,
// as an interpreter or a launch path does: such work shares a physical core's execution units with whatever
// runs on its SMT sibling (another guest's vCPU, on a VM), where one dependent chain hardly notices. On the
// device machines (run73) one dependent chain took 1.36-1.57 ms on a vCPU while these eight took 1.4 or
// 2.1-2.4 ms (two modes), as a Python loop did 26 or 45 ms. The result is kept observable.
constexpr std::uint64_t kSteps = 1u << 20;
volatile std::uint64_t g_sink = 0;

}  // namespace

double time_fixed_cpu_work_ms() {
  const auto begin = std::chrono::steady_clock::now();
  constexpr std::uint64_t kMul = 6364136223846793005ULL;
  std::uint64_t a = g_sink + 1, b = a + 2, c = a + 4, d = a + 6, e = a + 8, f = a + 10, g = a + 12, h = a + 14;
  for (std::uint64_t i = 0; i < kSteps; ++i) {
    a = a * kMul + 1;
    b = b * kMul + 3;
    c = c * kMul + 5;
    d = d * kMul + 7;
    e = e ^ (e >> 7) ^ i;
    f = f + (f << 3) + i;
    g = (g ^ i) + (g >> 5);
    h = h + i * 3;
  }
  g_sink = a ^ b ^ c ^ d ^ e ^ f ^ g ^ h;
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
