#pragma once
// The workload profile (docs/profile.md): what `gpupack profile` measured about one program on one GPU
// model, as a versioned JSON document the planner reads, and the plan entry (YAML) derived from it.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "measure/baseline.hpp"

namespace gpupack::measure {

inline constexpr int kProfileSchemaVersion = 1;
// The most memory a profile may state: the limit of a scenario's `memory` (io/scenario_yaml.hpp).
inline constexpr std::uint64_t kMaxProfileMemoryBytes = 1ull << 40;

struct ProfileDevice {
  std::optional<std::string> model;  // gpupack catalog name (H100-SXM5-80GB), when the GPU is in the catalog
  std::string name;                  // NVML product name
  std::string uuid;
};

struct ProfileWindow {
  std::string start;          // "ready-line": the program's ready line; "warmup": first GPU use + warmup
  double warmup_seconds = 0;  // the --warmup used when start is "warmup"
  double seconds = 0;         // how long the window lasted
  bool complete = true;       // false when the program exited before the window's end
  std::optional<double> first_gpu_seconds;  // from the program's start to its first GPU memory (its start-up)
};

struct ProfileMemory {
  std::uint64_t peak_bytes = 0;
  std::uint64_t with_headroom_bytes = 0;
  std::string source;  // "processes": the program's own processes; "device-delta": the device's increase
};

struct ProfileActivity {
  std::optional<double> sm_active, sm_occupancy, tensor_active, dram_bw;  // GPM, 0..1, window means
  std::optional<double> utilization;  // NVML utilisation (share of time any kernel ran), window mean
  std::string source;                 // "gpm", "nvml-utilization" or "none"
  int samples = 0;
};

struct ProfileRequests {
  double req_per_s = 0;
  std::optional<double> p50_ms, p99_ms;
  long count = 0;
  // The lowest and highest per-second median latency in the window (ReportFigures; none from summaries).
  std::optional<double> p50_second_low_ms = std::nullopt, p50_second_high_ms = std::nullopt;
};

struct ProfileReportStats {
  bool any_line = false;
  long malformed_lines = 0;
  std::optional<std::string> first_error;
};

// One run of the program alone at one MPS thread share (--repeat measures some shares more than once).
struct SweepRun {
  double req_per_s = 0;
  std::optional<double> p50_ms, p99_ms;
};

// The compute-demand rule's verdict on one share (docs/profile.md, "Compute demand").
struct ShareVerdict {
  bool pass = false;     // its own req/s, p50 and p99 are within the limits
  bool counted = false;  // it passes (the same as pass since the rule has no chain): the demand is the smallest counted share
  std::string why;       // each figure against its limit, e.g. "req/s -12.3% (limit -10%), p50 +16% (limit +10%)"
};

struct SmSharePoint {
  SmSharePoint() = default;
  SmSharePoint(int percentage, double rps, std::optional<double> p50, std::optional<double> p99)
      : pct(percentage), req_per_s(rps), p50_ms(p50), p99_ms(p99) {}
  int pct = 100;  // CUDA_MPS_ACTIVE_THREAD_PERCENTAGE
  double req_per_s = 0;                  // the mean over `runs`
  std::optional<double> p50_ms, p99_ms;  // the means over the runs that report them
  std::vector<SweepRun> runs;            // each run at this share; empty when only the means are known
  std::optional<ShareVerdict> verdict;   // set by the demand rule (judge_sweep)
};

struct ComputeDemand {
  double share = 1;    // 0..1: the share of the GPU's SMs the program needs
  std::string method;  // "sweep", "gpm", "utilization" or "none" (then share is 1)
  std::optional<double> tolerance;      // sweep only: the req/s and p50 limit
  std::optional<double> p99_tolerance;  // sweep only: the configured p99 limit (--p99-tolerance)
  std::optional<double> p99_limit;      // sweep only: the p99 limit used, max(p99_tolerance, 2 x the reference's p99 spread)
};

struct WorkloadProfile {
  std::string name;
  std::vector<std::string> command;
  ProfileDevice device;
  ProfileWindow window;
  ProfileMemory memory;
  ProfileActivity activity;
  std::optional<ProfileRequests> requests;  // null: request latency not reported
  ProfileReportStats report;
  std::optional<double> host_cpu_cores;
  // The whole host over the window (/proc/stat): cores busy with everything (the program's included) and
  // the share of CPU time the hypervisor gave to other guests; none where /proc/stat was not read. What
  // tells a noisy host from a noisy program when baselines do not repeat.
  std::optional<double> host_busy_cores, host_steal_share;
  // The fixed CPU work's time on the host's cores over the window (runs alone without MPS; none elsewhere).
  std::optional<HostCoreWork> host_core_work;
  std::vector<SmSharePoint> sm_share_curve;  // empty without --sweep
  ComputeDemand compute_demand;
  std::optional<nlohmann::json> colocation;  // the co-location grid (`profile --grid` or `bench --client-cmd`)
  // The program beside the compute-bound neighbour (`profile --sweep`, --compute-neighbour-cmd): a co-location
  // grid of its own, the neighbour alone (K=0) and one copy beside it uncapped (K=1).
  std::optional<nlohmann::json> compute_neighbour;
  // The reporter (`gpupack neighbour --kind reporter`, a launch-bound probe) alone (K=0) and beside one copy
  // of the program uncapped (K=1), `profile --sweep` by default: what the program costs launch-bound
  // neighbours (measure/launch_pressure.hpp). A co-location grid of its own, as compute_neighbour.
  std::optional<nlohmann::json> launch_pressure;
  // The alone baseline over several fresh runs (--baseline-runs): without MPS, and with --sweep under the
  // private MPS daemon at 100% (the sweep's reference runs). None in profiles written before it existed:
  // their `requests` is one window.
  std::optional<Baseline> baseline, mps_baseline;
};

nlohmann::ordered_json profile_to_json(const WorkloadProfile& p);
// Throws InputError naming the field when the document is not a version-1 workload profile or a value is
// out of its range (workload_profile_reader.cpp).
WorkloadProfile profile_from_json(const nlohmann::json& j);
// The profile file's text as the CLI reads it: the strict JSON reader (a duplicated key, deep nesting and
// 1e999 refused, io/json_document.hpp), then profile_from_json. Errors name `source`.
WorkloadProfile read_workload_profile(std::string_view text, std::string_view source);

// The YAML workload entry `gpupack plan` reads (docs/workloads.md), with comments saying how it was measured.
// With `profile_path` (where `gpupack profile -o` wrote the profile) the entry names that file as its
// `profile`, so that plan predicts from the measured profile too.
std::string plan_entry_yaml(const WorkloadProfile& p, const std::string& profile_path = "");

}  // namespace gpupack::measure
