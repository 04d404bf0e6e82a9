#pragma once
// A plan: per GPU its mode, MIG layout and slices; per slice its sharing and clients; per replica where it
// runs and with which limits; replicas that found no place and why. The JSON view is docs/plan-schema.md.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/mig_layout.hpp"
#include "core/sharing.hpp"

namespace gpupack {

// One replica of one workload (indices into Scenario::workloads).
struct ReplicaRef {
  int workload = 0;
  int replica = 0;
  bool operator==(const ReplicaRef&) const = default;
};

// What the plan predicts for one client in absolute terms (docs/decisions.md, "Predictions from
// profiles"): from its workload profile where it has one, else from the synthetic model.
struct ClientPrediction {
  std::string source;               // "profile" or "synthetic"
  std::optional<double> p99_ms;     // none without a profile, an SLO and p99_alone_ms
  std::optional<double> req_per_s;  // per replica; none without a profile
  bool extrapolated = false;  // outside what was measured (more copies, a cap below the curve, another GPU)
  std::optional<double>
      host_cores;                  // per replica, at its predicted req/s; none without the profile's host CPU
  std::vector<std::string> notes;  // how it was predicted, one phrase each
  // Its MPS launch path's cost is the constant fitted on H100 hosts: no grid in its profile gave its own (the
  // plan's risks count these).
  bool fitted_launch_cost = false;
  // The correction by observation applied (`plan --observed`): the factors and where they came from.
  struct Observed {
    std::optional<double> p99, req_per_s;  // measured / predicted, multiplied in
    int replicas = 0;
    std::vector<std::string> files;
  };
  std::optional<Observed> observed;
  // Copies of one workload predicted from its co-location grid: the worst copy's p99, which the SLO check
  // reads (p99_ms is the median copy's); none otherwise.
  std::optional<double> worst_copy_p99_ms = std::nullopt;
};

// One process on a slice: a single replica, or replicas of one group sharing a process (streams).
struct PlanClient {
  std::vector<ReplicaRef> replicas;
  std::uint64_t memory_limit_bytes = 0;             // memory of its replicas + one CUDA context
  double compute = 0;                               // demand as a fraction of the whole GPU's SMs
  std::optional<int> mps_active_thread_percentage;  // only under MPS
  double predicted_p99_inflation = 1.0;             // predicted p99 / p99 alone
  std::optional<ClientPrediction> prediction;       // added after packing (add_predictions)
};

struct PlanSlice {
  int profile = -1;  // MIG profile index; -1 for a whole GPU
  int mig_start = -1;
  Sharing sharing = Sharing::exclusive;
  std::uint64_t memory_bytes = 0;  // memory of the slice
  double compute_share = 1.0;      // the slice's share of the GPU's SMs
  std::string tenant;
  std::vector<PlanClient> clients;
  double predicted_throughput = 1.0;  // per-client throughput relative to alone (performance model)
  // The share of its SMs its clients keep busy together (GPM SM activity), from their profiles
  // (model/slice_activity.hpp); none where a client has no measured activity (added after packing).
  std::optional<double> predicted_sm_active;
};

// Why a GPU runs in its mode, and what each other mode would break on it (gpupack plan --explain).
struct RejectedMode {
  GpuMode mode = GpuMode::exclusive;
  std::string breaks;
};

struct PlanGpu {
  int fleet_entry = 0;  // index into Scenario::fleet
  std::string id;       // "gpu0"
  std::string node;     // "node-0"
  GpuMode mode = GpuMode::exclusive;
  std::vector<MigPlacedInstance> mig;  // creation order; empty unless a MIG mode
  std::vector<PlanSlice> slices;
  std::string why;
  std::vector<RejectedMode> rejected;
};

// The mode of a GPU with these slices: the sharing of its one slice, or with MIG the most shared of its
// instances (mps before time-slicing before exclusive); streams runs as exclusive.
GpuMode gpu_mode_of(bool uses_mig, const std::vector<PlanSlice>& slices);

struct Unplaced {
  ReplicaRef replica;
  std::string code;    // too_large | slo_not_reachable | no_gpu_left | no_host_cores | no_mig_gpu | baseline_not_repeatable
  std::string reason;  // one sentence for people
};

// On a fixed fleet with prices, the plan with the fewest GPUs, when a cheaper plan with more GPUs was chosen.
struct FewestGpusPlan {
  int gpus = 0;
  double cost_per_hour = 0;
};

struct PlanSummary {
  int gpus_used = 0;
  std::optional<int> gpus_available;  // none when the fleet is elastic
  int lower_bound_gpus = 0;
  double memory_utilisation = 0;                    // allocated client memory / memory of the used GPUs
  double compute_utilisation = 0;                   // demanded compute / SMs of the used GPUs
  std::optional<double> cost_per_hour;              // of the used GPUs, when the fleet has prices
  std::optional<double> one_per_gpu_cost_per_hour;  // placing each replica on a GPU of its own
  bool exact = false;                               // the GPU count was proven optimal by exhaustive search
  std::optional<double> lower_bound_cost_per_hour;  // no plan costs less; only when the plan chose GPU types
  std::optional<FewestGpusPlan> fewest_gpus_plan;   // set when cost, not the GPU count, chose this plan
};

// Why a workload went to its GPU type, on a fleet of priced `count: auto` types (planner/type_choice.hpp).
struct GpuTypeChoice {
  int workload = 0;     // index into Scenario::workloads
  int fleet_entry = 0;  // the type chosen (index into Scenario::fleet)
  std::string why;      // its price per replica on each type, and why this one
};

struct Plan {
  std::vector<PlanGpu> gpus;  // used GPUs only
  std::vector<Unplaced> unplaced;
  PlanSummary summary;
  std::vector<GpuTypeChoice> gpu_types;  // per workload and type it runs on, when the plan chose GPU types
};

}  // namespace gpupack
