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
void add_grid(ProfileFacts& f, const measure::ColocationGrid& grid) {
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
      if (const measure::GridCell* cell = measure::find_cell(grid, mode, pt.k)) {
        g.median_p99_ms = measure::median_p99_ms(*cell);
        if (cell->gpu_sm_active || cell->gpu_dram_bw) g.gpu_busy = std::max(cell->gpu_sm_active.value_or(0), cell->gpu_dram_bw.value_or(0));
        g.gpu_dram = cell->gpu_dram_bw;
      }
      if (pt.k > 0) f.grid.push_back(g);
    }
  }
}

// Its figures alone to compare a neighbour's cell with: the grid's one copy under MPS without the neighbour
// (the same daemon, minutes apart), else the MPS baseline's medians, else the profile's alone.
std::pair<std::optional<double>, std::optional<double>> mps_alone(const ProfileFacts& f,
                                                                  const measure::ColocationGrid& grid) {
  if (const measure::GridCell* one = measure::find_cell(grid, "mps", 1)) {
    if (const auto req = measure::aggregate_req_per_s(*one)) return {req, measure::worst_p99_ms(*one)};
  }
  if (f.mps_baseline) return {f.mps_baseline->req_per_s, f.mps_baseline->p99_ms};
  return {f.req_per_s, f.p99_ms};
}

// The program's one copy beside a neighbour (a `mps K=1 + neighbour` cell): the others' draw is what the GPU
// drew less the program's own draw alone at the rate it kept. None without the cell's req/s or DRAM share.
std::optional<ProfileDramPoint> neighbour_point(const ProfileFacts& f, const measure::GridCell& cell, double alone_req,
                                                std::optional<double> alone_p99) {
  if (!cell.with_neighbour || cell.k != 1 || cell.mode != "mps" || !cell.gpu_dram_bw || !cell.error.empty()) {
    return std::nullopt;
  }
  const auto req = measure::aggregate_req_per_s(cell);
  if (!req) return std::nullopt;
  const double req_ratio = *req / alone_req;
  const double own = f.dram_bw.value_or(0) * std::min(1.0, req_ratio);
  ProfileDramPoint d{cell.neighbour_cap, *cell.gpu_dram_bw - own, req_ratio, std::nullopt};
  const auto p99 = measure::worst_p99_ms(cell);
  if (p99 && alone_p99 && *alone_p99 > 0) d.p99_ratio = *p99 / *alone_p99;
  if (p99 && *req > 0) {
    d.tail_excess_ms = std::max(0.0, *p99 - 1000.0 / *req);
    d.tail_ratio = *p99 * *req / 1000.0;
  }
  return d;
}

// The neighbour's SM activity alone: its uncapped cell (K=0), where it could hold every SM.
std::optional<double> neighbour_alone_sm(const measure::ColocationGrid& grid) {
  std::optional<double> sm;
  for (const measure::GridCell& cell : grid.cells) {
    if (cell.with_neighbour && cell.k == 0 && cell.mode == "mps" && neighbour_fills(cell.neighbour_cap) &&
        cell.error.empty()) {
      sm = cell.gpu_sm_active;
    }
  }
  return sm;
}

// The cells of one copy beside the neighbour whose GPU DRAM share was measured (model/dram_sensitivity.hpp).
// A neighbour that can hold every SM also carries its SM activity alone.
void add_dram_neighbour(ProfileFacts& f, const measure::ColocationGrid& grid) {
  const auto [alone_req, alone_p99] = mps_alone(f, grid);
  if (!alone_req || *alone_req <= 0) return;
  const std::optional<double> neighbour_sm = neighbour_alone_sm(grid);
  for (const measure::GridCell& cell : grid.cells) {
    auto d = neighbour_point(f, cell, *alone_req, alone_p99);
    if (!d || d->others_dram <= 0) continue;  // nothing drawn beside it that it did not draw itself: no point
    if (d->fills()) d->neighbour_sm = neighbour_sm;
    f.dram_neighbour.push_back(*d);
  }
  std::sort(f.dram_neighbour.begin(), f.dram_neighbour.end(),
            [](const auto& a, const auto& b) { return a.others_dram < b.others_dram; });
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
  f.baseline = measure::baseline_facts(p.baseline);
  f.mps_baseline = measure::baseline_facts(p.mps_baseline);
  if (p.colocation && !p.colocation->is_null()) {
    const measure::ColocationGrid grid = measure::colocation_grid_from_json(*p.colocation);  // read once
    add_grid(f, grid);
    add_dram_neighbour(f, grid);
  }
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
