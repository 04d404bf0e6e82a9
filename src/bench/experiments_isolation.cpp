// Latency isolation: the latency-critical client alone or beside a saturating neighbour.
#include <algorithm>
#include <cmath>

#include "bench/experiments.hpp"

namespace gpupack::bench {

namespace {

WorkerRequest neighbour_request(const ExperimentContext& ctx) {
  WorkerRequest req;
  req.mode = WorkerMode::neighbour;
  req.gemm_n = ctx.plan.gemm_n;
  req.sync = true;
  return req;
}

WorkerRequest latency_request(const ExperimentContext& ctx) {
  WorkerRequest req;
  req.mode = WorkerMode::latency;
  req.blocks = 4;  // a small request: a few blocks, far from filling the GPU
  req.threads = 128;
  req.iters = std::max(1L, std::lround(ctx.device.latency_iters_per_ms * ctx.plan.latency_kernel_us / 1000.0));
  req.launches = ctx.plan.latency_samples;
  return req;
}

double neighbour_rate(const ChildGroup& group) {
  return parse_worker_output(group.outcome(0).out, "bench-worker neighbour").at("kernels_per_s").get<double>();
}

}  // namespace

double run_neighbour_alone(const ExperimentContext& ctx, const ModeEnvironment& env) {
  ChildGroup neighbour({ctx.workers.spec({neighbour_request(ctx), env})});
  neighbour.wait_ready(std::chrono::seconds(60));
  neighbour.send_all("go");
  neighbour.wait_for(std::chrono::milliseconds(200));  // past the first kernels' ramp-up
  neighbour.send_all("mark");
  neighbour.wait_for(std::chrono::milliseconds(static_cast<long>(ctx.plan.neighbour_alone_s * 1000)));
  neighbour.send_all("stop");
  neighbour.wait_exit(std::chrono::seconds(60));
  return neighbour_rate(neighbour);
}

IsolationRun run_isolation_experiment(const ExperimentContext& ctx, const std::string& setting,
                                      const ModeEnvironment& client_env, const ModeEnvironment* neighbour_env,
                                      std::optional<int> neighbour_cap) {
  IsolationRun run{setting, neighbour_cap, {}, std::nullopt};
  const WorkerLaunch client{latency_request(ctx), client_env};
  if (!neighbour_env) {
    run.latency_us = ctx.workers.run_one(client).at("samples_us").get<std::vector<double>>();
    return run;
  }
  ChildGroup neighbour({ctx.workers.spec({neighbour_request(ctx), *neighbour_env})});
  neighbour.wait_ready(std::chrono::seconds(60));
  neighbour.send_all("go");
  // The client's context creation happens while the neighbour runs, as it would in production; the
  // neighbour's throughput is counted only while the client measures (from "mark" to "stop").
  ChildGroup latency({ctx.workers.spec(client)});
  latency.wait_ready(std::chrono::seconds(60));
  neighbour.send_all("mark");
  latency.send_all("go");
  latency.wait_exit(std::chrono::minutes(5));
  neighbour.send_all("stop");
  neighbour.wait_exit(std::chrono::seconds(60));
  run.latency_us = parse_worker_output(latency.outcome(0).out, "bench-worker latency")
                       .at("samples_us")
                       .get<std::vector<double>>();
  run.neighbour_kernels_per_s = neighbour_rate(neighbour);
  return run;
}

}  // namespace gpupack::bench
