#include "planner/type_choice.hpp"

#include <algorithm>
#include <cstdio>
#include <set>

#include "core/mig_enumerate.hpp"
#include "planner/demand.hpp"
#include "planner/plan_context.hpp"
#include "planner/slice_state.hpp"

namespace gpupack {

namespace {

std::string dollars(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, v < 0.1 ? "$%.4f" : "$%.3f", v);
  return buf;
}

std::string refusal_of(Fit fit) {
  switch (fit) {
    case Fit::memory: return "its memory does not fit";
    case Fit::compute: return "its compute does not fit";
    case Fit::host_cpu: return "the node's host cores do not drive it";
    case Fit::slo: return "no sharing keeps its SLO";
    case Fit::clients: return "no client slot";
    case Fit::tenant:
    case Fit::isolation: return "its isolation rule forbids every slice";
    case Fit::ok: break;
  }
  return "no slice the policy allows holds it";
}

// Replicas of `d` one slice of `spec` holds alone, up to kCapacityCountLimit; `why` gets the rule that
// stops the first one.
int fill_alone(const SliceSpec& spec, const WorkloadDemand& d, const ModePolicy& policy,
               const ModelParameters& parameters, Fit* why) {
  SliceState slice(spec, &policy, &parameters);
  int n = 0;
  while (n < kCapacityCountLimit) {
    const Fit fit = slice.has_room(d.memory_bytes, d.compute) ? slice.check(d) : Fit::memory;
    if (fit != Fit::ok) {
      if (n == 0 && why) *why = fit;
      break;
    }
    slice.add(d, n);
    ++n;
  }
  return n;
}

}  // namespace

bool chooses_gpu_types(const Scenario& scenario) { return scenario.elastic && scenario.fleet.size() > 1; }

Scenario on_one_type(const Scenario& scenario, int entry) {
  Scenario s = scenario;
  const double to_entry = static_cast<double>(reference_model(scenario).sm_count) /
                          scenario.fleet[static_cast<size_t>(entry)].model.sm_count;
  s.fleet = {scenario.fleet[static_cast<size_t>(entry)]};
  s.elastic = true;
  // More than 1 (a whole GPU of this type) simply never fits: the packer refuses it as too large.
  for (Workload& w : s.workloads) w.compute *= to_entry;
  return s;
}

TypeTable::TypeTable(const Scenario& scenario, const ModePolicy& policy, const ModelParameters& parameters)
    : scenario_(&scenario), parameters_(&parameters) {
  const size_t types = scenario.fleet.size();
  for (size_t e = 0; e < types; ++e) on_type_.push_back(on_one_type(scenario, static_cast<int>(e)));
  cells_.resize(scenario.workloads.size() * types);
  for (size_t e = 0; e < types; ++e) {
    const Scenario& s = on_type_[e];
    const FleetEntry& f = s.fleet.front();
    const Demands demands = make_demands(s, parameters);
    SliceSpec whole = whole_gpu_spec(f.model, s.cuda, demands.reference_sms, s.context_overhead_bytes, parameters);
    whole.capacity = slice_capacity_on(f);
    whole.consumer = consumer_rules(f, -1);
    const std::vector<MigLayout> layouts = fleet_mig_layouts(f, policy);
    const bool whole_allowed = whole_gpu_allowed(f, policy);
    std::set<int> profiles;
    for (const MigLayout& l : layouts) {
      for (const MigPlacedInstance& i : l.instances) profiles.insert(i.profile);
    }
    // Tenants never share a whole GPU: a GPU holds no more of a workload than its tenant has replicas.
    std::vector<int> tenant_replicas(demands.tenants.size(), 0);
    for (const WorkloadDemand& d : demands.workloads) tenant_replicas[static_cast<size_t>(d.tenant)] += d.replicas;
    for (size_t w = 0; w < demands.workloads.size(); ++w) {
      const WorkloadDemand& d = demands.workloads[w];
      Cell& c = cells_[w * types + e];
      Fit why = Fit::ok;
      if (whole_allowed) {
        c.replicas = std::min(fill_alone(whole, d, policy, parameters, &why),
                              std::max(1, tenant_replicas[static_cast<size_t>(d.tenant)]));
      }
      std::vector<int> per_profile(f.model.mig ? f.model.mig->profiles.size() : 0, 0);
      for (int p : profiles) {
        SliceSpec inst = mig_instance_spec(f.model, p, s.cuda, demands.reference_sms, s.context_overhead_bytes, parameters);
        inst.capacity = slice_capacity_on(f, p);
        inst.consumer = consumer_rules(f, p);
        per_profile[static_cast<size_t>(p)] = fill_alone(inst, d, policy, parameters, whole_allowed ? nullptr : &why);
      }
      for (const MigLayout& l : layouts) {
        int sum = 0;
        for (const MigPlacedInstance& i : l.instances) sum += per_profile[static_cast<size_t>(i.profile)];
        c.replicas = std::max(c.replicas, std::min(sum, kCapacityCountLimit));
      }
      if (c.replicas == 0) c.refusal = refusal_of(why);
      // A group's replicas may share one context, so only ungrouped replicas surely pay their own.
      const bool own_context = d.group < 0 || !policy.streams || needs_own_slice(d.isolation);
      const double memory = static_cast<double>(d.memory_bytes) +
                            (own_context ? static_cast<double>(whole.context_overhead) : 0.0);
      c.memory_share = memory / static_cast<double>(whole.memory_bytes);
      c.compute_share = d.compute * whole.compute_scale;
    }
  }
}

