#include "cli/profile_model_inputs.hpp"

#include <algorithm>
#include <memory>

#include "measure/baseline.hpp"
#include "measure/colocation_grid.hpp"
#include "model/profile_prediction.hpp"
#include "model/profile_baseline.hpp"

namespace gpupack {

namespace {

// The co-location grid as the model reads it: per mode and copy count K >= 1, the aggregate req/s, the
// worst copy's p99 and the host cores per copy (of the node's cores).
void add_grid(ProfileFacts& f, const nlohmann::json& colocation) {
  const measure::ColocationGrid grid = measure::colocation_grid_from_json(colocation);
  for (const std::string& mode : measure::grid_modes(grid)) {
    const auto p99 = measure::p99_curve(grid, mode);
    const auto cpu = measure::host_cpu_curve(grid, mode);
    for (const auto& pt : measure::aggregate_req_per_s_curve(grid, mode)) {
      ProfileGridPoint g{mode, pt.k, pt.value, std::nullopt, std::nullopt, grid.node_cores, grid.usable_cores};
      for (const auto& q : p99) {
        if (q.k == pt.k) g.worst_p99_ms = q.value;
      }
      for (const auto& q : cpu) {
        if (q.k == pt.k) g.host_cpu_cores = q.value;
      }
      if (pt.k > 0) f.grid.push_back(g);
    }
  }
}

ProfileFacts facts_of(const measure::WorkloadProfile& p, const std::string& source, const GpuCatalog& catalog) {
  ProfileFacts f;
  f.source = source;
  if (p.device.model) {
    f.gpu_model = *p.device.model;
    if (const GpuModel* m = catalog.find(*p.device.model)) {
      f.gpu_sms = m->sm_count;
      f.gpu_bandwidth_gbs = m->memory_bandwidth_gbs;
    }
  }
  f.sm_active = p.activity.sm_active;
  f.dram_bw = p.activity.dram_bw;
  f.kernel_time = p.activity.utilization;
  if (p.requests) {
    f.req_per_s = p.requests->req_per_s;
    f.p99_ms = p.requests->p99_ms;
  }
  f.host_cpu_cores = p.host_cpu_cores;
  f.compute_demand = p.compute_demand.share;
  f.compute_method = p.compute_demand.method;
  for (const auto& pt : p.sm_share_curve) f.share_curve.push_back({pt.pct, pt.req_per_s, pt.p99_ms});
  std::sort(f.share_curve.begin(), f.share_curve.end(), [](const auto& a, const auto& b) { return a.pct < b.pct; });
  if (p.colocation && !p.colocation->is_null()) add_grid(f, *p.colocation);
  f.baseline = measure::baseline_facts(p.baseline);
  f.mps_baseline = measure::baseline_facts(p.mps_baseline);
  return f;
}

}  // namespace

void apply_profile(Workload& w, const measure::WorkloadProfile& profile, const std::string& source,
                   const GpuCatalog& catalog, const ModelParameters& parameters) {
  ProfileFacts facts = facts_of(profile, source, catalog);
  // Predictions rest on the median over the baseline's runs where the profile has one (issue 36).
  rebase_on_baseline(facts);
  facts.host_cpu_knee_rule = std::make_pair(parameters.host_cpu_knee_growth_share, parameters.host_cpu_knee_full_cores);
  if (w.memory_bytes == 0) w.memory_bytes = profile.memory.with_headroom_bytes;
  if (w.compute <= 0) w.compute = packing_compute(facts, parameters);
  if (w.latency_slo_ms && !w.p99_alone_ms && facts.p99_ms) w.p99_alone_ms = facts.p99_ms;
  if (w.latency_slo_ms && !w.slo_margin) w.slo_margin = parameters.profiled_slo_margin;
  w.profile = std::make_shared<const ProfileFacts>(std::move(facts));
  judge_baseline(w, parameters);
}

std::optional<double> pod_cpu_cores(const Workload& w) {
  if (w.deploy.cpu) return w.deploy.cpu;
  if (w.profile && w.profile->host_cpu_cores && *w.profile->host_cpu_cores > 0) return w.profile->host_cpu_cores;
  return std::nullopt;
}

}  // namespace gpupack
