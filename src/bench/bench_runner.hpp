#pragma once
// Runs the selected parts in an order that keeps modes apart: everything without MPS first, then
// gpupack's private MPS daemon for the MPS parts, quit before returning (also when a part throws).
#include <stdexcept>
#include <string>

#include "bench/options.hpp"
#include "core/errors.hpp"
#include "bench/progress.hpp"
#include "bench/results.hpp"
#include "measure/gpu_use_watch.hpp"
#include "os/env.hpp"

namespace gpupack::bench {

// No usable GPU or driver here (the info worker said so): exit 3.
class DeviceUnavailable : public UnavailableError {
 public:
  using UnavailableError::UnavailableError;
};

// `worker_executable` is gpupack itself (it re-runs as `gpupack bench-worker`). Temporary directories,
// report files, the MPS daemon's files and the start time go through `env`. `gpu_use` (optional) watches
// the --client-cmd copies' GPU memory (experiments_grid.hpp).
BenchResults run_bench(const BenchOptions& options, const std::string& worker_executable, Progress& progress, Env env,
                       measure::GpuUseWatch* gpu_use = nullptr);

}  // namespace gpupack::bench
