#pragma once
// The experiments, one function each. They only start workers (workers.hpp) in the environment they are
// given and turn the workers' JSON into results.hpp values; which mode runs when, and whether MPS is up,
// is bench_runner.cpp's business.
#include <string>

#include "bench/options.hpp"
#include "bench/results.hpp"
#include "bench/workers.hpp"

namespace gpupack::bench {

struct ExperimentContext {
  const BenchPlan& plan;
  const DeviceInfo& device;
  const Workers& workers;
};

StreamsResult run_streams_experiment(const ExperimentContext& ctx);
// K throughput clients at once (mode names the result: timeslicing, mps, mig).
ClientRun run_client_experiment(const ExperimentContext& ctx, const std::string& mode, const std::string& target,
                                int k, const ModeEnvironment& env);
// The saturating neighbour's throughput with nothing else on the GPU (kernels per second).
double run_neighbour_alone(const ExperimentContext& ctx, const ModeEnvironment& env);
// The latency client alone (neighbour_env null) or beside the saturating neighbour.
IsolationRun run_isolation_experiment(const ExperimentContext& ctx, const std::string& setting,
                                      const ModeEnvironment& client_env, const ModeEnvironment* neighbour_env,
                                      std::optional<int> neighbour_cap);
ThreadLimitCheck run_thread_limit(const ExperimentContext& ctx, int percent, const ModeEnvironment& env);
MemoryLimitCheck run_memory_limit(const ExperimentContext& ctx, const ModeEnvironment& env);
}  // namespace gpupack::bench
