#include "model/prediction.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "model/prediction_notes.hpp"
#include "model/profile_alone.hpp"
#include "model/profile_prediction.hpp"
#include "model/profiled_slice.hpp"
#include "model/slice_activity.hpp"
#include "model/slice_model.hpp"

namespace gpupack {

namespace {

// Whether the profile model decides the slice's inflations (docs/decisions.md, "Packing from profiles"):
// MPS, two or more clients, every one judged by its profile.
bool judged_by_profiles(const ModelSlice& slice, const std::vector<ModelClient>& clients) {
  return slice.sharing == Sharing::mps && clients.size() > 1 &&
         std::all_of(clients.begin(), clients.end(),
                     [](const ModelClient& c) { return c.workload && judged_by_profile(*c.workload); });
}

// Whether a time-sliced slice has a client whose profile measured its own time-slicing K-curve: its
// inflation then comes from that curve (issue 36, item 6), which needs the figures.
bool timeslicing_from_grid(const ModelSlice& slice, const std::vector<ModelClient>& clients) {
  return slice.sharing == Sharing::time_slicing &&
         std::any_of(clients.begin(), clients.end(), [](const ModelClient& c) {
           return c.workload && c.workload->profile && has_grid(*c.workload->profile, Sharing::time_slicing);
         });
}

// Whether the client's figures came from its co-location grid (measured, or extended beyond it).
bool from_grid_notes(const ClientOutcome& o) {
  return std::any_of(o.notes.begin(), o.notes.end(), [](const ModelNote& n) {
    return n.kind == ModelNote::Kind::grid_cell || n.kind == ModelNote::Kind::grid_beyond;
  });
}

// The client's correction by observation on this slice's GPU model under its sharing; null without one.
const ObservedCorrection* observed_for(const ModelClient& c, const ModelSlice& slice) {
  if (!c.workload) return nullptr;
  for (const ObservedCorrection& o : c.workload->observed) {
    if (o.sharing == slice.sharing && o.gpu_model == slice.capacity.gpu_model) return &o;
  }
  return nullptr;
}

// The other workloads of the slice that were not beside the client when its correction was measured, in
// name order; a client whose workload the model is not given counts as one (nothing says it was there).
std::vector<std::string> unseen_neighbours(const ObservedCorrection& obs, const std::vector<ModelClient>& clients,
                                           size_t i) {
  std::set<std::string> out;
  for (size_t j = 0; j < clients.size(); ++j) {
    const Workload* w = clients[j].workload;
    if (j == i) continue;
    if (!w) {
      out.insert("a client of no known workload");
    } else if (w->name != clients[i].workload->name && !obs.beside.count(w->name)) {
      out.insert(w->name);
    }
  }
  return {out.begin(), out.end()};
}

// Multiplies what verify measured over what was predicted into the outcome of client i (issue 36, item 5):
// p99 and the inflation the packer checks by the p99 factor, req/s by the req/s factor, and its host cores
// with its rate (the CPU time of a request kept, at most its cores alone). Beside a workload the
// measurement did not have, only a factor that makes it slower is taken: in run54 dlrm ran 13% faster than
// predicted beside bert, and that correction, carried to a slice with the STREAM triad, broke its SLO.
void apply_observed(ClientOutcome& o, const std::vector<ModelClient>& clients, size_t i, const ModelSlice& slice) {
  const ModelClient& c = clients[i];
  const ObservedCorrection* obs = observed_for(c, slice);
  if (!obs) return;
  o.observed = obs;
  o.observed_unseen = unseen_neighbours(*obs, clients, i);
  const bool unseen = !o.observed_unseen.empty();
  if (obs->p99 && !(unseen && *obs->p99 < 1)) o.observed_p99 = obs->p99;
  if (obs->req_per_s && !(unseen && *obs->req_per_s > 1)) o.observed_req = obs->req_per_s;
  if (o.observed_p99) {
    o.inflation *= *o.observed_p99;
    if (o.p99_ms) *o.p99_ms *= *o.observed_p99;
  }
  if (o.observed_req) {
    if (o.req_per_s) *o.req_per_s *= *o.observed_req;
    if (o.host_cores) {
      *o.host_cores *= *o.observed_req;
      const ProfileFacts* p = c.workload->profile.get();
      if (p && p->host_cpu_cores) o.host_cores = std::min(*o.host_cores, *p->host_cpu_cores);
    }
  }
  const bool left_out = (obs->p99 && !o.observed_p99) || (obs->req_per_s && !o.observed_req);
  o.notes.push_back(
      {ModelNote::Kind::observed, {o.observed_p99.value_or(0), o.observed_req.value_or(0)}, {obs->replicas}, left_out});
}

}  // namespace

SliceOutcome predict(const ModelSlice& slice, const std::vector<ModelClient>& clients, const ModelParameters& m,
                     PredictionDetail detail) {
  const size_t n = clients.size();
  std::vector<double> demands;
  demands.reserve(n);
  for (const ModelClient& c : clients) demands.push_back(c.demand);
  const double k = effective_clients(demands);
  SliceOutcome out;
  std::vector<double> inflation;
  switch (slice.sharing) {
    case Sharing::exclusive:
    case Sharing::streams:
      inflation.assign(n, 1.0);
      out.throughput = streams_throughput(n, k, m);
      break;
    case Sharing::mps: {
      std::vector<int> caps;
      for (const ModelClient& c : clients) caps.push_back(c.cap_pct.value_or(0));
      inflation = synthetic_mps_inflation(caps, m);
      out.throughput = mps_throughput(demands, caps, k, m);
      break;
    }
    case Sharing::time_slicing:
      inflation = timeslicing_inflation(demands, m);
      out.throughput = timeslicing_throughput(k, m);
      break;
  }
  const bool judged = judged_by_profiles(slice, clients);
  const bool known = std::all_of(clients.begin(), clients.end(), [](const ModelClient& c) { return c.workload; });
  const bool ts_grid = known && timeslicing_from_grid(slice, clients);
  if (!known || (detail == PredictionDetail::inflation && !judged && !ts_grid)) {
    out.clients.resize(n);
    for (size_t i = 0; i < n; ++i) {
      out.clients[i].inflation = inflation[i];
      apply_observed(out.clients[i], clients, i, slice);
    }
    return out;
  }
  std::vector<PredictionInput> inputs;
  inputs.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    const ModelClient& c = clients[i];
    // Judged clients are single processes (no group); the slice's throughput does not reach an MPS client
    // with a profile.
    inputs.push_back({c.workload, judged ? 1 : c.replicas, c.demand, c.cap_pct, inflation[i]});
  }
  out.clients = client_figures(slice.sharing, slice.capacity, judged ? 1.0 : out.throughput, inputs, m);
  if (judged) out.host_cores = 0.0;
  for (size_t i = 0; i < n; ++i) {
    ClientOutcome& o = out.clients[i];
    o.inflation = inflation[i];
    if (judged || (ts_grid && from_grid_notes(o))) {
      // The profile model's p99 (or its own grid's) against the client's p99 alone; a profile without p99
      // keeps the synthetic one.
      const double alone = p99_alone_ms(*clients[i].workload, m);
      if (o.p99_ms && alone > 0) o.inflation = *o.p99_ms * o.worst_copy_ratio / alone;
    }
    apply_observed(o, clients, i, slice);
    if (judged) *out.host_cores += o.host_cores.value_or(0) * inputs[i].replicas;
  }
  return out;
}

