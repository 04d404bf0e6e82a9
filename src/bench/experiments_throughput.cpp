// Streams and K throughput clients (time-slicing, MPS, MIG).
#include <algorithm>
#include <cmath>

#include "bench/experiments.hpp"

namespace gpupack::bench {

namespace {
long iters_for(double iters_per_ms, double ms) { return std::max(1L, std::lround(iters_per_ms * ms)); }

std::vector<double> doubles(const nlohmann::json& j) { return j.get<std::vector<double>>(); }
}  // namespace

StreamsResult run_streams_experiment(const ExperimentContext& ctx) {
  WorkerRequest req;
  req.mode = WorkerMode::streams;
  req.threads = ctx.plan.client_threads;
  // One block per SM, like a throughput client's blocks, so the same calibration applies.
  req.iters = iters_for(ctx.device.client_iters_per_ms, ctx.plan.stream_kernel_ms);
  req.launches = ctx.plan.stream_reps;
  const auto j = ctx.workers.run_one({req, plain_environment()});
  StreamsResult r;
  for (const auto& k : j.at("kernels")) {
    r.kernels.push_back(StreamKernels{k.at("k").get<int>(), k.at("blocks_per_kernel").get<int>(),
                                      doubles(k.at("serial_ms")), doubles(k.at("concurrent_ms"))});
  }
  const auto& c = j.at("copy_overlap");
  r.copy.chunks = c.at("chunks").get<int>();
  r.copy.streams = c.at("streams").get<int>();
  r.copy.rounds_per_element = c.at("rounds_per_element").get<int>();
  r.copy.chunk_bytes = c.at("chunk_bytes").get<std::uint64_t>();
  r.copy.serial_ms = doubles(c.at("serial_ms"));
  r.copy.overlapped_ms = doubles(c.at("overlapped_ms"));
  return r;
}

ClientRun run_client_experiment(const ExperimentContext& ctx, const std::string& mode, const std::string& target,
                                int k, const ModeEnvironment& env) {
  WorkerRequest req;
  req.mode = WorkerMode::fma;
  req.blocks = ctx.plan.client_blocks;
  req.threads = ctx.plan.client_threads;
  req.iters = iters_for(ctx.device.client_iters_per_ms, ctx.plan.client_kernel_ms);
  req.launches = std::max(1, static_cast<int>(std::lround(ctx.plan.client_work_ms / ctx.plan.client_kernel_ms)));
  const std::vector<WorkerLaunch> launches(static_cast<size_t>(k), WorkerLaunch{req, env});
  ClientRun run{mode, target, k, {}, 0};
  for (const auto& j : ctx.workers.run_together(launches)) {
    run.seconds.push_back(j.at("seconds").get<double>());
    run.flops_per_client = j.at("flops").get<double>();
  }
  return run;
}

}  // namespace gpupack::bench
