#pragma once
// What `gpupack profile` runs (docs/profile.md): the alone baseline over several fresh runs, the SM-share
// sweep, the co-location grid (K copies at once) and the program beside a standard neighbour, all MPS runs
// under one private MPS daemon. The CLI file parses the options; this file runs the measurements.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cli/command.hpp"
#include "core/gpu_catalog.hpp"
#include "gpu/gpu_backend.hpp"
#include "measure/workload_profile.hpp"
#include "os/env.hpp"

namespace gpupack {

struct ProfileArgs {
  double duration = 10, warmup = 3, interval = 0.5, headroom = 0.15, startup_timeout = 120, tolerance = 0.10, p99_tolerance = 0.10;
  int repeat = 2;
  bool repeat_all = false;
  int baseline_runs = 3;                  // fresh starts of the alone baseline (and the sweep's reference)
  double baseline_spread_limit = 0.10;    // the bound on the baseline's req/s and p50 spread
  std::string grid;                       // --grid: copy counts ("2,4,8"); "" without
  bool grid_timeslicing = false;          // --grid-timeslicing: the same K without MPS too
  bool no_grid = false;                   // --no-grid: no short grid with --sweep
  bool no_grid_timeslicing = false;       // --no-grid-timeslicing: the short grid under MPS only
  std::string neighbour_cmd;              // --neighbour-cmd (through /bin/sh -c)
  std::string compute_neighbour_cmd;      // --compute-neighbour-cmd: a compute-bound neighbour (through /bin/sh -c)
  bool no_neighbour = false;              // --no-neighbour: no standard neighbour with --sweep
  std::string pressure_cmd;               // --pressure-cmd: the launch-bound reporter (through /bin/sh -c)
  bool no_pressure = false;               // --no-pressure: no reporter with --sweep
  std::string neighbour_caps = "25,50,100";  // --neighbour-caps: the neighbour's MPS thread percentages
  bool neighbour_caps_given = false;      // stated on the command line (it needs a neighbour)
  std::string name, output, sweep, colocation, mps_control = "nvidia-cuda-mps-control";
  OutputFormat format = OutputFormat::yaml;
  std::vector<std::string> command;

  bool needs_mps() const {
    return !sweep.empty() || !grid.empty() || !neighbour_cmd.empty() || !compute_neighbour_cmd.empty() || !pressure_cmd.empty();
  }
  // --sweep without --grid, --no-grid or --colocation also runs the short grid (default_grid_k).
  bool short_grid() const { return !sweep.empty() && grid.empty() && !no_grid && colocation.empty(); }
  // --sweep without --neighbour-cmd, --no-neighbour or --colocation also runs beside the standard neighbour.
  bool standard_neighbour() const { return !sweep.empty() && neighbour_cmd.empty() && !no_neighbour && colocation.empty(); }
  // --sweep without --no-pressure or --colocation also runs the reporter (`gpupack neighbour --kind reporter`)
  // beside the program where the standard neighbour can run (NVML, built with CUDA, memory free).
  bool standard_reporter() const { return !sweep.empty() && pressure_cmd.empty() && !no_pressure && colocation.empty(); }
};

// The copies of the short co-location grid that --sweep runs beside K = 1 when no --grid is given (issue 36,
// item 3: the launch path's cost and a GPU-bound program's demand from the program's own copies, not from the
// constant fitted on H100 hosts, which H200 hosts did not show: results/run46-inference-grid). 4, or fewer
// where half the usable cores (the copies' waits for a core are not what this grid is for) or 90% of the
// GPU's free memory at the program's peak a copy hold fewer; 0, no grid, below 2. Free memory unknown: not
// bounded by it.
int default_grid_k(std::uint64_t peak_bytes, std::optional<std::uint64_t> free_bytes, int usable_cores);

// The short grid's cells, (mode, K) in the order they run, for its `k` copies (default_grid_k): one copy and
// k at once without MPS (time-slicing, first: no MPS server may be on the GPU then) unless
// --no-grid-timeslicing, then under the daemon. Issue 36, item 6: every profile's time-slicing figures come
// from its own copies, not the synthetic model (which predicted the decode loop's p99 x27.4 where it grew
// x1.5-1.9). None without the short grid or below 2 copies.
struct GridCellKey {
  std::string mode;  // "timeslicing" or "mps"
  int k = 1;
  bool operator==(const GridCellKey&) const = default;
};
std::vector<GridCellKey> short_grid_cells(const ProfileArgs& a, int k);

// The command that runs gpupack's standard neighbour (`gpupack neighbour`, a DRAM-bound STREAM triad of
// 1.5 GiB) beside the program when --sweep asks for it (ProfileArgs::standard_neighbour), so that every
// profile measures its slowdown beside a DRAM-heavy neighbour (issue 36, item 3) with no program of the
// user's: "exec SELF neighbour". "" with why_not set where it cannot run here: a GPU backend other than
// NVML (the fake one of tests has no CUDA device), a gpupack built without CUDA, or less free GPU memory than
// the program's peak and the neighbour's 2 GiB (its vectors and its context) together.
inline constexpr std::uint64_t kStandardNeighbourBytes = std::uint64_t{2} << 30;
std::string standard_neighbour_command(const std::string& self_exe, const std::string& backend, bool built_with_cuda,
                                       std::uint64_t peak_bytes, std::optional<std::uint64_t> free_bytes,
                                       std::string& why_not);

// Checks the options that only make sense together and the lists (--grid, --neighbour-caps, --sweep):
// throws InputError naming the option and what is accepted, before anything runs.
void check_profile_args(const ProfileArgs& a);

// Runs every measurement the options ask for. Throws measure::ProfileError (the program could not be
// measured), measure::ProfileInterrupted or bench::Interrupted (Ctrl-C), MpsError, or std::runtime_error
// when the program cannot be started. The private MPS daemon is told to quit on every path.
measure::WorkloadProfile measure_program(const ProfileArgs& a, GpuBackend& gpu, Env env, const GpuCatalog& catalog,
                                         const std::string& scratch);

}  // namespace gpupack
