#include "planner/plan_checker.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "core/units.hpp"
#include "model/host_cpu_grid.hpp"
#include "model/prediction.hpp"
#include "model/profiled_slice.hpp"

namespace gpupack {

namespace {

class Checker {
 public:
  Checker(const Scenario& s, const Plan& p, const ModelParameters& m) : s_(s), p_(p), m_(m) {}

  std::vector<std::string> run() {
    seen_.resize(s_.workloads.size());
    for (size_t i = 0; i < s_.workloads.size(); ++i)
      seen_[i].assign(static_cast<size_t>(s_.workloads[i].replicas), 0);
    std::set<std::string> ids;
    std::map<int, int> per_entry;
    for (const PlanGpu& g : p_.gpus) {
      if (!ids.insert(g.id).second) fail(g.id + ": GPU id used twice");
      if (g.fleet_entry < 0 || g.fleet_entry >= static_cast<int>(s_.fleet.size())) {
        fail(g.id + ": no such fleet entry");
        continue;
      }
      if (++per_entry[g.fleet_entry] > s_.fleet[static_cast<size_t>(g.fleet_entry)].count && !s_.elastic) {
        fail(g.id + ": more GPUs of fleet entry " + std::to_string(g.fleet_entry) + " than the fleet has");
      }
      check_gpu(g);
    }
    for (const auto& [node, use] : host_cpu_) {
      if (use.first > use.second + 1e-9)
        fail(node + ": profiled replicas need more host CPU cores than the node states");
    }
    for (const Unplaced& u : p_.unplaced) mark(u.replica, "unplaced");
    for (size_t w = 0; w < seen_.size(); ++w) {
      for (size_t r = 0; r < seen_[w].size(); ++r) {
        if (seen_[w][r] != 1) {
          fail(s_.workloads[w].name + "#" + std::to_string(r) + " appears " + std::to_string(seen_[w][r]) +
               " times (placed or unplaced), not once");
        }
      }
    }
    if (p_.summary.gpus_used != static_cast<int>(p_.gpus.size()))
      fail("summary.gpus_used differs from the GPUs");
    check_cost();
    if (p_.unplaced.empty() && p_.summary.lower_bound_gpus > p_.summary.gpus_used) {
      fail("lower bound " + std::to_string(p_.summary.lower_bound_gpus) + " above the GPUs used");
    }
    return errors_;
  }

 private:
  void fail(const std::string& message) { errors_.push_back(message); }

  // The summary's cost is the used GPUs' prices, and no lower bound on cost lies above it.
  void check_cost() {
    double cost = 0;
    bool priced = true;
    for (const PlanGpu& g : p_.gpus) {
      if (g.fleet_entry < 0 || g.fleet_entry >= static_cast<int>(s_.fleet.size())) return;
      const auto& price = s_.fleet[static_cast<size_t>(g.fleet_entry)].cost_per_hour;
      priced = priced && price.has_value();
      cost += price.value_or(0);
    }
    const auto& stated = p_.summary.cost_per_hour;
    if (priced && !p_.gpus.empty() && (!stated || std::abs(*stated - cost) > 1e-6 * std::max(1.0, cost))) {
      fail("summary.cost_per_hour differs from the prices of the used GPUs");
    }
    const auto& bound = p_.summary.lower_bound_cost_per_hour;
    if (bound && stated && p_.unplaced.empty() && *bound > *stated + 1e-6 * std::max(1.0, *stated)) {
      fail("lower bound on cost above the plan's cost");
    }
  }

