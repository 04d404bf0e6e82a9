#include "planner/planner.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <exception>
#include <map>
#include <mutex>
#include <thread>

#include "planner/consumer_search.hpp"
#include "planner/exact_search.hpp"
#include "planner/explain.hpp"
#include "planner/greedy_packer.hpp"
#include "planner/node_cores.hpp"
#include "planner/lower_bound.hpp"
#include "planner/plan_context.hpp"
#include "planner/policy.hpp"
#include "planner/priced_plan.hpp"
#include "planner/type_choice.hpp"
#include "planner/unplaced_reason.hpp"

namespace gpupack {

namespace {

// A fixed fleet whose GPU types have different prices: the cheapest plan need not be the one with the
// fewest GPUs (issue 32: small replicas on an L4 at a fifth of an A100's price).
bool prices_differ(const Scenario& scenario) {
  if (scenario.elastic || scenario.fleet.size() < 2) return false;
  for (const FleetEntry& f : scenario.fleet) {
    if (!f.cost_per_hour) return false;
  }
  for (const FleetEntry& f : scenario.fleet) {
    if (*f.cost_per_hour != *scenario.fleet.front().cost_per_hour) return true;
  }
  return false;
}

Plan plan_on_fleet(const Scenario& scenario, const PlanOptions& options, PlanContext::GpuOrder order) {
  const PlanContext ctx(scenario, policy_for(options.forced), options.parameters, order);
  PackResult packed = greedy_pack(ctx);
  // The bound in the order it assumes (largest first); the count is the fleet's either way.
  const int bound = order == PlanContext::GpuOrder::largest_first
                        ? lower_bound_gpus(ctx)
                        : lower_bound_gpus(PlanContext(scenario, policy_for(options.forced), options.parameters));
  bool proven = false;
  // The exhaustive search looks for fewer GPUs, not a lower cost: only in the fewest-GPUs order.
  if (packed.left.empty() && order == PlanContext::GpuOrder::largest_first) {
    const int used = static_cast<int>(packed.builds.size());
    proven = used <= bound;
    // The exhaustive search creates any instances that fit: not for fleets with a fixed MIG layout.
    const bool fixed_mig = std::any_of(scenario.fleet.begin(), scenario.fleet.end(),
                                       [](const FleetEntry& f) { return f.mig == FleetMig::fixed; });
    if (!proven && !fixed_mig && options.exact && total_replicas(scenario) <= kExactMaxReplicas) {
      ExactResult exact = exact_pack(ctx, used, options.exact_budget);
      // Its fewer GPUs must hold every replica within their nodes' cores too (the search bounds each slice
      // by its GPU's share only: node_cores.hpp), else the greedy plan stays.
      if (exact.builds && fit_node_cores(ctx, *exact.builds).empty()) packed.builds = std::move(*exact.builds);
      proven = exact.complete;
    }
  }
  // No node holds more host-CPU demand than its cores, whatever its GPUs' partitioning (node_cores.hpp).
  const std::vector<CoreBoundReplica> core_bound = fit_node_cores(ctx, packed.builds);
  std::vector<Unplaced> unplaced;
  // One explanation per workload: its replicas are identical, so they are left out for the same reason
  // (a workload some of whose replicas a node's cores turned away: that node's cores).
  std::map<int, Unplaced> by_workload;
  for (const CoreBoundReplica& r : core_bound) {
    unplaced.push_back(node_cores_unplaced(ctx, packed.builds, r));
    by_workload.emplace(r.replica.workload, unplaced.back());
  }
  for (const ReplicaRef& r : packed.left) {
    auto it = by_workload.find(r.workload);
    if (it == by_workload.end()) {
      Unplaced u = explain_unplaced(ctx, packed.builds, r);
      // The GPUs left no room, but a node's cores turned it away first (the packer trims each GPU to them);
      // or a GPU's share of its node's cores did, and the node's cores, summed over its GPUs, are full too.
      if (u.code == "no_gpu_left" || u.code == "no_host_cores") {
        const std::string node = node_without_cores_for(ctx, packed.builds, r);
        const auto node_bound = packed.node_bound.find(r.workload);
        if (!node.empty() && (u.code == "no_gpu_left" || gpus_of_node(ctx, node) > 1)) {
          u = node_cores_unplaced(ctx, packed.builds, CoreBoundReplica{r, node});
        } else if (u.code == "no_gpu_left" && node_bound != packed.node_bound.end()) {
          // Its GPU had room, but the node's cores turned it away when that GPU was filled: their demand, or the
          // wait for a core the node's other processes add, past an SLO.
          u = node_cores_unplaced(ctx, packed.builds, node_bound->second);
        }
      }
      it = by_workload.emplace(r.workload, u).first;
    }
    Unplaced u = it->second;
    u.replica = r;
    unplaced.push_back(std::move(u));
  }
  std::sort(unplaced.begin(), unplaced.end(), [](const Unplaced& x, const Unplaced& y) {
    return std::pair(x.replica.workload, x.replica.replica) < std::pair(y.replica.workload, y.replica.replica);
  });
  Plan plan = assemble_plan(ctx, std::move(packed.builds), std::move(unplaced), bound);
  plan.summary.exact = proven;
  if (options.explain) {
    for (PlanGpu& g : plan.gpus) explain_gpu(ctx, g);
  }
  return plan;
}

}  // namespace

Plan make_plan(const Scenario& scenario, const PlanOptions& options) {
  // A pool the NVIDIA plugin serves is planned with the one config its nodes will carry.
  if (needs_plugin_configs(scenario, options.forced)) return plan_keeping_node_tenants(with_plugin_configs(scenario, options), options);
  const bool plugin = std::any_of(scenario.fleet.begin(), scenario.fleet.end(),
                                  [](const FleetEntry& f) { return f.deploy_with == Consumer::nvidia_device_plugin; });
  return plugin ? plan_keeping_node_tenants(scenario, options) : make_plan_as_configured(scenario, options);
}

Plan make_plan_as_configured(const Scenario& scenario, const PlanOptions& options) {
  if (chooses_gpu_types(scenario)) return make_priced_plan(scenario, options);
  Plan fewest = plan_on_fleet(scenario, options, PlanContext::GpuOrder::largest_first);
  if (!prices_differ(scenario)) return fewest;
  // With prices the plan minimises cost: the cheapest-first packing wins when it places as many replicas
  // for less; the summary then says what the fewest-GPUs plan would have cost.
  Plan cheapest = plan_on_fleet(scenario, options, PlanContext::GpuOrder::cheapest_first);
  const bool places_as_many = cheapest.unplaced.size() <= fewest.unplaced.size();
  if (places_as_many && cheapest.summary.cost_per_hour && fewest.summary.cost_per_hour &&
      *cheapest.summary.cost_per_hour < *fewest.summary.cost_per_hour - 1e-9) {
    cheapest.summary.fewest_gpus_plan = FewestGpusPlan{fewest.summary.gpus_used, *fewest.summary.cost_per_hour};
    return cheapest;
  }
  return fewest;
}

namespace {

std::string mode_breaks(GpuMode mode) {
  if (mode.uses_mig) {
    switch (mode.sharing) {
      case Sharing::mps: return "fixed instance sizes strand capacity; a fault reaches the clients of its instance";
      case Sharing::time_slicing: return "inside an instance p99 grows with every busy neighbour and nothing caps memory";
      case Sharing::exclusive:
      case Sharing::streams:
        return "at most 7 instances per GPU, fixed sizes strand capacity, layout changes need the GPU idle";
    }
  }
  switch (mode.sharing) {
    case Sharing::exclusive:
    case Sharing::streams: return "one replica per GPU: safe and simple, and the GPUs idle most of the time";
    case Sharing::time_slicing:
      return "p99 grows with every busy neighbour, nothing caps memory, tenants cannot share a GPU";
    case Sharing::mps:
      return "a fault in one client reaches every client of the GPU; memory capped only by pinned limits; one "
             "tenant per GPU";
  }
  return "";
}

ModeOutcome outcome_of(const Scenario& scenario, const Plan& plan) {
  ModeOutcome o;
  o.gpus_used = plan.summary.gpus_used;
  o.unplaced = static_cast<int>(plan.unplaced.size());
  for (const auto& u : plan.unplaced) o.slo_misses += u.code == "slo_not_reachable" ? 1 : 0;
  double compute = 0;
  double delivered = 0;
  for (const auto& g : plan.gpus) {
    for (const auto& s : g.slices) {
      for (const auto& c : s.clients) {
        o.placed += static_cast<int>(c.replicas.size());
        // Only work with an SLO counts: p99 of batch or notebook work is not a promise anyone made.
        bool has_slo = false;
        for (const ReplicaRef& r : c.replicas) has_slo = has_slo || scenario.workloads[static_cast<size_t>(r.workload)].latency_slo_ms;
        if (has_slo) o.worst_p99_inflation = std::max(o.worst_p99_inflation, c.predicted_p99_inflation);
        compute += c.compute;
        delivered += c.compute * s.predicted_throughput;
      }
    }
  }
  o.throughput = compute > 0 ? delivered / compute : 1.0;
  return o;
}

// Rows of a priced fleet: every workload on one type alone, with what that costs against the chosen mix.
template <typename Progress>
void compare_types(const Scenario& scenario, const PlanOptions& options, std::vector<ModeOutcome>& out,
                   const Progress& progress) {
  const ModeOutcome& chosen = out.front();
  PlanOptions o = options;
  o.explain = false;
  o.exact = false;
  for (int e = 0; e < static_cast<int>(scenario.fleet.size()); ++e) {
    const std::string& model = scenario.fleet[static_cast<size_t>(e)].model.name;
    progress("only " + model);
    const Scenario alone = on_one_type(scenario, e);
    const Plan plan = make_plan(alone, o);
    ModeOutcome outcome = outcome_of(alone, plan);
    outcome.gpus_needed = outcome.unplaced == 0 ? std::optional<int>(outcome.gpus_used) : std::nullopt;
    outcome.cost_per_hour = plan.summary.cost_per_hour;
    outcome.only_entry = e;
    if (outcome.unplaced > 0) {
      outcome.breaks = std::to_string(outcome.unplaced) + " replicas fit no " + model;
    } else if (outcome.cost_per_hour && chosen.cost_per_hour) {
      const double more = *outcome.cost_per_hour - *chosen.cost_per_hour;
      char amount[32];
      std::snprintf(amount, sizeof amount, "$%.2f/h", std::abs(more));
      outcome.breaks = "every workload on " + model + ": " +
                       (more > 1e-9    ? std::string(amount) + " more than the chosen mix"
                        : more < -1e-9 ? std::string(amount) + " less than the chosen mix"
                                       : std::string("the same cost as the chosen mix"));
    }
    out.push_back(std::move(outcome));
  }
}

}  // namespace

std::vector<ModeOutcome> compare_modes(const Scenario& scenario, const Plan& chosen, const PlanOptions& options) {
  Scenario elastic = scenario;
  elastic.fleet.resize(1);
  elastic.elastic = true;
  std::vector<std::optional<GpuMode>> modes{std::nullopt};
  for (GpuMode m : all_gpu_modes()) modes.push_back(m);
  // Plans to make: each forced mode on the fleet, and every mode (the chosen one too) on an unlimited fleet
  // of the first model unless the fleet already is one.
  const bool types = chooses_gpu_types(scenario);
  const int total = static_cast<int>(modes.size()) * (scenario.elastic ? 1 : 2) - 1 +
                    (types ? static_cast<int>(scenario.fleet.size()) : 0);
  // The comparison's plans are independent and pure, so they run on the machine's cores (they were 74% of
  // `gpupack plan` on 500 distinct workloads x 20, docs/decisions.md) and are collected in a fixed order.
  struct Job {
    size_t mode;
    bool unlimited;  // on an unlimited fleet of the first model
  };
  std::vector<Job> jobs;
  for (size_t i = 0; i < modes.size(); ++i) {
    if (modes[i]) jobs.push_back({i, false});
    if (!scenario.elastic) jobs.push_back({i, true});
  }
  std::vector<Plan> on_fleet(modes.size()), unlimited(modes.size());
  std::vector<std::exception_ptr> failed(jobs.size());
  std::mutex progress_mutex;
  int done = 0;
  const auto progress = [&](const std::string& what) {
    const std::lock_guard<std::mutex> lock(progress_mutex);
    if (options.progress) options.progress(what, done++, total);
  };
  std::atomic<size_t> next{0};
  const auto work = [&] {
    for (size_t j; (j = next++) < jobs.size();) {
      const auto& mode = modes[jobs[j].mode];
      PlanOptions o = options;
      o.forced = mode;
      o.explain = false;
      o.exact = false;
      o.progress = nullptr;
      o.type_search_budget /= 4;  // seven plans instead of one
      const std::string name = mode ? std::string(to_string(*mode)) : "chosen";
      try {
        progress("mode " + name + (jobs[j].unlimited ? " on as many GPUs as needed" : ""));
        (jobs[j].unlimited ? unlimited : on_fleet)[jobs[j].mode] = make_plan(jobs[j].unlimited ? elastic : scenario, o);
      } catch (...) {
        failed[j] = std::current_exception();
      }
    }
  };
  const size_t threads = std::clamp<size_t>(std::thread::hardware_concurrency(), 1, std::max<size_t>(1, jobs.size()));
  std::vector<std::thread> pool;
  for (size_t t = 1; t < threads; ++t) pool.emplace_back(work);
  work();
  for (auto& t : pool) t.join();
  for (const auto& e : failed) {
    if (e) std::rethrow_exception(e);
  }
  std::vector<ModeOutcome> out;
  for (size_t i = 0; i < modes.size(); ++i) {
    const auto& mode = modes[i];
    const Plan& planned = mode ? on_fleet[i] : chosen;
    ModeOutcome outcome = outcome_of(scenario, planned);
    outcome.cost_per_hour = planned.summary.cost_per_hour;
    if (scenario.elastic) {
      outcome.gpus_needed = outcome.unplaced == 0 ? std::optional<int>(outcome.gpus_used) : std::nullopt;
    } else if (unlimited[i].unplaced.empty()) {
      outcome.gpus_needed = unlimited[i].summary.gpus_used;
    }
    outcome.mode = mode;
    outcome.breaks = mode ? mode_breaks(*mode) : "";
    out.push_back(std::move(outcome));
  }
  if (types) compare_types(scenario, options, out, progress);
  return out;
}

}  // namespace gpupack
