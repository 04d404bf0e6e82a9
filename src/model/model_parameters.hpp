#pragma once
// Every number the performance model uses, named, with what it was fitted or measured on (one line each in
// model_parameters.cpp, which `gpupack model show` prints). The values here are the built-in ones;
// `gpupack plan --model FILE` replaces any of them (io/model_parameters_json.hpp) and the plan records the
// ones it used ($.model.parameters). The model's functions take a `const ModelParameters&` and read no
// other constant. Following LLVM's per-CPU scheduling models: one record of named, sourced numbers.
#include <cstddef>
#include <functional>
#include <map>
#include <span>
#include <string>
#include <string_view>

#include "model/calibration.hpp"

namespace gpupack {

struct ModelParameters {
  // The synthetic model (model/perf_model.hpp): `gpupack bench` figures, replaced by --model bench.json.
  Calibration calibration;
  // z of the 99th percentile of the busy time-slicing neighbours (normal approximation).
  double timeslicing_busy_z = 2.33;

  // The profile model (model/profile_prediction.hpp, model/slice_contention.hpp), fitted on H100 runs.
  // The MPS launch path: every client's kernel launches go through one MPS server and the GPU's work
  // distributor, so with N clients each launch also waits behind the others' (iGniter's t_sched, which
  // grows with the number of co-located models). A client spends the share of its time no kernel of it
  // runs there: 1 + 0.10 x (N - 1) x (1 - exposed share), fitted with the SM pressure and the DRAM queueing
  // (below the DRAM's saturation a request's memory share stretches x (1 + 0.4 own x others')) on every
  // slice `gpupack verify` measured on H100s (results/verify-profiled-h100/run1-6, verify-issue15-h100,
  // verify-h100) and the MPS grids of results/grid-h100 (docs/decisions.md gives the errors). A profile
  // with an MPS co-location grid gives its own coefficient, where its client idles at least
  // launch_cost_min_idle of its time, within [0, launch_cost_from_grid_max].
  double mps_launch_cost_per_client = 0.10;
  double dram_queueing = 0.4;
  double launch_cost_min_idle = 0.05;
  double launch_cost_from_grid_max = 0.5;
  // Beside busy MPS neighbours a client's p99 is at most 1.3 x its mean request time. Alone, a
  // launch-bound client's tail is long (resnet18-b1: p99 2.3-2.8 x its mean on an otherwise idle H100); in
  // every slice measured without shared stalls (verify/shared_stalls.hpp) its p99 was 1.1-1.8 x its mean,
  // whatever the ratio alone, while mlp-b8 (1.3 alone) and the GEMM (1.2) kept theirs (docs/decisions.md,
  // "Tail"). And the tail beyond the mean is the client's own: at most 0.4 x its request time under its cap
  // alone. The waits its neighbours add (SM contention, the launch path) lengthen every request alike, so
  // they stretch the mean, not the excess: over the recorded stall-free resnet18-b1 replicas p99 / mean was
  // 1.23-1.44 with 7 clients and no SM contention (slowed x1.38) but 1.08-1.17 with 9-16 clients (slowed
  // x1.8-2.4); 0.4 keeps the 1.3 up to a slowdown of 1.33 (docs/decisions.md, "Tail").
  double colocated_tail_ratio = 1.3;
  double colocated_tail_excess = 0.4;
  // Without the node's cores (fleet cpu_cores) the cap holds up to the most client processes on a slice
  // where it was measured with a 16-core host (15 resnets and the GEMM); past it the tail alone is kept.
  int tail_cap_max_clients = 16;
  // With the cores stated, more client processes than cores add a wait for a core to every tail, one per
  // full set of cores they take (floor(processes / cores)): the CUDA runtime spin-waits on the GPU, so
  // every client stays runnable, and one whose request needs the CPU waits for a scheduler slice (3 ms by
  // default on 8 or more CPUs) behind each client sharing its core. Beside the GEMM the worst resnet18-b1
  // p99 at 19-24 clients on 16 cores was 3.8-7.3 ms above its mean + own excess on the quiet machines
  // (density searches of runs 6, 8, 16 and 21), at 15 within 0-2.8 ms; on machine r (run 22) it held
  // 16.1 ms up to 30 clients and jumped to 20.4 at 31, 32 processes (docs/decisions.md, "Host CPU").
  double core_wait_ms = 4.0;
  // Bursts of wider neighbours (model/slice_contention.hpp): neighbours whose kernels run less than
  // steady_kernel_share of the time burst; past burst_free of such load a client's kernel time stretches by
  // burst_wait per unit. Fitted on runs 1-13 of results/verify-profiled-h100 (docs/decisions.md).
  double steady_kernel_share = 0.95;
  double burst_free = 0.4;
  double burst_wait = 2.0;

