#include "planner/lower_bound.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <vector>

#include "core/units.hpp"
#include "planner/plan_context.hpp"

namespace gpupack {

namespace {

// The fewest capacities (largest first) whose sum reaches `demand`; all of them when none suffices.
int fewest_covering(std::vector<double> capacities, double demand) {
  if (demand <= 0) return 0;
  std::sort(capacities.begin(), capacities.end(), std::greater<>());
  double sum = 0;
  for (size_t i = 0; i < capacities.size(); ++i) {
    sum += capacities[i];
    // A relative tolerance: demand equal to capacity (e.g. 7 x 1/7) needs exactly those GPUs.
    if (sum >= demand * (1 - 1e-9)) return static_cast<int>(i) + 1;
  }
  return static_cast<int>(capacities.size());
}

// The compute a replica surely takes from its GPU: none for a profiled one with an SLO under a policy
// with MPS, which may share SMs past their count (model/profiled_slice.hpp).
double bound_compute(const PlanContext& ctx, const WorkloadDemand& w) {
  return w.profiled && w.max_p99_inflation && ctx.policy().mps ? 0.0 : w.compute;
}

// Memory (bytes) and compute (reference-GPU fractions) of the smallest slice that could hold `w`, each
// minimised separately over the fleet's models and the slices the policy allows; the replica's own
// demand when no slice holds it (it stays unplaced and the bound must not count it as more).
std::pair<double, double> smallest_own_slice(const PlanContext& ctx, const WorkloadDemand& w) {
  const double overhead = static_cast<double>(ctx.scenario().context_overhead_bytes);
  const double need_memory = static_cast<double>(w.memory_bytes) + overhead;
  double memory = -1;
  double compute = -1;
  const auto consider = [&](double slice_memory, double slice_compute) {
    if (slice_memory < need_memory || slice_compute + 1e-9 < w.compute) return;
    memory = memory < 0 ? slice_memory : std::min(memory, slice_memory);
    compute = compute < 0 ? slice_compute : std::min(compute, slice_compute);
  };
  std::set<int> entries;
  for (int g = 0; g < static_cast<int>(ctx.gpus().size()); ++g) {
    if (!entries.insert(ctx.gpus()[static_cast<size_t>(g)].entry).second) continue;
    const GpuModel& m = ctx.model(g);
    const double scale = static_cast<double>(m.sm_count) / ctx.demands().reference_sms;  // GPU -> reference units
    if (ctx.policy().whole_gpu) {
      consider(static_cast<double>(whole_gpu_memory_bytes(m, ctx.parameters())), scale);
    }
    if (ctx.policy().mig && m.mig) {
      for (const auto& p : m.mig->profiles) {
        consider(static_cast<double>(gib_to_bytes(p.memory_gib)), scale * p.sms / m.sm_count);
      }
    }
  }
  if (memory < 0) return {need_memory, w.compute};
  return {memory, compute};
}

// The largest memory and compute (reference-GPU fractions) of any one GPU of the fleet: the unit of
// "GPU equivalents" below.
struct Unit {
  double memory = 0;
  double compute = 0;
  double of(double memory_need, double compute_need) const {
    return std::max(memory_need / memory, compute_need / compute);
  }
};

Unit largest_gpu(const PlanContext& ctx) {
  Unit u;
  for (int g = 0; g < static_cast<int>(ctx.gpus().size()); ++g) {
    const GpuModel& m = ctx.model(g);
    u.memory = std::max(u.memory, static_cast<double>(whole_gpu_memory_bytes(m, ctx.parameters())));
    u.compute = std::max(u.compute, static_cast<double>(m.sm_count) / ctx.demands().reference_sms);
  }
  return u;
}

// The most GPU equivalents one GPU can hand out in slices: its whole self, or the instances of its best
// MIG layout, each instance counted as the larger of its memory and compute shares of the unit. (Usually
// at most 1; computed rather than assumed, so that the bound stays valid for any catalog entry.)
double equivalents_of_gpu(const PlanContext& ctx, int gpu, const Unit& unit) {
  const GpuModel& m = ctx.model(gpu);
  const double sms = ctx.demands().reference_sms;
  double best = 0;
  if (ctx.policy().whole_gpu) best = unit.of(static_cast<double>(whole_gpu_memory_bytes(m, ctx.parameters())), m.sm_count / sms);
  for (const MigLayout& layout : ctx.layouts(gpu)) {
    double sum = 0;
    for (const MigPlacedInstance& inst : layout.instances) {
      const MigProfile& p = m.mig->profiles[static_cast<size_t>(inst.profile)];
      sum += unit.of(static_cast<double>(gib_to_bytes(p.memory_gib)), p.sms / sms);
    }
    best = std::max(best, sum);
  }
  return best;
}

// The trust bound. Clients of different tenants never share a slice, so each tenant's memory and compute
// must be covered by slices of its own; a replica that needs a slice of its own is a trust domain by
// itself. A slice of memory m and compute c is worth max(m / M, c / C) GPU equivalents (M, C: the largest
// GPU of the fleet), at least what it gives a tenant in either resource, so the tenants' summed needs in
// equivalents must fit into the equivalents the used GPUs can hand out. Unlike the sums over all tenants,
// this sees that a memory-bound tenant cannot lend its GPUs' idle compute to a compute-bound one.
// `own[i]`: the smallest own slice of workload i (see smallest_own_slice), for those that need one.
int trust_bound(const PlanContext& ctx, const std::vector<std::pair<double, double>>& own) {
  const Demands& d = ctx.demands();
  const Unit unit = largest_gpu(ctx);
  const double overhead = static_cast<double>(ctx.scenario().context_overhead_bytes);
  std::vector<double> memory(d.tenants.size(), 0);
  std::vector<double> compute(d.tenants.size(), 0);
  std::set<std::pair<int, int>> group_contexts;  // (tenant, group): one process at least for each
  double needed = 0;                             // GPU equivalents
  for (size_t i = 0; i < d.workloads.size(); ++i) {
    const WorkloadDemand& w = d.workloads[i];
    const double n = w.not_judged ? 0 : w.replicas;  // never placed: no GPU is needed for them
    if (needs_own_slice(w.isolation)) {
      needed += n * unit.of(own[i].first, own[i].second);
      continue;
    }
    const auto t = static_cast<size_t>(w.tenant);
    memory[t] += n * static_cast<double>(w.memory_bytes);
    compute[t] += n * bound_compute(ctx, w);
    if (w.group >= 0 && ctx.policy().streams) group_contexts.insert({w.tenant, w.group});
    else memory[t] += n * overhead;
  }
  for (const auto& [tenant, group] : group_contexts) memory[static_cast<size_t>(tenant)] += overhead;
  for (size_t t = 0; t < d.tenants.size(); ++t) needed += unit.of(memory[t], compute[t]);
  std::map<int, double> by_entry;  // GPUs of one fleet entry are alike
  std::vector<double> capacity;
  for (int g = 0; g < static_cast<int>(ctx.gpus().size()); ++g) {
    const int entry = ctx.gpus()[static_cast<size_t>(g)].entry;
    auto it = by_entry.find(entry);
    if (it == by_entry.end()) it = by_entry.emplace(entry, equivalents_of_gpu(ctx, g, unit)).first;
    capacity.push_back(it->second);
  }
  return fewest_covering(std::move(capacity), needed);
}

}  // namespace

int lower_bound_gpus(const PlanContext& ctx) {
  const Demands& d = ctx.demands();
  const double overhead = static_cast<double>(ctx.scenario().context_overhead_bytes);
  double memory = 0;
  double compute = 0;  // in reference-GPU fractions
  double own_slices = 0;
  std::set<int> groups;
  std::vector<std::pair<double, double>> own(d.workloads.size());
  for (size_t i = 0; i < d.workloads.size(); ++i) {
    const WorkloadDemand& w = d.workloads[i];
    const double n = w.not_judged ? 0 : w.replicas;  // never placed: no GPU is needed for them
    memory += n * static_cast<double>(w.memory_bytes);
    // Replicas of a group may share one process, so one context per group is all a plan must pay.
    const bool merges = w.group >= 0 && ctx.policy().streams && !needs_own_slice(w.isolation);
    if (merges) groups.insert(w.group);
    else memory += n * overhead;
    if (needs_own_slice(w.isolation)) {
      own_slices += n;
      // A replica with a slice of its own keeps all of that slice from everyone else: count the smallest
      // slice that could hold it on any GPU of the fleet instead of its own demand.
      own[i] = smallest_own_slice(ctx, w);
      const auto [slice_memory, slice_compute] = own[i];
      memory += n * (slice_memory - static_cast<double>(w.memory_bytes) - overhead);
      compute += n * slice_compute;
    } else {
      compute += n * bound_compute(ctx, w);
    }
  }
  memory += static_cast<double>(groups.size()) * overhead;
  std::vector<double> memory_cap;
  std::vector<double> compute_cap;
  std::vector<double> slice_cap;
  for (int g = 0; g < static_cast<int>(ctx.gpus().size()); ++g) {
    const GpuModel& m = ctx.model(g);
    memory_cap.push_back(static_cast<double>(whole_gpu_memory_bytes(m, ctx.parameters())));
    compute_cap.push_back(static_cast<double>(m.sm_count) / d.reference_sms);
    const bool mig = ctx.policy().mig && m.mig;
    slice_cap.push_back(mig ? m.mig->max_instances : (ctx.policy().whole_gpu ? 1 : 0));
  }
  int bound = total_replicas(ctx.scenario()) > 0 ? 1 : 0;
  bound = std::max(bound, fewest_covering(memory_cap, memory));
  bound = std::max(bound, fewest_covering(compute_cap, compute));
  bound = std::max(bound, fewest_covering(slice_cap, own_slices));
  if (total_replicas(ctx.scenario()) > 0) bound = std::max(bound, trust_bound(ctx, own));
  return bound;
}

}  // namespace gpupack
