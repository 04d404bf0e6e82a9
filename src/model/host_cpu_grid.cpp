#include "model/host_cpu_grid.hpp"

#include "model/model_parameters.hpp"
#include "model/profile_alone.hpp"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "core/sharing.hpp"

namespace gpupack {

namespace {

std::optional<double> shared_cores(const ProfileGridPoint& g) {
  if (g.usable_cores) return *g.usable_cores;
  if (g.node_cores) return *g.node_cores;
  return std::nullopt;
}

// The MPS points with a measured aggregate, by increasing K; none where no point has the copies' host
// cores (grids measured before them: the packer asks for every prediction, so this returns early).
std::vector<const ProfileGridPoint*> mps_points(const ProfileFacts& p) {
  std::vector<const ProfileGridPoint*> out;
  if (std::none_of(p.grid.begin(), p.grid.end(), [](const auto& g) { return g.host_cpu_cores.has_value(); })) {
    return out;
  }
  for (const auto& g : p.grid) {
    if (g.mode == measurement_key(Sharing::mps) && g.k >= 1 && g.aggregate_req_per_s > 0) out.push_back(&g);
  }
  std::sort(out.begin(), out.end(), [](const auto* a, const auto* b) { return a->k < b->k; });
  return out;
}

// A point of the grid with the host-CPU data and p99 that the wait is read from.
bool wait_point(const ProfileGridPoint& g) { return g.host_cpu_cores && shared_cores(g) && g.worst_p99_ms; }

// A figure of the grid's points (K ascending, at least two) at `processes`: on the line through the two
// points around it, or along the last step beyond the largest K (`beyond`).
struct Along {
  double value = 0;
  bool beyond = false;
};
template <class Figure>
Along along_points(const std::vector<const ProfileGridPoint*>& pts, int processes, Figure figure) {
  size_t i = 1;
  while (i + 1 < pts.size() && processes > pts[i]->k) ++i;
  const ProfileGridPoint& a = *pts[i - 1];
  const ProfileGridPoint& b = *pts[i];
  return {lerp_points(a.k, figure(a), b.k, figure(b), processes), processes > b.k};
}

}  // namespace

bool still_grew(int before_k, double before_req_per_s, int at_k, double at_req_per_s, double growth_share) {
  const double more_copies = static_cast<double>(at_k) / before_k - 1;
  return at_req_per_s >= before_req_per_s * (1 + growth_share * more_copies);
}

namespace {

std::pair<double, double> knee_rule(const ProfileFacts& p) {
  // The thresholds are model parameters (host_cpu_knee_growth_share, host_cpu_knee_full_cores, with their
  // sources in model_parameters.cpp), set on the facts where the profile was applied.
  static const ModelParameters kBuiltIn;
  return p.host_cpu_knee_rule.value_or(std::make_pair(kBuiltIn.host_cpu_knee_growth_share, kBuiltIn.host_cpu_knee_full_cores));
}

// The first step of the MPS grid whose req/s together did not grow (still_grew), with whether the host's
// cores were full there; none where every step grew or the grid has no host cores.
struct FlatStep {
  const ProfileGridPoint* before = nullptr;
  const ProfileGridPoint* at = nullptr;
  bool cores_full = false;
};
std::optional<FlatStep> first_flat_step(const ProfileFacts& p, const std::vector<const ProfileGridPoint*>& pts) {
  const auto [growth_share, full_cores] = knee_rule(p);
  for (size_t i = 1; i < pts.size(); ++i) {
    const ProfileGridPoint& before = *pts[i - 1];
    const ProfileGridPoint& at = *pts[i];
    if (still_grew(before.k, before.aggregate_req_per_s, at.k, at.aggregate_req_per_s, growth_share)) continue;
    const auto cores = shared_cores(at);
    if (!cores || !at.host_cpu_cores) return std::nullopt;
    return FlatStep{&before, &at, *at.host_cpu_cores >= full_cores * *cores};
  }
  return std::nullopt;
}

}  // namespace

std::optional<HostCpuKnee> host_cpu_knee(const ProfileFacts& p) {
  const auto pts = mps_points(p);
  const auto flat = first_flat_step(p, pts);
  // The first step that did not grow: a knee of the host's cores only where they were full there.
  if (!flat || !flat->cores_full) return std::nullopt;
  const ProfileGridPoint& before = *flat->before;
  const ProfileGridPoint& at = *flat->at;
  const double per_copy = before.aggregate_req_per_s / before.k;
  return HostCpuKnee{*shared_cores(at),
                     before.k,
                     at.k,
                     before.aggregate_req_per_s,
                     at.aggregate_req_per_s,
                     *at.host_cpu_cores,
                     std::max<double>(before.k, at.aggregate_req_per_s / per_copy)};
}

std::optional<GridGpuDemand> grid_gpu_demand(const ProfileFacts& p) {
  if (!p.req_per_s || *p.req_per_s <= 0) return std::nullopt;
  const auto pts = mps_points(p);
  const auto flat = first_flat_step(p, pts);
  if (!flat || flat->cores_full) return std::nullopt;
  // Where GPM measured the cell, the GPU must have been full there too (at the share the cores count as full):
  // a flat step of copies that left the GPU idle is noise or another bound, not the GPU's capacity.
  if (flat->at->gpu_busy && *flat->at->gpu_busy < knee_rule(p).second) return std::nullopt;
  // Copies that filled the DRAM's bandwidth there (a bandwidth-bound program: STREAM's triad, 0.92 of an
  // H200's at 4 copies) found the bandwidth's limit, not the SMs': beside programs that leave the DRAM free
  // it keeps what its SM-share curve says (model/kernel_share_stretch.hpp), as it did in runs 34-39. Read as
  // the SMs' limit, the triad capped at 30% beside three dlrm was predicted 185 req/s where it ran 376
  // (results/run54-memory-default-h200, round 2).
  if (flat->at->gpu_dram && *flat->at->gpu_dram >= knee_rule(p).second) return std::nullopt;
  double plateau = 0;
  for (const auto* g : pts) {
    if (g->k >= flat->before->k) plateau = std::max(plateau, g->aggregate_req_per_s);
  }
  const double demand = std::min(1.0, *p.req_per_s / plateau);
  if (demand <= p.sm_active.value_or(0.0)) return std::nullopt;  // no more than GPM measured alone
  return GridGpuDemand{demand, plateau, flat->before->k, flat->at->k};
}

double effective_sm_activity(const ProfileFacts& p) {
  const double a = std::clamp(p.sm_active.value_or(0.0), 0.0, 1.0);
  const auto d = grid_gpu_demand(p);
  return d ? std::max(a, d->demand) : a;
}

double MeasuredCoreWait::wait_ms(int processes, double node_cores) const {
  if (node_cores <= 0 || processes <= node_cores) return 0;
  return ms_per_copy * (processes - node_cores) * cores / node_cores;
}

bool MeasuredCoreWait::measured_at(int processes, double node_cores) const {
  return std::abs(node_cores - cores) < 1e-9 && processes <= largest_k;
}

std::optional<MeasuredCoreWait> measured_core_wait(const ProfileFacts& p) {
  const auto pts = mps_points(p);
  const ProfileGridPoint* prev = nullptr;   // the point before `below`
  const ProfileGridPoint* below = nullptr;  // the largest K within the cores
  const ProfileGridPoint* past = nullptr;   // the smallest K past them
  for (const auto* g : pts) {
    if (!wait_point(*g)) continue;
    if (g->k <= *shared_cores(*g)) {
      prev = below;
      below = g;
    } else if (!past) {
      past = g;
    }
  }
  if (!below || !past || *shared_cores(*below) != *shared_cores(*past)) return std::nullopt;
  const double slope_past = (*past->worst_p99_ms - *below->worst_p99_ms) / (past->k - below->k);
  // What p99 grew per copy within the cores (GPU contention, the launch path) is not a wait for a core.
  const double slope_within =
      prev ? std::max(0.0, (*below->worst_p99_ms - *prev->worst_p99_ms) / (below->k - prev->k)) : 0.0;
  return MeasuredCoreWait{*shared_cores(*past), below->k, past->k, pts.back()->k,
                          std::max(0.0, slope_past - slope_within)};
}

std::optional<GridTail> grid_median_p99(const ProfileFacts& p, int processes) {
  if (processes < 2 || !host_cpu_knee(p)) return std::nullopt;
  std::vector<const ProfileGridPoint*> pts;
  for (const auto* g : mps_points(p)) {
    if (g->median_p99_ms) pts.push_back(g);
  }
  if (pts.size() < 2) return std::nullopt;
  const Along tail = along_points(pts, processes, [](const ProfileGridPoint& g) { return *g.median_p99_ms; });
  return GridTail{std::max(0.0, tail.value), pts.back()->k, tail.beyond};
}

std::optional<GridRate> grid_per_copy_rate(const ProfileFacts& p, int processes) {
  if (processes < 2 || !host_cpu_knee(p)) return std::nullopt;
  const auto pts = mps_points(p);
  if (pts.size() < 2 || processes > pts.back()->k) return std::nullopt;
  const Along aggregate = along_points(pts, processes, [](const ProfileGridPoint& g) { return g.aggregate_req_per_s; });
  return GridRate{aggregate.value / processes, pts.back()->k};
}

std::optional<double> replica_host_cores(const ProfileFacts& p) {
  if (const auto knee = host_cpu_knee(p)) return knee->cores_per_copy();
  return p.host_cpu_cores;
}

}  // namespace gpupack
