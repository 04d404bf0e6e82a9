#pragma once
// What a rendered MPS slice applies, as values rather than text: the limits each client gets in its
// environment and the defaults its control daemon gets. The mps/ and cdi/ targets write these into files;
// `gpupack verify` puts them into the environment of the processes it starts, so both deploy the same
// limits. Header-only (pure, small) so that any layer above render can call it.
#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "contract/client_limits.hpp"
#include "contract/plan_json.hpp"
#include "render/targets.hpp"

namespace gpupack {

// CUDA_MPS_ACTIVE_THREAD_PERCENTAGE (when the plan sets one) and CUDA_MPS_PINNED_DEVICE_MEM_LIMIT for
// device 0 of the client's view (the daemon sees only its own GPU), in this order.
inline std::vector<std::pair<std::string, std::string>> mps_client_limits(const DocPlacement& c) {
  std::vector<std::pair<std::string, std::string>> env;
  if (c.active_thread_percentage) env.emplace_back("CUDA_MPS_ACTIVE_THREAD_PERCENTAGE", std::to_string(*c.active_thread_percentage));
  env.emplace_back("CUDA_MPS_PINNED_DEVICE_MEM_LIMIT", pinned_limit_env(c.memory_limit_bytes));
  return env;
}

// The daemon's defaults for servers it starts: the largest thread percentage and pinned limit of its
// clients (clients may only tighten them), 100% and the slice's memory when none is set.
struct MpsDaemonDefaults {
  int active_thread_percentage = 100;
  std::uint64_t pinned_mem_limit_bytes = 0;
  std::string pinned_mem_limit_text() const { return mps_memory_text(pinned_mem_limit_bytes); }
};

inline MpsDaemonDefaults mps_daemon_defaults(const DocSlice& slice) {
  MpsDaemonDefaults d;
  int pct = 0;
  std::uint64_t limit = 0;
  for (const auto& c : slice.clients) {
    pct = std::max(pct, c.active_thread_percentage.value_or(100));
    limit = std::max(limit, c.memory_limit_bytes);
  }
  d.active_thread_percentage = pct == 0 ? 100 : pct;
  d.pinned_mem_limit_bytes = limit == 0 ? slice.memory_bytes : limit;
  return d;
}

}  // namespace gpupack
