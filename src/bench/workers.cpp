#include "bench/workers.hpp"

namespace gpupack::bench {

namespace {
const std::vector<std::string> kMpsVariables{"CUDA_MPS_PIPE_DIRECTORY", "CUDA_MPS_LOG_DIRECTORY",
                                             "CUDA_MPS_ACTIVE_THREAD_PERCENTAGE", "CUDA_MPS_PINNED_DEVICE_MEM_LIMIT",
                                             "CUDA_MPS_CLIENT_PRIORITY"};
}

ModeEnvironment plain_environment() { return ModeEnvironment{{}, kMpsVariables}; }

ModeEnvironment mps_environment(const std::map<std::string, std::string>& daemon_env,
                                const std::map<std::string, std::string>& extra) {
  ModeEnvironment env{daemon_env, kMpsVariables};
  env.unset.push_back("CUDA_VISIBLE_DEVICES");
  for (const auto& [k, v] : extra) env.set[k] = v;
  return env;
}

ModeEnvironment mig_environment(const std::string& mig_uuid) {
  ModeEnvironment env = plain_environment();
  env.set["CUDA_VISIBLE_DEVICES"] = mig_uuid;
  return env;
}

ChildSpec Workers::spec(const WorkerLaunch& launch) const {
  ChildSpec spec;
  spec.argv = {executable_, "bench-worker"};
  for (auto& a : to_args(launch.request)) spec.argv.push_back(a);
  spec.env = launch.env.set;
  spec.unset_env = launch.env.unset;
  return spec;
}

std::vector<nlohmann::json> Workers::run_together(const std::vector<WorkerLaunch>& launches,
                                                  std::chrono::milliseconds timeout) const {
  std::vector<ChildSpec> specs;
  for (size_t i = 0; i < launches.size(); ++i) {
    WorkerLaunch launch = launches[i];
    launch.request.sync = true;
    ChildSpec s = spec(launch);
    // Which of how many clients this is (logs, and fake workers in tests shape their numbers by it).
    s.env["GPUPACK_BENCH_CLIENT"] = std::to_string(i);
    s.env["GPUPACK_BENCH_CLIENTS"] = std::to_string(launches.size());
    specs.push_back(std::move(s));
  }
  ChildGroup group(specs);
  group.wait_ready(timeout);
  group.send_all("go");
  group.wait_exit(timeout);
  std::vector<nlohmann::json> results;
  for (size_t i = 0; i < group.size(); ++i) {
    const ChildOutcome& o = group.outcome(i);
    const std::string what = std::string("bench-worker ") + to_string(launches[i].request.mode);
    auto result = parse_worker_output(o.out, what);
    if (o.exit_code != 0) throw std::runtime_error(what + " exited " + std::to_string(o.exit_code) + ": " + o.err);
    results.push_back(std::move(result));
  }
  return results;
}

nlohmann::json Workers::run_one(const WorkerLaunch& launch, std::chrono::milliseconds timeout) const {
  return run_together({launch}, timeout).front();
}

}  // namespace gpupack::bench