  // Defaults the planner applies where the scenario says nothing.
  // A profiled workload's slo_margin. At the density edge of the profile model (28-30 resnet18-b1 clients
  // on one H100, runs 22-24 in results/) the worst replica's mean p99 ran 3-9% above the prediction and its
  // worst window 13-15% above; docs/decisions.md, "SLO margin", says how 12% was chosen.
  double profiled_slo_margin = 0.12;
  // A profile's alone baseline over several runs (docs/profile.md, "Repeatable baseline") that is flagged
  // not repeatable: its SLO margin is at least baseline_spread_margin x how much slower than the median its
  // slowest run was (req/s, p50: the figures the flag judges), and above baseline_spread_unjudged (its larger
  // judged spread) the plan does not place it
  // (model/profile_baseline.hpp).
  double baseline_spread_margin = 1.0;
  double baseline_spread_unjudged = 1.0;
  // The knee of the host's cores in a profile's MPS grid (model/host_cpu_grid.hpp): a step whose aggregate
  // grew by less than this share of what its added copies would add, where the copies used at least
  // host_cpu_knee_full_cores of the cores they shared.
  double host_cpu_knee_growth_share = 0.5;
  double host_cpu_knee_full_cores = 0.85;
  double p99_alone_share_of_slo = 0.5;  // p99 alone = SLO x this, where neither scenario nor profile says
  int mps_cap_step_pct = 5;             // MPS caps are multiples of this, at least one step
  double slo_cap_headroom = 2.0;        // an SLO client's MPS cap: this x its demand, as room for bursts
  double usable_memory_share = 0.94;    // of a whole GPU's nominal memory, where the catalog has no MIG
  double curve_share_tolerance = 0.1;   // the SM-share curve's knee: req/s within this of its best point
  double min_packing_compute = 0.01;    // the least compute a profiled workload is packed at
  double memory_queueing_note_above = 1.005;  // a prediction's note names DRAM queueing above this factor

  // Where a parameter came from when it is not the built-in value (a file's "source", else the file's
  // name), by parameter name; the built-in source (parameter_specs) otherwise.
  std::map<std::string, std::string, std::less<>> sources;
};

// One named parameter: how `gpupack model show`, the JSON reader and writer and the plan record find it.
struct ParameterSpec {
  std::string_view name;      // snake_case, as in the JSON file
  std::string_view source;    // what it was fitted or measured on, one line
  std::string_view accepted;  // what a file may give, for error messages
  double lo = 0;
  bool lo_inclusive = true;
  double hi = 0;              // inclusive
  bool integer = false;
  std::size_t size = 1;       // 1, or the points of a curve (the arrays of Calibration)
  double (*get)(const ModelParameters&, std::size_t i) = nullptr;
  void (*set)(ModelParameters&, std::size_t i, double v) = nullptr;
  // Whether `v` is a value this parameter accepts (finite, in range, whole where integer).
  bool accepts(double v) const;
};

// Every parameter, in the order files and tables list them.
std::span<const ParameterSpec> parameter_specs();
const ParameterSpec* find_parameter(std::string_view name);
// The source of `spec`'s value in `m`: the one recorded in m.sources, else the built-in one.
std::string_view source_of(const ModelParameters& m, const ParameterSpec& spec);

// The p99 a client's SLO is measured against where nothing states it: the SLO's p99-alone share.
inline double default_p99_alone_ms(double latency_slo_ms, const ModelParameters& m) {
  return latency_slo_ms * m.p99_alone_share_of_slo;
}

}  // namespace gpupack
