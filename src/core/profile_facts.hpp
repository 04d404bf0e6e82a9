#pragma once
// What the planner needs from a workload profile (docs/profile.md), as plain values: the io/cli side reads
// the JSON and fills this; the planner stays pure and predicts from it (docs/decisions.md, "Predictions
// from profiles").
#include <optional>
#include <utility>
#include <string>
#include <vector>

namespace gpupack {

// One point of the SM-share curve: the program alone under MPS at an active-thread percentage.
struct ProfileSharePoint {
  int pct = 100;
  double req_per_s = 0;
  std::optional<double> p99_ms;
};

// One point of the co-location grid: K copies of the program at once in one sharing mode.
struct ProfileGridPoint {
  std::string mode;  // the sharing's measurement_key (core/sharing.hpp): "mps" or "timeslicing"
  int k = 1;
  double aggregate_req_per_s = 0;
  std::optional<double> worst_p99_ms;
  // The host cores all K copies used together, the node's online cores and those the copies could run on
  // (its affinity) (issue 37: how latency grows when copies share the cores); none in grids measured before.
  std::optional<double> host_cpu_cores = std::nullopt;  // (initialised: points written as {mode, k, req, p99} stay warning-free)
  std::optional<int> node_cores = std::nullopt;
  std::optional<int> usable_cores = std::nullopt;
  std::optional<double> median_p99_ms = std::nullopt;  // the median copy's p99 (model/host_cpu_grid.hpp)
  // How busy the whole GPU was over the cell: GPM's SM or DRAM share, the larger; none without GPM.
  std::optional<double> gpu_busy = std::nullopt;
  // GPM's DRAM share alone over the cell; none without GPM (model/host_cpu_grid.hpp, grid_gpu_demand).
  std::optional<double> gpu_dram = std::nullopt;
};

// The program beside a neighbour under MPS (`gpupack profile --neighbour-cmd`, one cell per neighbour cap):
// what the others on the GPU drew of its DRAM bandwidth there (the GPU's GPM DRAM share over the window
// less the program's own draw alone at the rate it kept) and what it kept of its figures alone.
// A neighbour at this MPS cap (none: uncapped) could hold every SM of the GPU.
inline bool neighbour_fills(std::optional<int> cap) { return !cap || *cap >= 100; }

struct ProfileDramPoint {
  std::optional<int> neighbour_cap;
  double others_dram = 0;           // 0..1 of the GPU's DRAM bandwidth
  double req_ratio = 1;             // its req/s beside the neighbour / alone
  std::optional<double> p99_ratio;  // its p99 beside the neighbour / alone
  // The neighbour's SM activity alone (0..1 of the GPU, its uncapped cell), where the cell's neighbour can
  // hold every SM (fills()): what model/saturation_wait.hpp counts the cell's wait per.
  std::optional<double> neighbour_sm{};
  // Its p99 less its mean request in the cell (the mean of a closed loop: 1 / its req/s), in ms: how far its
  // slowest requests ran past the rest beside the neighbour (model/saturation_wait.hpp reads it where the
  // neighbour fills the SMs).
  std::optional<double> tail_excess_ms{};
  std::optional<double> tail_ratio{};  // its p99 over that mean request

  // Its neighbour could hold all the SMs: uncapped, or capped at 100% of the threads.
  bool fills() const { return neighbour_fills(neighbour_cap); }
};

// The program alone over several fresh runs (`gpupack profile --baseline-runs`, docs/profile.md): the
// medians, how far the runs were apart, and whether that is within the profile's limit.
struct ProfileBaseline {
  std::string source;  // "median of 3 runs", "1 run"
  int runs = 0;
  double req_per_s = 0;
  std::optional<double> p50_ms, p99_ms;
  std::optional<double> req_spread, p50_spread, p99_spread;  // (max - min) / median over the runs
  double spread_limit = 0.10;      // the bound on the req/s and p50 spreads
  std::optional<bool> repeatable;  // none with one run: not measured
  std::string flag;                // when not repeatable: "req/s spread 38% over 3 runs (limit 10%)"
  // How much slower than the median its slowest run was: the larger of median req/s / lowest - 1 and highest
  // p50 / median - 1 (the figures the flag judges); none with one run.
  std::optional<double> slowest_run;
  // Its runs' lowest and highest req/s and p99, each a ratio to its median: how far apart the program ran
  // alone from one start to the next (`gpupack model replay` tells a miss within that apart from the model's);
  // none with fewer than two runs reporting the figure.
  std::optional<double> req_low = std::nullopt, req_high = std::nullopt;
  std::optional<double> p99_low = std::nullopt, p99_high = std::nullopt;
  // The median over its runs of how long a fixed piece of CPU work took on the host's cores (each run's
  // host_core_work median, os/cpu_work_probe.hpp): the profile host's speed. A launch-bound program's rate
  // follows it from one host to the next (scripts/host-speed.py); none in profiles before run67.
  std::optional<double> host_core_work_ms = std::nullopt;
};

struct ProfileFacts {
  std::string source;                  // the file it came from, for explanations
  std::string gpu_model;               // catalog name of the GPU it was measured on ("" when unknown)
  int gpu_sms = 0;                     // that GPU's SM count (0 when unknown)
  double gpu_bandwidth_gbs = 0;        // that GPU's peak DRAM bandwidth, GB/s (0 when unknown)
  std::optional<double> sm_active;     // GPM, 0..1 of the GPU, window mean
  std::optional<double> dram_bw;       // GPM, 0..1 of the GPU's DRAM bandwidth, window mean
  std::optional<double> kernel_time;   // NVML utilisation: 0..1 of the time any of its kernels ran
  std::optional<double> req_per_s;     // alone, uncapped
  std::optional<double> p99_ms;        // alone, uncapped
  std::optional<double> host_cpu_cores;
  double compute_demand = 1;           // 0..1 of the GPU's SMs, the profile's own rule
  std::string compute_method;          // "sweep", "gpm", "utilization" or "none"
  std::vector<ProfileSharePoint> share_curve;  // increasing pct
  std::vector<ProfileGridPoint> grid;          // by mode, increasing k
  std::vector<ProfileDramPoint> dram_neighbour;  // increasing others_dram (model/dram_sensitivity.hpp)
  // The knee rule's thresholds as the plan's model parameters set them (host_cpu_knee_growth_share,
  // host_cpu_knee_full_cores; model/host_cpu_grid.hpp); unset: the built-in parameters'.
  std::optional<std::pair<double, double>> host_cpu_knee_rule;
  // None in profiles written before the baseline was measured over several runs (req_per_s and p99_ms
  // above are then one window).
  std::optional<ProfileBaseline> baseline = std::nullopt;      // alone, no MPS
  std::optional<ProfileBaseline> mps_baseline = std::nullopt;  // alone under MPS at 100% (--sweep's reference runs)
};

}  // namespace gpupack
