#pragma once
// The model's one interface: predict(slice, clients, parameters) -> per-client outcome (p99 inflation and,
// where the client's workload is known, p99 in ms, req/s, host cores, source, extrapolated). The packer
// (planner/slice_state.hpp) asks it while filling a slice and keeps the outcome with the slice in the plan;
// the plan checker, the plan document, verify and explain read or recompute the same. Notes for people are
// made from an outcome by explain_outcome (model/prediction_notes.hpp). Pure.
#include <map>
#include <optional>
#include <vector>

#include "core/gpu_model.hpp"
#include "core/plan.hpp"
#include "core/scenario.hpp"
#include "model/client_outcome.hpp"
#include "model/model_parameters.hpp"

namespace gpupack {

// The slice: how its clients share it, its SMs, DRAM bandwidth and host cores.
struct ModelSlice {
  Sharing sharing = Sharing::exclusive;
  SliceCapacity capacity;
};

// One client (process) of the slice.
struct ModelClient {
  // Its workload (the first replica's, for a group of replicas in one process); none: the synthetic
  // model's inflation only, no absolute figures. A workload its profile judges (model/profiled_slice.hpp)
  // is predicted by the profile model under MPS when every client of the slice is.
  const Workload* workload = nullptr;
  int replicas = 1;
  double demand = 0;           // its share of the slice's SMs (compute / the slice's share); may pass 1
  std::optional<int> cap_pct;  // its MPS active-thread percentage (MPS only)
};

struct SliceOutcome {
  std::vector<ClientOutcome> clients;  // per client, in order
  double throughput = 1.0;             // per-client throughput relative to alone (synthetic model)
  // The host CPU cores its clients use at their predicted req/s, where the profile model judged the slice
  // (an MPS slice of two or more clients all judged by their profiles); none otherwise.
  std::optional<double> host_cores;
};

// How much of the outcome a caller needs: the inflations (with the host cores where the profile model judges
// the slice, whose figures decide its inflations), or every figure. The packer asks hundreds of thousands of
// times per plan whether a replica may join, and needs the figures only for the slice it keeps.
enum class PredictionDetail { inflation, figures };

SliceOutcome predict(const ModelSlice& slice, const std::vector<ModelClient>& clients, const ModelParameters& m,
                     PredictionDetail detail = PredictionDetail::figures);

// The plan's record of an outcome (PlanClient::prediction), its notes made by explain_outcome.
ClientPrediction plan_prediction(const ClientOutcome& outcome, const Workload& workload, Sharing sharing,
                                 const ModelParameters& m);

// The client processes on each node of a plan, over all of its GPUs and MIG instances (every replica is
// one): what competes for the node's cores in the wait for a core (issue 37).
std::map<std::string, int> client_processes_by_node(const Plan& plan);

// Whether a slice's processes wait for the node's cores beyond what the slice alone adds: the node has
// stated cores, more client processes than the slice and more than its cores. Then the slice is predicted
// with the node's figures (SliceCapacity::node_cores, node_processes), else with its own.
bool node_adds_core_waits(double node_cores, int node_processes, int slice_processes);

// Fills PlanClient::prediction where a plan lacks it (a plan made by hand; the packer's plans carry theirs).
void add_predictions(const Scenario& scenario, Plan& plan, const ModelParameters& m);

}  // namespace gpupack
