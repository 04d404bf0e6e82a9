#include "planner/consumer_search.hpp"

#include <algorithm>
#include <map>
#include <tuple>

namespace gpupack {

namespace {

constexpr size_t kMaxMpsCandidates = 8;

// Better plans first: more replicas placed, then lower cost (a priced fleet's plan minimises it), then
// fewer GPUs.
auto plan_rank(const Plan& p) {
  return std::make_tuple(p.unplaced.size(), p.summary.cost_per_hour.value_or(0), p.summary.gpus_used);
}

PlanOptions search_options(const PlanOptions& options) {
  PlanOptions o = options;
  o.explain = false;
  o.exact = false;
  o.progress = nullptr;
  o.type_search_budget = std::max(1L, options.type_search_budget / 4);
  return o;
}

int first_gpu_of(const PlanContext& ctx, int entry) {
  for (size_t g = 0; g < ctx.gpus().size(); ++g) {
    if (ctx.gpus()[g].entry == entry) return static_cast<int>(g);
  }
  return -1;
}

// The most MPS replicas at which one replica of `d` fits the plugin's equal share on `spec`; 0 if none >= 2.
int largest_fitting_replicas(const SliceSpec& spec, const WorkloadDemand& d) {
  ConsumerRules rules = spec.consumer;
  rules.plugin = PluginSharing{Sharing::mps, false, 0};
  const ClientNeed need{d.memory_bytes + spec.context_overhead,
                        100.0 * d.compute * spec.compute_scale / spec.compute_share};
  for (int r = std::min(rules.plugin_mps_max, spec.mps_client_limit); r >= 2; --r) {
    rules.plugin->replicas = r;
    if (fits_consumer_mps(rules, spec.memory_bytes, {need})) return r;
  }
  return 0;
}

}  // namespace

bool needs_plugin_configs(const Scenario& scenario, std::optional<GpuMode> forced) {
  return std::any_of(scenario.fleet.begin(), scenario.fleet.end(), [&](const FleetEntry& f) {
    return f.deploy_with == Consumer::nvidia_device_plugin &&
           (!f.plugin_sharing || !plugin_config_suits(*f.plugin_sharing, forced));
  });
}

bool plugin_config_suits(const PluginSharing& config, std::optional<GpuMode> forced) {
  if (!forced) return true;
  // The plugin has no MPS in MIG: its MIG pools time-slice inside instances, or run them alone.
  if (forced->uses_mig) return config.mig;
  if (config.mig) return false;
  return forced->sharing == Sharing::exclusive ? config.sharing != Sharing::mps : config.sharing == forced->sharing;
}

std::vector<PluginSharing> plugin_config_candidates(const PlanContext& ctx, int entry) {
  const FleetEntry& f = ctx.scenario().fleet[static_cast<size_t>(entry)];
  std::vector<PluginSharing> out;
  const bool whole = f.mig != FleetMig::fixed;
  const bool mig = f.model.mig && f.mig != FleetMig::off;
  if (whole) out.push_back({Sharing::exclusive, false, 0});
  if (mig) out.push_back({Sharing::exclusive, true, 0});
  if (whole) out.push_back({Sharing::time_slicing, false, 0});
  if (mig) out.push_back({Sharing::time_slicing, true, 0});
  const int gpu = first_gpu_of(ctx, entry);
  if (!whole || gpu < 0 || !mps_supported(f.model)) return out;
  SliceSpec spec = ctx.whole(gpu);
  std::vector<int> counts;
  for (const WorkloadDemand& d : ctx.demands().workloads) {
    if (const int r = largest_fitting_replicas(spec, d); r >= 2) counts.push_back(r);
  }
  // Fewest replicas first: among plans alike the larger shares win (more room per client, fewer idle
  // replicas advertised).
  std::sort(counts.begin(), counts.end());
  counts.erase(std::unique(counts.begin(), counts.end()), counts.end());
  // At most kMaxMpsCandidates counts, spread over those found (the fewest and the most kept): each is a
  // whole plan, and hundreds of distinct workloads would otherwise make the search dozens of plans long.
  if (counts.size() > kMaxMpsCandidates) {
    std::vector<int> spread;
    for (size_t i = 0; i < kMaxMpsCandidates; ++i) {
      spread.push_back(counts[i * (counts.size() - 1) / (kMaxMpsCandidates - 1)]);
    }
    counts = std::move(spread);
  }
  for (int r : counts) out.push_back({Sharing::mps, false, r});
  return out;
}

Scenario with_plugin_configs(const Scenario& scenario, const PlanOptions& options) {
  Scenario s = scenario;
  std::vector<int> open;
  const bool mig_forced = options.forced && options.forced->uses_mig;
  for (size_t e = 0; e < s.fleet.size(); ++e) {
    FleetEntry& f = s.fleet[e];
    if (f.deploy_with != Consumer::nvidia_device_plugin) continue;
    if (f.plugin_sharing && plugin_config_suits(*f.plugin_sharing, options.forced)) continue;
    // Until its turn a pool is unshared (in MIG where its layout is fixed or the mode is).
    f.plugin_sharing = PluginSharing{Sharing::exclusive, f.mig == FleetMig::fixed || mig_forced, 0};
    open.push_back(static_cast<int>(e));
  }
  const PlanOptions o = search_options(options);
  // A second pass where pools depend on each other (one takes what another's config cannot hold).
  const int passes = open.size() > 1 ? 2 : 1;
  for (int pass = 0; pass < passes; ++pass) {
    for (int e : open) {
      const PlanContext ctx(s, policy_for(options.forced), options.parameters);
      std::optional<Plan> best;
      PluginSharing chosen = *s.fleet[static_cast<size_t>(e)].plugin_sharing;
      for (const PluginSharing& candidate : plugin_config_candidates(ctx, e)) {
        if (!plugin_config_suits(candidate, options.forced)) continue;
        Scenario trial = s;
        trial.fleet[static_cast<size_t>(e)].plugin_sharing = candidate;
        Plan p = plan_keeping_node_tenants(trial, o);
        if (!best || plan_rank(p) < plan_rank(*best)) {
          best = std::move(p);
          chosen = candidate;
        }
      }
      s.fleet[static_cast<size_t>(e)].plugin_sharing = chosen;
    }
  }
  return s;
}

std::map<std::string, std::string> plugin_tenant_conflicts(const Scenario& scenario, const Plan& plan) {
  std::map<std::string, std::map<std::string, int>> replicas;  // node -> tenant -> replicas
  std::map<std::string, int> entry_of;
  for (const PlanGpu& g : plan.gpus) {
    const FleetEntry& f = scenario.fleet[static_cast<size_t>(g.fleet_entry)];
    if (f.deploy_with != Consumer::nvidia_device_plugin || !f.plugin_sharing ||
        f.plugin_sharing->sharing == Sharing::exclusive) {
      continue;
    }
    entry_of[g.node] = g.fleet_entry;
    for (const PlanSlice& s : g.slices) {
      for (const PlanClient& c : s.clients) replicas[g.node][s.tenant] += static_cast<int>(c.replicas.size());
    }
  }
  std::map<std::string, std::string> out;
  for (const auto& [node, tenants] : replicas) {
    if (tenants.size() < 2) continue;
    const auto most = std::max_element(tenants.begin(), tenants.end(),
                                       [](const auto& a, const auto& b) { return a.second < b.second; });
    out[node] = most->first;
  }
  return out;
}

Plan plan_keeping_node_tenants(Scenario scenario, const PlanOptions& options) {
  Plan plan = make_plan_as_configured(scenario, options);
  // Each round locks at least one node that was not locked (a locked node serves one tenant): at most
  // as many rounds as the fleet has nodes, fewer than its GPUs (one per replica when elastic).
  long gpus = scenario.elastic ? total_replicas(scenario) : 0;
  for (const FleetEntry& f : scenario.fleet) gpus += scenario.elastic ? 0 : f.count;
  for (long round = 0; round <= gpus; ++round) {
    const std::map<std::string, std::string> conflicts = plugin_tenant_conflicts(scenario, plan);
    if (conflicts.empty()) break;
    for (const PlanGpu& g : plan.gpus) {
      const auto it = conflicts.find(g.node);
      if (it != conflicts.end())
        scenario.fleet[static_cast<size_t>(g.fleet_entry)].plugin_node_tenants[g.node] = it->second;
    }
    plan = make_plan_as_configured(scenario, options);
  }
  return plan;
}

namespace {

std::string node_of(const PlanContext& ctx, int gpu) {
  return node_name(ctx.entry(gpu), ctx.gpus()[static_cast<size_t>(gpu)].index_in_entry);
}

}  // namespace

void settle_plugin_replicas(const PlanContext& ctx, std::vector<GpuBuild>& builds) {
  std::map<std::string, int> most;  // node -> clients of its most shared plugin MPS GPU
  for (const GpuBuild& b : builds) {
    for (const SliceState& s : b.slices) {
      if (plugin_mps_replicas(s.spec().consumer) > 0 && !s.empty()) {
        int& m = most[node_of(ctx, b.gpu)];
        m = std::max(m, static_cast<int>(s.loads().size()));
      }
    }
  }
  for (GpuBuild& b : builds) {
    for (SliceState& s : b.slices) {
      if (plugin_mps_replicas(s.spec().consumer) == 0 || s.empty()) continue;
      s.set_plugin_replicas(most[node_of(ctx, b.gpu)]);
    }
  }
}

std::vector<ConsumerOutcome> compare_consumers(const Scenario& scenario, const PlanOptions& options,
                                               const Plan* chosen) {
  std::vector<ConsumerOutcome> out;
  const PlanOptions o = search_options(options);
  for (Consumer c : {Consumer::gpupack_agent, Consumer::nvidia_device_plugin, Consumer::dra}) {
    // The plan made for this consumer already is its row (as compare_modes' chosen row): the same numbers
    // as the plan above it, and one plan fewer.
    const bool planned = chosen && std::all_of(scenario.fleet.begin(), scenario.fleet.end(),
                                               [c](const FleetEntry& f) { return f.deploy_with == c; });
    Scenario s = scenario;
    for (FleetEntry& f : s.fleet) {
      f.deploy_with = c;
      if (!planned) f.plugin_sharing.reset();
    }
    if (options.progress) options.progress("deployed with " + std::string(to_string(c)), 0, 1);
    const Plan plan = planned ? *chosen : make_plan(s, o);
    ConsumerOutcome row;
    row.consumer = c;
    row.gpus_used = plan.summary.gpus_used;
    row.unplaced = static_cast<int>(plan.unplaced.size());
    row.placed = static_cast<int>(total_replicas(s)) - row.unplaced;
    row.cost_per_hour = plan.summary.cost_per_hour;
    if (s.elastic) {
      if (row.unplaced == 0) row.gpus_needed = row.gpus_used;
    } else {
      Scenario elastic = s;
      elastic.fleet.resize(1);
      elastic.elastic = true;
      elastic.fleet[0].plugin_sharing.reset();  // the pool's config for what it holds alone
      const Plan unlimited = make_plan(elastic, o);
      if (unlimited.unplaced.empty()) row.gpus_needed = unlimited.summary.gpus_used;
    }
    out.push_back(row);
  }
  return out;
}

}  // namespace gpupack
