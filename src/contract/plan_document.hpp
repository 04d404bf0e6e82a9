#pragma once
// The plan as the node side sees it: the typed form of the plan JSON (docs/plan-schema.md), with every
// name resolved to the text the files carry (workload, model and profile names, slice ids). The plan side
// builds it from a core Plan (cli/plan_document.cpp), the reader builds it from plan JSON, the writer
// formats it, and render, verify and the agent's config target work from it. One type for both directions,
// so `gpupack plan --render` and `gpupack render plan.json` render the same values.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/consumer.hpp"
#include "core/plan.hpp"
#include "core/workload.hpp"

namespace gpupack {

// The plan schema version this reader accepts and the writer writes ($.schema_version).
inline constexpr int kPlanSchemaVersion = 1;

// One replica as $.placements lists it, attached to the slice it runs on.
struct DocPlacement {
  std::string workload;  // DNS-1123 label (checked by the reader)
  int replica = 0;
  std::string tenant;
  std::uint64_t memory_limit_bytes = 0;
  std::optional<int> active_thread_percentage;  // MPS only ($.placements[].mps_active_thread_percentage)
  double predicted_p99_inflation = 1.0;
  std::optional<double> predicted_p99_ms;
  std::optional<double> predicted_req_per_s;
  std::string prediction_source = "synthetic";  // "profile" or "synthetic"
  bool extrapolated = false;
  // Copies of one workload from their grid: the worst copy's p99, which the SLO check read
  // ($.placements[].predicted_worst_copy_p99_ms, absent otherwise); predicted_p99_ms is the median copy's.
  std::optional<double> predicted_worst_copy_p99_ms = std::nullopt;
  bool operator==(const DocPlacement&) const = default;
};

// How a process's absolute predictions were made ($.gpus[].slices[].clients[].prediction).
struct DocPrediction {
  std::string source;
  std::optional<double> p99_ms;
  std::optional<double> req_per_s;
  bool extrapolated = false;
  std::vector<std::string> notes;
  std::optional<double> host_cores;  // per replica, at its predicted req/s (its profile's host CPU)
  // The correction by observation applied (`plan --observed`): measured / predicted multiplied in, over how
  // many verified replicas, from which verify files. Absent without one.
  struct Observed {
    std::optional<double> p99, req_per_s;
    int replicas = 0;
    std::vector<std::string> files;
    bool operator==(const Observed&) const = default;
  };
  std::optional<Observed> observed = std::nullopt;  // (initialised: predictions written without it stay warning-free)
  bool operator==(const DocPrediction&) const = default;
};

struct DocReplicaRef {
  std::string workload;
  int replica = 0;
  bool operator==(const DocReplicaRef&) const = default;
};

// One process on a slice ($.gpus[].slices[].clients[]): one replica, or several of a group (streams).
struct DocProcess {
  int process = 0;
  std::vector<DocReplicaRef> replicas;
  std::uint64_t memory_limit_bytes = 0;
  double compute = 0;
  std::optional<int> mps_active_thread_percentage;
  double predicted_p99_inflation = 1.0;
  std::optional<DocPrediction> prediction;
  bool operator==(const DocProcess&) const = default;
};

struct DocSlice {
  std::string id;                      // unique within its GPU, a plain id
  std::optional<std::string> profile;  // MIG profile; none for a whole GPU
  std::optional<int> mig_start;
  Sharing sharing = Sharing::exclusive;
  std::uint64_t memory_bytes = 0;
  std::vector<DocPlacement> clients;  // the replicas $.placements puts on this slice, in that order
  std::string tenant;
  double compute_share = 1.0;
  double predicted_throughput = 1.0;
  std::optional<double> predicted_sm_active;  // PlanSlice::predicted_sm_active; null where not predicted
  std::vector<DocProcess> processes = {};  // $.gpus[].slices[].clients
  bool operator==(const DocSlice&) const = default;
};

struct DocMigInstance {
  std::string profile;
  int start = 0;
  int size = 0;
  bool operator==(const DocMigInstance&) const = default;
};

struct DocRejectedMode {
  GpuMode mode = GpuMode::exclusive;
  std::string breaks;
  bool operator==(const DocRejectedMode&) const = default;
};

struct DocGpu {
  std::string id;     // a plain id
  std::string node;   // DNS-1123 label
  int index = 0;      // index of this GPU on its node (order of appearance); derived, not in the JSON
  std::string model;  // the catalog's canonical model name
  GpuMode mode = GpuMode::exclusive;
  std::vector<DocMigInstance> mig;
  std::vector<DocSlice> slices;
  std::string why;
  std::vector<DocRejectedMode> rejected;

