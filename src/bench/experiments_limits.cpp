// Limit checks under MPS: the active thread percentage (SMs seen, throughput) and the pinned device
// memory limit (within succeeds, beyond fails).
#include <algorithm>
#include <cmath>

#include "bench/experiments.hpp"

namespace gpupack::bench {

ThreadLimitCheck run_thread_limit(const ExperimentContext& ctx, int percent, const ModeEnvironment& env) {
  WorkerRequest req;
  req.mode = WorkerMode::fma;
  // Eight blocks per SM of the whole GPU: enough to fill every SM the cap allows, so the throughput
  // follows the SM share.
  req.blocks = ctx.device.sm_count * 8;
  req.threads = 256;
  req.launches = 10;
  req.iters = std::max(1L, std::lround(ctx.device.saturating_iters_per_ms * ctx.plan.limit_work_ms / req.launches));
  ModeEnvironment capped = env;
  capped.set["CUDA_MPS_ACTIVE_THREAD_PERCENTAGE"] = std::to_string(percent);
  const auto j = ctx.workers.run_one({req, capped});
  ThreadLimitCheck check;
  check.percent = percent;
  check.sms_seen = j.at("sm_count").get<int>();
  check.sm_total = ctx.device.sm_count;
  check.gflops = j.at("gflops").get<double>();
  return check;
}

MemoryLimitCheck run_memory_limit(const ExperimentContext& ctx, const ModeEnvironment& env) {
  WorkerRequest req;
  req.mode = WorkerMode::memlimit;
  req.within_mib = ctx.plan.mem_within_mib;
  req.beyond_mib = ctx.plan.mem_beyond_mib;
  ModeEnvironment limited = env;
  // Device 0 of the client: the daemon exposes exactly one GPU.
  limited.set["CUDA_MPS_PINNED_DEVICE_MEM_LIMIT"] = "0=" + std::to_string(ctx.plan.mem_limit_mib) + "M";
  const auto j = ctx.workers.run_one({req, limited});
  MemoryLimitCheck m;
  m.limit_mib = ctx.plan.mem_limit_mib;
  m.within_mib = ctx.plan.mem_within_mib;
  m.beyond_mib = ctx.plan.mem_beyond_mib;
  m.within_ok = j.at("within").at("ok").get<bool>();
  m.within_error = j.at("within").at("error").get<std::string>();
  m.beyond_failed = !j.at("beyond").at("ok").get<bool>();
  m.beyond_error = j.at("beyond").at("error").get<std::string>();
  return m;
}

}  // namespace gpupack::bench