  // Host CPU cores a slice's profiled replicas use, added to its node's against the fleet's cpu_cores (when
  // stated): `predicted` where the profile model judged the slice (at the predicted req/s), else their cores
  // alone or their grid's cores per copy (slice_state.cpp, fits_host_cores; model/host_cpu_grid.hpp).
  void add_host_cpu(const PlanGpu& g, const PlanSlice& sl, std::optional<double> predicted) {
    const auto& cores = s_.fleet[static_cast<size_t>(g.fleet_entry)].cpu_cores;
    if (!cores) return;
    auto& use = host_cpu_.try_emplace(g.node, 0.0, *cores).first->second;
    if (predicted) {
      use.first += *predicted;
      return;
    }
    for (const PlanClient& c : sl.clients) {
      for (const ReplicaRef& r : c.replicas) {
        if (r.workload < 0 || r.workload >= static_cast<int>(s_.workloads.size())) continue;
        const Workload& w = s_.workloads[static_cast<size_t>(r.workload)];
        if (w.profile) use.first += replica_host_cores(*w.profile).value_or(0.0);
      }
    }
  }

  void mark(const ReplicaRef& r, const std::string& where) {
    if (r.workload < 0 || r.workload >= static_cast<int>(seen_.size()) || r.replica < 0 ||
        r.replica >= static_cast<int>(seen_[static_cast<size_t>(r.workload)].size())) {
      fail(where + ": no such replica");
      return;
    }
    seen_[static_cast<size_t>(r.workload)][static_cast<size_t>(r.replica)] += 1;
  }

  void check_gpu(const PlanGpu& g) {
    const GpuModel& m = s_.fleet[static_cast<size_t>(g.fleet_entry)].model;
    const bool mig_mode = g.mode.uses_mig;
    if (g.slices.empty()) fail(g.id + ": a used GPU without slices");
    if (mig_mode) {
      if (!m.mig) {
        fail(g.id + ": MIG on " + m.name + ", which has no MIG");
        return;
      }
      if (!placements_are_valid(*m.mig, g.mig)) fail(g.id + ": MIG layout not valid by the MIG engine");
      // A fleet entry's configured layout (`mig:`) is the GPU's whole layout, instances without replicas too.
      const FleetEntry& entry = s_.fleet[static_cast<size_t>(g.fleet_entry)];
      if (entry.mig == FleetMig::off) fail(g.id + ": MIG on a fleet entry with mig: off");
      if (entry.mig == FleetMig::fixed) {
        MigCounts counts(m.mig->profiles.size(), 0);
        for (const auto& i : g.mig) counts[static_cast<size_t>(i.profile)] += 1;
        if (counts != entry.mig_layout) fail(g.id + ": MIG layout differs from the fleet's configured one");
      } else if (g.mig.size() != g.slices.size()) {
        fail(g.id + ": MIG instances and slices differ in number");
      }
      std::multiset<std::pair<int, int>> instances;
      for (const auto& i : g.mig) instances.insert({i.profile, i.start});
      for (const auto& sl : g.slices) {
        auto it = instances.find({sl.profile, sl.mig_start});
        if (it == instances.end())
          fail(g.id + ": a slice without its MIG instance");
        else
          instances.erase(it);
      }
    } else if (g.slices.size() != 1 || g.slices.front().profile != -1 || !g.mig.empty()) {
      fail(g.id + ": a whole-GPU mode needs exactly one whole-GPU slice and no MIG instances");
    } else if (s_.fleet[static_cast<size_t>(g.fleet_entry)].mig == FleetMig::fixed) {
      fail(g.id + ": a whole GPU of a fleet entry whose MIG layout is fixed");
    }
    for (size_t i = 0; i < g.slices.size(); ++i) check_slice(g.id + "/s" + std::to_string(i), m, g.slices[i], g);
    const GpuMode expected = g.slices.empty() ? g.mode : gpu_mode_of(mig_mode, g.slices);
    if (expected != g.mode)
      fail(g.id + ": mode " + to_string(g.mode) + " does not match its slices");
  }

