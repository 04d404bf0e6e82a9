#pragma once
// What the planner needs from a workload profile (docs/profile.md), as plain values: the io/cli side reads
// the JSON and fills this; the planner stays pure and predicts from it (docs/decisions.md, "Predictions
// from profiles").
#include <optional>
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
};

}  // namespace gpupack
