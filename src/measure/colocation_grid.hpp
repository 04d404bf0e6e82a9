#pragma once
// The co-location grid of one program: K copies at once under time-slicing and under MPS, optionally
// beside a neighbour program (uncapped or capped with CUDA_MPS_ACTIVE_THREAD_PERCENTAGE), each copy's
// figures read from its own client report over one steady window. Values, the curves derived from them
// (aggregate req/s and p99 against K), and the JSON form: the `colocation` object of the workload profile
// and of `gpupack bench --json`. Pure: the driver that runs the copies is in src/bench/experiments_grid.cpp.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpupack::measure {

// One process of a cell: a copy of the program, or the neighbour.
struct CopyResult {
  int exit_code = 0;       // 128 + signal when a signal ended it
  bool stopped = false;    // gpupack ended it after the window: not a failure
  double wall_s = 0;       // from start to exit, as gpupack saw it (start-up included: never the headline)
  bool reported = false;   // it wrote at least one valid report line
  long requests = 0;       // requests in the window (0 when it did not report them)
  std::optional<double> req_per_s, p50_ms, p99_ms;
  long malformed_lines = 0;  // report lines that were not valid: counted, never fatal
  // What gpupack saw of it on the GPU (measure/gpu_use_watch.hpp); none when it was never listed with GPU
  // memory or no GPU backend watched. first_gpu_s: from start to its first GPU use (its start-up);
  // gpu_s: from there to its exit (or to gpupack stopping it): its time on the GPU, without start-up.
  std::optional<double> first_gpu_s, gpu_s;
  std::optional<std::uint64_t> gpu_memory_bytes;  // its largest GPU memory seen
  // Host CPU cores its process tree used over the window (user + system time from /proc); none when not
  // watched (grids written before, or no /proc).
  std::optional<double> host_cpu_cores = std::nullopt;
};

struct GridCell {
  std::string mode;                    // a sharing's measurement_key (core/sharing.hpp): "timeslicing" or "mps"
  int k = 0;                           // copies of the program (0: the neighbour alone)
  bool with_neighbour = false;
  std::optional<int> neighbour_cap;    // the neighbour's active thread percentage (MPS); none: uncapped
  double window_s = 0;                 // the measured window (shorter when a copy ended by itself)
  std::vector<CopyResult> copies;
  std::optional<CopyResult> neighbour;
  std::string error;                   // non-empty: the cell failed (e.g. a copy exited non-zero)
  // The GPU's activity over the window (GPM means of the device the copies ran on, every process on it
  // counted: beside a neighbour, what both drew together); none without GPM or in grids written before.
  std::optional<double> gpu_sm_active = std::nullopt, gpu_dram_bw = std::nullopt;
  std::optional<double> gpu_sm_occupancy = std::nullopt;  // GPM's, the same window (added 2026-11-28)
};

struct ColocationGrid {
  std::string command;            // the program, as run through /bin/sh -c
  std::string neighbour_command;  // "" without --neighbour-cmd
  double window_s = 0;            // the window asked for
  std::vector<GridCell> cells;
  // The host the copies shared (issue 37: when copies share the cores, latency grows): its online CPUs and
  // those gpupack (and so every copy) may run on; none in grids written before.
  std::optional<int> node_cores = std::nullopt, usable_cores = std::nullopt;  // (initialised: {command, neighbour, window, cells} stays warning-free)
};

// "timeslicing K=4", "mps K=1 + neighbour at 50%", ...: how tables and messages name a cell.
std::string cell_label(const GridCell& cell);

// True when every copy of a successful cell reported requests (so req/s and percentiles exist).
bool latency_reported(const GridCell& cell);
// Sum of the copies' req/s; none when the cell failed or a copy did not report requests.
std::optional<double> aggregate_req_per_s(const GridCell& cell);
// The worst copy's p99 (ms): what a latency target has to hold for.
std::optional<double> worst_p99_ms(const GridCell& cell);
// The median and the worst over the copies of their p50 and p99 (ms); none unless every copy reports it.
std::optional<double> median_p50_ms(const GridCell& cell);
std::optional<double> worst_p50_ms(const GridCell& cell);
std::optional<double> median_p99_ms(const GridCell& cell);
// Host cores all copies used together (the neighbour not counted); none unless every copy has it.
std::optional<double> copies_host_cpu_cores(const GridCell& cell);
double mean_wall_s(const GridCell& cell);
// Mean time on the GPU (first GPU use to exit) of the copies; none unless every copy has one.
std::optional<double> mean_gpu_s(const GridCell& cell);

// The neighbour's req/s in a cell over its req/s alone (the k = 0 cell); none when either is missing.
std::optional<double> neighbour_fraction(const ColocationGrid& grid, const GridCell& cell);

// The cell of a mode and K without a neighbour (nullptr when absent or failed).
const GridCell* find_cell(const ColocationGrid& grid, const std::string& mode, int k);

struct CurvePoint {
  int k = 0;
  double value = 0;
};
// Aggregate req/s at each K (absolute).
std::vector<CurvePoint> aggregate_req_per_s_curve(const ColocationGrid& grid, const std::string& mode);
// Aggregate req/s at each K over the aggregate at K = 1 in the same mode.
std::vector<CurvePoint> aggregate_curve(const ColocationGrid& grid, const std::string& mode);
// The worst copy's p99 (ms) at each K.
std::vector<CurvePoint> p99_curve(const ColocationGrid& grid, const std::string& mode);
// Host cores all copies used at each K.
std::vector<CurvePoint> host_cpu_curve(const ColocationGrid& grid, const std::string& mode);
// Mean wall time at each K over the mean at K = 1 (start-up included).
std::vector<CurvePoint> wall_curve(const ColocationGrid& grid, const std::string& mode);
// Mean time on the GPU (first GPU use to exit) at each K over K = 1: for programs that do not report,
// the slowdown of their work without their start-up. Empty when the GPU use was not watched.
std::vector<CurvePoint> gpu_time_curve(const ColocationGrid& grid, const std::string& mode);
// The modes present, in order of first appearance.
std::vector<std::string> grid_modes(const ColocationGrid& grid);

nlohmann::ordered_json to_json(const ColocationGrid& grid);
// Reads what to_json wrote (derived fields are ignored and recomputed); throws std::runtime_error naming
// the field on a malformed document.
ColocationGrid colocation_grid_from_json(const nlohmann::json& j);

}  // namespace gpupack::measure
