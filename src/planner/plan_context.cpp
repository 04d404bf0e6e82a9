#include "planner/plan_context.hpp"

#include <algorithm>

#include "planner/consumer_search.hpp"


namespace gpupack {

PlanContext::PlanContext(const Scenario& scenario, ModePolicy policy, ModelParameters parameters, GpuOrder order)
    : scenario_(&scenario), demands_(make_demands(scenario, parameters)), policy_(policy), parameters_(std::move(parameters)), order_(order) {
  const long replicas = total_replicas(scenario);
  for (size_t e = 0; e < scenario.fleet.size(); ++e) {
    const FleetEntry& f = scenario.fleet[e];
    // An elastic fleet never needs more GPUs than replicas.
    const long count = scenario.elastic ? std::max(1L, replicas) : f.count;
    for (long i = 0; i < count; ++i) {
      FleetGpu g;
      g.entry = static_cast<int>(e);
      g.index_in_entry = i;
      gpus_.push_back(g);
    }
    layouts_by_entry_.push_back(fleet_mig_layouts(f, policy_));
  }
  for (size_t i = 0; i < gpus_.size(); ++i) {
    gpus_[i].id = "gpu" + std::to_string(i);
    gpus_[i].index = static_cast<int>(i);
  }
  // Largest GPUs first, the order the lower bound assumes; ids keep the fleet's order.
  std::stable_sort(gpus_.begin(), gpus_.end(), [&](const FleetGpu& a, const FleetGpu& b) {
    const FleetEntry& fa = scenario.fleet[static_cast<size_t>(a.entry)];
    const FleetEntry& fb = scenario.fleet[static_cast<size_t>(b.entry)];
    if (order == GpuOrder::cheapest_first && fa.cost_per_hour.value_or(0) != fb.cost_per_hour.value_or(0)) {
      return fa.cost_per_hour.value_or(0) < fb.cost_per_hour.value_or(0);
    }
    const auto ka = std::make_pair(whole_gpu_memory_bytes(fa.model, parameters_), fa.model.sm_count);
    const auto kb = std::make_pair(whole_gpu_memory_bytes(fb.model, parameters_), fb.model.sm_count);
    return ka > kb;
  });
}

std::vector<MigLayout> fleet_mig_layouts(const FleetEntry& f, const ModePolicy& policy) {
  if (!policy.mig || !f.model.mig || f.mig == FleetMig::off) return {};
  // The NVIDIA plugin's config puts every GPU of the pool in MIG, or none.
  if (f.deploy_with == Consumer::nvidia_device_plugin && !(f.plugin_sharing && f.plugin_sharing->mig)) return {};
  if (f.mig == FleetMig::fixed) return {MigLayout{f.mig_layout, validate_layout(*f.model.mig, f.mig_layout).instances}};
  return enumerate_layouts(*f.model.mig, {false, true});
}

bool whole_gpu_allowed(const FleetEntry& f, const ModePolicy& policy) {
  const bool plugin_mig = f.deploy_with == Consumer::nvidia_device_plugin && f.plugin_sharing && f.plugin_sharing->mig;
  return policy.whole_gpu && f.mig != FleetMig::fixed && !plugin_mig;
}

const FleetEntry& PlanContext::entry(int gpu) const {
  return scenario_->fleet[static_cast<size_t>(gpus_[static_cast<size_t>(gpu)].entry)];
}

bool PlanContext::whole_allowed(int gpu) const { return whole_gpu_allowed(entry(gpu), policy_); }

const GpuModel& PlanContext::model(int gpu) const {
  return scenario_->fleet[static_cast<size_t>(gpus_[static_cast<size_t>(gpu)].entry)].model;
}

SliceSpec PlanContext::whole(int gpu) const {
  SliceSpec s = whole_gpu_spec(model(gpu), scenario_->cuda, demands_.reference_sms, scenario_->context_overhead_bytes, parameters_);
  s.capacity = slice_capacity_on(entry(gpu));
  s.consumer = consumer_rules(entry(gpu), -1);
  s.consumer.only_tenant = node_tenant(gpu);
  return s;
}

SliceSpec PlanContext::instance(int gpu, int profile) const {
  SliceSpec s = mig_instance_spec(model(gpu), profile, scenario_->cuda, demands_.reference_sms,
                                  scenario_->context_overhead_bytes, parameters_);
  s.capacity = slice_capacity_on(entry(gpu), profile);
  s.consumer = consumer_rules(entry(gpu), profile);
  s.consumer.only_tenant = node_tenant(gpu);
  return s;
}

int PlanContext::node_tenant(int gpu) const {
  const auto& locks = entry(gpu).plugin_node_tenants;
  if (locks.empty()) return -1;
  const auto it = locks.find(node_name(entry(gpu), gpus_[static_cast<size_t>(gpu)].index_in_entry));
  if (it == locks.end()) return -1;
  const auto& tenants = demands_.tenants;
  const auto t = std::find(tenants.begin(), tenants.end(), it->second);
  return t == tenants.end() ? -1 : static_cast<int>(t - tenants.begin());
}

const std::vector<MigLayout>& PlanContext::layouts(int gpu) const {
  return layouts_by_entry_[static_cast<size_t>(gpus_[static_cast<size_t>(gpu)].entry)];
}

double PlanContext::dominant_share(const WorkloadDemand& d, int gpu) const {
  const SliceSpec w = whole(gpu);
  const double memory = static_cast<double>(d.memory_bytes + w.context_overhead) / static_cast<double>(w.memory_bytes);
  return std::max(memory, d.compute * w.compute_scale);
}

MigCounts build_counts(const PlanContext& ctx, const GpuBuild& build) {
  MigCounts counts(ctx.model(build.gpu).mig ? ctx.model(build.gpu).mig->profiles.size() : 0, 0);
  for (const auto& s : build.slices) {
    if (s.spec().profile >= 0 && !s.empty()) counts[static_cast<size_t>(s.spec().profile)] += 1;
  }
  return counts;
}

Plan assemble_plan(const PlanContext& ctx, std::vector<GpuBuild> builds, std::vector<Unplaced> unplaced,
                   int lower_bound) {
  // In the context's order (largest first, as plans always listed them); a cheapest-first plan in the
  // fleet's order, not cheapest first.
  const bool fleet_order = ctx.order() == PlanContext::GpuOrder::cheapest_first;
  std::sort(builds.begin(), builds.end(), [&](const GpuBuild& a, const GpuBuild& b) {
    if (!fleet_order) return a.gpu < b.gpu;
    return ctx.gpus()[static_cast<size_t>(a.gpu)].index < ctx.gpus()[static_cast<size_t>(b.gpu)].index;
  });
  settle_plugin_replicas(ctx, builds);
  Plan plan;
  double memory_total = 0;
  double memory_used = 0;
  double compute_used = 0;
  std::optional<double> cost = 0.0;
  for (const GpuBuild& b : builds) {
    const FleetGpu& fg = ctx.gpus()[static_cast<size_t>(b.gpu)];
    const GpuModel& model = ctx.model(b.gpu);
    PlanGpu g;
    g.fleet_entry = fg.entry;
    g.id = fg.id;
    g.node = node_name(ctx.scenario().fleet[static_cast<size_t>(fg.entry)], fg.index_in_entry);  // of used GPUs only
    for (const auto& s : b.slices) {
      if (!s.empty()) g.slices.push_back(s.finish(ctx.demands().tenants));
    }
    if (g.slices.empty()) continue;
    if (b.mig) {
      // A fixed layout is the plan's whole: instances without replicas stay configured (docs/workloads.md).
      const FleetEntry& entry = ctx.entry(b.gpu);
      const MigValidation v =
          validate_layout(*model.mig, entry.mig == FleetMig::fixed ? entry.mig_layout : build_counts(ctx, b));
      g.mig = v.instances;
      std::vector<bool> taken(v.instances.size(), false);
      for (auto& s : g.slices) {
        for (size_t i = 0; i < v.instances.size(); ++i) {
          if (!taken[i] && v.instances[i].profile == s.profile) {
            taken[i] = true;
            s.mig_start = v.instances[i].start;
            break;
          }
        }
      }
      std::stable_sort(g.slices.begin(), g.slices.end(),
                       [](const PlanSlice& x, const PlanSlice& y) { return x.mig_start < y.mig_start; });
    }
    g.mode = gpu_mode_of(b.mig, g.slices);
    memory_total += static_cast<double>(whole_gpu_memory_bytes(model, ctx.parameters()));
    for (const auto& s : g.slices) {
      for (const auto& c : s.clients) {
        memory_used += static_cast<double>(c.memory_limit_bytes);
        compute_used += c.compute;
      }
    }
    const auto& price = ctx.scenario().fleet[static_cast<size_t>(fg.entry)].cost_per_hour;
    if (price && cost) *cost += *price;
    else cost.reset();
    plan.gpus.push_back(std::move(g));
  }
  plan.unplaced = std::move(unplaced);
  PlanSummary& s = plan.summary;
  s.gpus_used = static_cast<int>(plan.gpus.size());
  if (!ctx.scenario().elastic) s.gpus_available = static_cast<int>(ctx.gpus().size());
  s.lower_bound_gpus = lower_bound;
  s.memory_utilisation = memory_total > 0 ? memory_used / memory_total : 0;
  s.compute_utilisation = s.gpus_used > 0 ? compute_used / s.gpus_used : 0;
  s.cost_per_hour = cost;
  s.one_per_gpu_cost_per_hour = one_per_gpu_cost(ctx);
  return plan;
}

std::optional<double> one_per_gpu_cost(const PlanContext& ctx) {
  const Scenario& scenario = ctx.scenario();
  const ModePolicy alone = policy_for(GpuMode::exclusive);
  // One GPU of each fleet entry is enough to ask whether a replica fits that type.
  std::vector<int> gpu_of_entry(scenario.fleet.size(), -1);
  for (int g = 0; g < static_cast<int>(ctx.gpus().size()); ++g) {
    int& slot = gpu_of_entry[static_cast<size_t>(ctx.gpus()[static_cast<size_t>(g)].entry)];
    if (slot < 0) slot = g;
  }
  double total = 0;
  for (const WorkloadDemand& d : ctx.demands().workloads) {
    std::optional<double> cheapest;
    for (size_t e = 0; e < scenario.fleet.size(); ++e) {
      const auto& price = scenario.fleet[e].cost_per_hour;
      if (!price) return std::nullopt;  // a type without a price: no cost to compare
      if (gpu_of_entry[e] < 0 || (cheapest && *price >= *cheapest)) continue;
      if (SliceState(ctx.whole(gpu_of_entry[e]), &alone, &ctx.parameters()).check(d) == Fit::ok) cheapest = price;
    }
    // A replica no GPU holds alone is left out on both sides of the comparison.
    if (cheapest) total += *cheapest * static_cast<double>(d.replicas);
  }
  return total;
}

}  // namespace gpupack