  void check_slice(const std::string& id, const GpuModel& m, const PlanSlice& sl, const PlanGpu& g) {
    // The slice's capacity from the catalog.
    std::uint64_t memory_cap = 0;
    double share = 1.0;
    int mps_limit = mps_client_limit(m, s_.cuda);
    if (sl.profile >= 0) {
      if (!m.mig || sl.profile >= static_cast<int>(m.mig->profiles.size())) {
        fail(id + ": unknown MIG profile");
        return;
      }
      const MigProfile& p = m.mig->profiles[static_cast<size_t>(sl.profile)];
      memory_cap = gib_to_bytes(p.memory_gib);
      share = static_cast<double>(p.sms) / m.sm_count;
      mps_limit = mps_client_limit_in_instance(m, p, s_.cuda);
    } else {
      memory_cap = gib_to_bytes(m.memory_gib);
    }
    if (sl.memory_bytes > memory_cap) fail(id + ": slice memory above what the GPU offers");
    if (std::abs(sl.compute_share - share) > 1e-9) fail(id + ": compute share differs from the catalog's");
    if (sl.clients.empty()) fail(id + ": a slice without clients");

    const double scale = static_cast<double>(s_.fleet.front().model.sm_count) / m.sm_count;
    std::uint64_t memory = 0;
    double compute = 0;
    int replicas = 0;
    std::vector<double> loads;              // per client, fraction of the slice
    std::vector<const Workload*> profiled;  // per client: its workload where its profile judges it
    std::vector<const Workload*> firsts;    // per client: its workload where it runs one replica
    for (const PlanClient& c : sl.clients) {
      const Workload* first = c.replicas.size() == 1 && c.replicas.front().workload >= 0 &&
                                      c.replicas.front().workload < static_cast<int>(s_.workloads.size())
                                  ? &s_.workloads[static_cast<size_t>(c.replicas.front().workload)]
                                  : nullptr;
      firsts.push_back(first);
      profiled.push_back(first && judged_by_profile(*first) ? first : nullptr);
      std::uint64_t members_memory = 0;
      double members_compute = 0;
      std::set<std::string> groups;
      for (const ReplicaRef& r : c.replicas) {
        mark(r, id);
        if (r.workload < 0 || r.workload >= static_cast<int>(s_.workloads.size())) continue;
        const Workload& w = s_.workloads[static_cast<size_t>(r.workload)];
        ++replicas;
        members_memory += w.memory_bytes;
        members_compute += w.compute * scale;
        groups.insert(w.group.value_or(""));
        if (w.tenant != sl.tenant)
          fail(id + ": " + w.name + " of tenant " + w.tenant + " in a slice of " + sl.tenant);
        if (needs_own_slice(w.isolation) && (sl.clients.size() != 1 || c.replicas.size() != 1)) {
          fail(id + ": " + w.name + " needs a slice of its own");
        }
        if (w.isolation == Isolation::memory && sl.sharing == Sharing::time_slicing) {
          fail(id + ": " + w.name + " needs a memory cap but its slice time-slices");
        }
        if (w.isolation == Isolation::memory && sl.sharing == Sharing::mps && !mps_isolates_memory(m)) {
          fail(id + ": " + w.name + " needs a memory cap but MPS on " + m.name + " isolates no memory");
        }
        if (const auto allowed = w.max_p99_inflation(m_.p99_alone_share_of_slo);
            allowed && c.predicted_p99_inflation > *allowed + 1e-9) {
          fail(id + ": " + w.name + " predicted p99 above its SLO");
        }
      }
      if (c.replicas.size() > 1 && (groups.size() != 1 || groups.count("") > 0)) {
        fail(id + ": replicas of different groups share one process");
      }
      if (c.memory_limit_bytes < members_memory + s_.context_overhead_bytes) {
        fail(id + ": a client's memory limit does not cover its memory and CUDA context");
      }
      if (std::abs(c.compute - members_compute) > 1e-9)
        fail(id + ": a client's compute differs from its replicas'");
      memory += c.memory_limit_bytes;
      compute += members_compute;
      loads.push_back(members_compute / share);
      if (sl.sharing == Sharing::mps) {
        const auto pct = c.mps_active_thread_percentage;
        if (!pct || *pct < 1 || *pct > 100)
          fail(id + ": an MPS client without a valid active thread percentage");
        else if (*pct + 1e-9 < 100.0 * members_compute / share)
          fail(id + ": an MPS cap below the client's demand");
      } else if (c.mps_active_thread_percentage) {
        fail(id + ": an active thread percentage outside MPS");
      }
    }
    if (memory > sl.memory_bytes) fail(id + ": client memory limits exceed the slice's memory");
    // Profiled clients may oversubscribe under MPS, their SLOs judged by the profile model
    // (profiled_slice.hpp).
    const bool judged_by_profiles =
        sl.sharing == Sharing::mps && sl.clients.size() > 1 &&
        std::all_of(profiled.begin(), profiled.end(), [](const Workload* w) { return w; });
    if (compute > share + 1e-9 && !(judged_by_profiles && may_oversubscribe(profiled))) {
      fail(id + ": summed compute exceeds the slice's share of the SMs");
    }
    const size_t k = sl.clients.size();
    switch (sl.sharing) {
      case Sharing::exclusive:
        if (k != 1 || replicas != 1) fail(id + ": exclusive with more than one replica");
        break;
      case Sharing::streams:
        if (k != 1) fail(id + ": streams with more than one process");
        break;
      case Sharing::mps:
        if (static_cast<int>(k) > mps_limit) fail(id + ": more MPS clients than the limit");
        break;
      case Sharing::time_slicing:
        break;
    }
    // As the plan predicted it: with the node's cores and processes where they add waits for a core.
    SliceCapacity capacity = slice_capacity_on(s_.fleet[static_cast<size_t>(g.fleet_entry)], sl.profile);
    const double node_cores = s_.fleet[static_cast<size_t>(g.fleet_entry)].cpu_cores.value_or(0);
    if (node_adds_core_waits(node_cores, node_processes_.at(g.node), replicas)) {
      capacity.node_cores = node_cores;
      capacity.node_processes = node_processes_.at(g.node);
    }
    const std::optional<double> host_cores = check_predictions(id, sl, capacity, loads, firsts, judged_by_profiles);
    add_host_cpu(g, sl, host_cores);
  }