  bool uses_mig() const { return !mig.empty(); }
  bool operator==(const DocGpu&) const = default;
};

struct DocUnplaced {
  std::string workload;
  int replica = 0;
  std::string code;
  std::string reason;
  bool operator==(const DocUnplaced&) const = default;
};

struct DocSummary {
  int gpus_used = 0;
  std::optional<int> gpus_available;
  int lower_bound_gpus = 0;
  bool optimal = false;
  long replicas = 0;
  long placed = 0;
  long unplaced = 0;
  double memory_utilisation = 0;
  double compute_utilisation = 0;
  std::optional<double> cost_per_hour;
  std::optional<double> one_replica_per_gpu_cost_per_hour;
  std::optional<double> lower_bound_cost_per_hour;
  std::uint64_t context_overhead_bytes = 0;
  std::string cuda;
  bool operator==(const DocSummary&) const = default;
};

// One row of the comparison of modes ($.comparison[]).
struct DocModeRow {
  std::string mode;  // a GpuMode's text, or "chosen"
  int gpus_used = 0;
  int placed = 0;
  int unplaced = 0;
  int slo_misses = 0;
  std::optional<int> gpus_needed;
  double worst_p99_inflation = 1.0;
  double throughput = 1.0;
  std::string breaks;
  std::optional<double> cost_per_hour;
  std::optional<std::string> gpu_type;
  bool operator==(const DocModeRow&) const = default;
};

// What one consumer places of the same scenario ($.consumers[]): every pool deployed with it.
struct DocConsumerRow {
  Consumer consumer = Consumer::gpupack_agent;
  int gpus_used = 0;
  int placed = 0;
  int unplaced = 0;
  std::optional<int> gpus_needed;  // on as many GPUs of the first model as needed
  std::optional<double> cost_per_hour;
  bool operator==(const DocConsumerRow&) const = default;
};

struct DocGpuTypeChoice {
  std::string workload;
  std::string model;
  std::string why;
  bool operator==(const DocGpuTypeChoice&) const = default;
};

// One parameter of the model the plan was made with ($.model.parameters.<name>), in the shape of a model
// parameters file's "parameters" (docs/model-parameters.md); the model layer names and checks them.
struct DocModelParameter {
  std::string name;
  std::vector<double> value;  // one number, or the points of a curve
  bool curve = false;         // written as an array
  bool integer = false;       // written as a whole number
  std::string source;         // what it was fitted or measured on
  bool operator==(const DocModelParameter&) const = default;
};

// The performance model's constants the plan was made with ($.model); curves keyed by the text of their
// point (active-thread cap or client count).
struct DocModel {
  double timeslicing_p99_inflation = 0;
  double mps_p99_inflation = 0;
  std::vector<std::pair<std::string, double>> mps_capped_p99_inflation;
  std::vector<std::pair<std::string, double>> mps_capped_neighbour_throughput;
  std::vector<std::pair<std::string, double>> timeslicing_slowdown;
  std::vector<std::pair<std::string, double>> mps_slowdown;
  std::vector<DocModelParameter> parameters;  // every parameter, the calibration's included; empty in older plans
  bool operator==(const DocModel&) const = default;
};

// How a workload's pods are deployed ($.workloads[], from the scenario's `deploy:` fields): what the
// rendered Deployments, Jobs and CronJobs carry besides the GPU slice.

struct DocWorkloadDeploy {
  std::string workload;
  std::optional<std::string> image;       // none: the pods run an image named after the workload, set it later
  std::optional<std::string> namespace_;  // none: the namespace kubectl applies to
  DeployKind kind = DeployKind::deployment;
  std::optional<std::string> schedule;    // cronjob only: the cron schedule
  std::optional<double> cpu;              // cores each pod requests (a profile's host cores where measured)
  std::optional<std::uint64_t> host_memory_bytes;  // host memory each pod requests
  bool operator==(const DocWorkloadDeploy&) const = default;
};

struct PlanDocument {
  Consumer deploy_with = Consumer::gpupack_agent;  // the consumer it was planned for ($.deploy_with)
  std::vector<DocGpu> gpus;
  std::vector<DocWorkloadDeploy> workloads;  // only workloads with deploy fields; others take the defaults
  std::vector<std::string> nodes;  // in order of first appearance; derived, not in the JSON
  std::vector<DocUnplaced> unplaced;
  DocSummary summary;
  std::vector<DocModeRow> comparison;
  std::vector<DocConsumerRow> consumers;
  std::vector<DocGpuTypeChoice> gpu_types;
  DocModel model;
  bool operator==(const PlanDocument&) const = default;
};

// The deploy fields of a workload: its entry in plan.workloads, or the defaults.
DocWorkloadDeploy deploy_of(const PlanDocument& plan, const std::string& workload);

// Fills each GPU's index on its node and the plan's node list from the GPUs' nodes, in order.
void number_gpus_by_node(PlanDocument& plan);

}  // namespace gpupack