std::optional<double> TypeTable::price_per_replica(int workload, int entry) const {
  const int n = capacity(workload, entry);
  const auto& price = scenario_->fleet[static_cast<size_t>(entry)].cost_per_hour;
  if (n == 0 || !price) return std::nullopt;
  return *price / n;
}

int TypeTable::cheapest(int workload) const {
  int best = -1;
  for (int e = 0; e < types(); ++e) {
    const auto p = price_per_replica(workload, e);
    if (!p) continue;
    if (best < 0) {
      best = e;
      continue;
    }
    const double q = *price_per_replica(workload, best);
    const double gpu_e = *scenario_->fleet[static_cast<size_t>(e)].cost_per_hour;
    const double gpu_best = *scenario_->fleet[static_cast<size_t>(best)].cost_per_hour;
    if (*p < q - 1e-12 || (*p <= q + 1e-12 && gpu_e < gpu_best)) best = e;
  }
  if (best >= 0) return best;
  best = 0;
  for (int e = 1; e < types(); ++e) {
    if (whole_gpu_memory_bytes(scenario_->fleet[static_cast<size_t>(e)].model, *parameters_) >
        whole_gpu_memory_bytes(scenario_->fleet[static_cast<size_t>(best)].model, *parameters_)) {
      best = e;
    }
  }
  return best;
}

// Every GPU of type t used costs its price p_t, and its replicas together use at most all of its memory and
// all of its SMs. So the plan costs at least the sum over replicas of p_t x (the replica's memory share of
// t), and likewise for compute; each replica counted on the type where that product is least (among the
// types that hold it at all). The larger of the two sums is a lower bound on any plan placing every replica
// that can be placed.
double TypeTable::cost_lower_bound() const {
  double memory = 0;
  double compute = 0;
  for (size_t w = 0; w < scenario_->workloads.size(); ++w) {
    double m = -1;
    double c = -1;
    for (int e = 0; e < types(); ++e) {
      const Cell& cl = cell(static_cast<int>(w), e);
      const auto& price = scenario_->fleet[static_cast<size_t>(e)].cost_per_hour;
      if (cl.replicas == 0 || !price) continue;
      m = m < 0 ? *price * cl.memory_share : std::min(m, *price * cl.memory_share);
      c = c < 0 ? *price * cl.compute_share : std::min(c, *price * cl.compute_share);
    }
    const double n = scenario_->workloads[w].replicas;
    if (m > 0) memory += n * m;
    if (c > 0) compute += n * c;
  }
  return std::max(memory, compute);
}

std::string TypeTable::why(int workload, int chosen) const {
  const auto type_text = [&](int e) {
    const FleetEntry& f = scenario_->fleet[static_cast<size_t>(e)];
    const Cell& c = cell(workload, e);
    if (c.replicas == 0) return f.model.name + ": does not fit (" + c.refusal + ")";
    const std::string held = c.replicas >= kCapacityCountLimit ? std::to_string(c.replicas) + "+"
                                                                : std::to_string(c.replicas);
    return f.model.name + " " + dollars(*price_per_replica(workload, e)) + " (" + held + " per GPU at " +
           dollars(f.cost_per_hour.value_or(0)) + "/h)";
  };
  std::string text = price_per_replica(workload, chosen) ? type_text(chosen) : "no GPU type holds it";
  std::string others;
  for (int e = 0; e < types(); ++e) {
    if (e != chosen) others += (others.empty() ? "" : "; ") + type_text(e);
  }
  if (!others.empty()) text += "; against " + others;
  return text;
}

}  // namespace gpupack