  // The predictions in the plan must be the model's (model/prediction.hpp), asked again here: the synthetic
  // model's, or the profile model's where it judged the slice (profiled_slice.hpp). Returns the host cores
  // the clients of a slice the profile model judged use at their predicted req/s.
  std::optional<double> check_predictions(const std::string& id, const PlanSlice& sl, SliceCapacity capacity,
                                          const std::vector<double>& loads, const std::vector<const Workload*>& first,
                                          bool judged_by_profiles) {
    std::vector<ModelClient> clients;
    for (size_t i = 0; i < sl.clients.size(); ++i) {
      const PlanClient& c = sl.clients[i];
      clients.push_back({first[i], static_cast<int>(c.replicas.size()), loads[i], c.mps_active_thread_percentage});
    }
    const SliceOutcome outcome = predict({sl.sharing, capacity}, clients, m_, PredictionDetail::inflation);
    for (size_t i = 0; i < sl.clients.size(); ++i) {
      if (std::abs(outcome.clients[i].inflation - sl.clients[i].predicted_p99_inflation) > 1e-6) {
        fail(id + (judged_by_profiles ? ": predicted p99 of a client differs from its profile's model"
                                      : ": predicted p99 of a client differs from the performance model"));
      }
    }
    return judged_by_profiles ? outcome.host_cores : std::nullopt;
  }

  const Scenario& s_;
  const Plan& p_;
  const ModelParameters& m_;
  std::vector<std::vector<int>> seen_;
  std::vector<std::string> errors_;
  std::map<std::string, std::pair<double, double>> host_cpu_;  // node -> (used, cores)
  const std::map<std::string, int> node_processes_ = client_processes_by_node(p_);
};

}  // namespace

std::vector<std::string> check_plan(const Scenario& scenario, const Plan& plan,
                                    const ModelParameters& parameters) {
  return Checker(scenario, plan, parameters).run();
}

}  // namespace gpupack