ClientPrediction plan_prediction(const ClientOutcome& outcome, const Workload& workload, Sharing sharing,
                                 const ModelParameters& m) {
  ClientPrediction p{std::string(outcome.source), outcome.p99_ms,     outcome.req_per_s,
                     outcome.extrapolated,         outcome.host_cores, explain_outcome(outcome, workload, sharing, m),
                     false,                        std::nullopt};
  p.fitted_launch_cost = std::any_of(outcome.notes.begin(), outcome.notes.end(), [](const ModelNote& n) {
    return n.kind == ModelNote::Kind::launch_path && !n.flag;
  });
  if (const ObservedCorrection* o = outcome.observed) {
    p.observed = ClientPrediction::Observed{outcome.observed_p99, outcome.observed_req, o->replicas, o->files};
  }
  if (outcome.p99_ms && outcome.worst_copy_ratio > 1) p.worst_copy_p99_ms = *outcome.p99_ms * outcome.worst_copy_ratio;
  return p;
}

std::map<std::string, int> client_processes_by_node(const Plan& plan) {
  std::map<std::string, int> out;
  for (const auto& g : plan.gpus) {
    for (const auto& s : g.slices) {
      for (const auto& c : s.clients) out[g.node] += static_cast<int>(c.replicas.size());
    }
  }
  return out;
}

bool node_adds_core_waits(double node_cores, int node_processes, int slice_processes) {
  return node_cores > 0 && node_processes > slice_processes && node_processes > node_cores;
}

void add_predictions(const Scenario& scenario, Plan& plan, const ModelParameters& m) {
  std::vector<ModelClient> clients;
  const std::map<std::string, int> node_processes = client_processes_by_node(plan);
  for (auto& g : plan.gpus) {
    const FleetEntry& entry = scenario.fleet[static_cast<size_t>(g.fleet_entry)];
    for (auto& s : g.slices) {
      SliceCapacity capacity = slice_capacity_on(entry, s.profile);
      capacity.node_cores = entry.cpu_cores.value_or(0);
      capacity.node_processes = node_processes.at(g.node);
      int slice_processes = 0;
      for (const auto& c : s.clients) slice_processes += static_cast<int>(c.replicas.size());
      clients.clear();
      for (const auto& c : s.clients) {
        const Workload& w = scenario.workloads[static_cast<size_t>(c.replicas.front().workload)];
        clients.push_back({&w, static_cast<int>(c.replicas.size()),
                           s.compute_share > 0 ? c.compute / s.compute_share : 1.0, c.mps_active_thread_percentage});
      }
      s.predicted_sm_active = predicted_sm_active(s.sharing, capacity, clients);
      // The packer predicted each slice alone; where other slices of the node add processes for the node's
      // cores, the prediction is made again with the node's figures.
      const bool node_adds_waits = node_adds_core_waits(capacity.node_cores, capacity.node_processes, slice_processes);
      if (!node_adds_waits &&
          std::all_of(s.clients.begin(), s.clients.end(), [](const PlanClient& c) { return c.prediction.has_value(); }))
        continue;
      const SliceOutcome outcome = predict({s.sharing, capacity}, clients, m);
      for (size_t i = 0; i < s.clients.size(); ++i) {
        if (node_adds_waits || !s.clients[i].prediction) {
          s.clients[i].prediction = plan_prediction(outcome.clients[i], *clients[i].workload, s.sharing, m);
        }
      }
    }
  }
}

}  // namespace gpupack
