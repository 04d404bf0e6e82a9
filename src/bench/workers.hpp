#pragma once
// Starting `gpupack bench-worker` processes in a given sharing mode and collecting their JSON results.
#include <nlohmann/json.hpp>

#include <chrono>
#include <map>
#include <string>
#include <vector>

#include "bench/child_group.hpp"
#include "bench/worker_protocol.hpp"

namespace gpupack::bench {

// The environment of a worker or user client: what one sharing mode sets and removes.
struct ModeEnvironment {
  std::map<std::string, std::string> set;
  std::vector<std::string> unset;
};

// No MPS: removes any CUDA_MPS_* a user's shell may carry, so the process gets its own context.
ModeEnvironment plain_environment();
// A client of gpupack's private daemon (the pipe/log variables from MpsSession), plus extra variables
// such as CUDA_MPS_ACTIVE_THREAD_PERCENTAGE. CUDA_VISIBLE_DEVICES is removed: the daemon chose the GPU.
ModeEnvironment mps_environment(const std::map<std::string, std::string>& daemon_env,
                                const std::map<std::string, std::string>& extra = {});
// One MIG instance, by its MIG UUID.
ModeEnvironment mig_environment(const std::string& mig_uuid);

struct WorkerLaunch {
  WorkerRequest request;
  ModeEnvironment env;
};

class Workers {
 public:
  explicit Workers(std::string executable) : executable_(std::move(executable)) {}
  ChildSpec spec(const WorkerLaunch& launch) const;
  // Starts all, waits until all are ready, says go to all at once, and returns each result in order.
  std::vector<nlohmann::json> run_together(const std::vector<WorkerLaunch>& launches,
                                           std::chrono::milliseconds timeout = std::chrono::seconds(120)) const;
  nlohmann::json run_one(const WorkerLaunch& launch, std::chrono::milliseconds timeout = std::chrono::seconds(120)) const;

 private:
  std::string executable_;
};

}  // namespace gpupack::bench
