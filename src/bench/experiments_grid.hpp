#pragma once
// One cell of the co-location grid of the user's program (--client-cmd): K copies through /bin/sh -c,
// each with its own client report file (GPUPACK_REPORT) and one shared GPUPACK_GO file, created once every
// copy wrote its ready line, so that all copies are measured in the same steady window. Optionally the
// neighbour program (--neighbour-cmd) runs in the same group. Copies that write no report at all and exit
// by themselves are measured by their time on the GPU (first GPU use to exit) where a GPU backend watches,
// and by wall time.
#include <optional>
#include <string>

#include "bench/options.hpp"
#include "bench/workers.hpp"
#include "measure/colocation_grid.hpp"
#include "measure/gpu_use_watch.hpp"
#include "os/env.hpp"
#include "os/proc_reader.hpp"

namespace gpupack::bench {

struct GridCellRequest {
  std::string mode;  // measured_mode(Sharing::time_slicing) or measured_mode(Sharing::mps): "timeslicing", "mps"
  int k = 0;         // copies of the program (0: the neighbour alone)
  ModeEnvironment client_env;
  std::optional<ModeEnvironment> neighbour_env;  // set: the neighbour runs in this cell
  std::optional<int> neighbour_cap;              // its active thread percentage (already in neighbour_env)
};

// "mps K=1 + neighbour at 50%": the cell's name in progress lines, tables and messages.
std::string grid_cell_label(const GridCellRequest& request);

// Never throws for a failed copy or a timeout (the cell's `error` says which copy and why); throws
// Interrupted on Ctrl-C, after every copy was killed. The cell's scratch directory, report files and go
// file go through `env`. gpu_use, when given, watches the copies' GPU memory: each copy's first GPU use,
// its time on the GPU from there to its exit, its peak memory (what is known of a program that reports
// nothing).
// proc, when given, samples each member's process tree's CPU time over the window (its host cores).
measure::GridCell run_grid_cell(const BenchOptions& options, const GridCellRequest& request, Env env,
                                measure::GpuUseWatch* gpu_use = nullptr, const ProcReader* proc = nullptr);

}  // namespace gpupack::bench
