#include "planner/lower_bound.hpp"

#include <algorithm>
#include <functional>
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
      consider(static_cast<double>(whole_gpu_memory_bytes(m)), scale);
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

}  // namespace

int lower_bound_gpus(const PlanContext& ctx) {
  const Demands& d = ctx.demands();
  const double overhead = static_cast<double>(ctx.scenario().context_overhead_bytes);
  double memory = 0;
  double compute = 0;  // in reference-GPU fractions
  double own_slices = 0;
  std::set<int> groups;
  for (const auto& w : d.workloads) {
    const double n = w.replicas;
    memory += n * static_cast<double>(w.memory_bytes);
    // Replicas of a group may share one process, so one context per group is all a plan must pay.
    const bool merges = w.group >= 0 && ctx.policy().streams && !needs_own_slice(w.isolation);
    if (merges) groups.insert(w.group);
    else memory += n * overhead;
    if (needs_own_slice(w.isolation)) {
      own_slices += n;
      // A replica with a slice of its own keeps all of that slice from everyone else: count the smallest
      // slice that could hold it on any GPU of the fleet instead of its own demand.
      const auto [slice_memory, slice_compute] = smallest_own_slice(ctx, w);
      memory += n * (slice_memory - static_cast<double>(w.memory_bytes) - overhead);
      compute += n * slice_compute;
    } else {
      compute += n * w.compute;
    }
  }
  memory += static_cast<double>(groups.size()) * overhead;
  std::vector<double> memory_cap;
  std::vector<double> compute_cap;
  std::vector<double> slice_cap;
  for (int g = 0; g < static_cast<int>(ctx.gpus().size()); ++g) {
    const GpuModel& m = ctx.model(g);
    memory_cap.push_back(static_cast<double>(whole_gpu_memory_bytes(m)));
    compute_cap.push_back(static_cast<double>(m.sm_count) / d.reference_sms);
    const bool mig = ctx.policy().mig && m.mig;
    slice_cap.push_back(mig ? m.mig->max_instances : (ctx.policy().whole_gpu ? 1 : 0));
  }
  int bound = total_replicas(ctx.scenario()) > 0 ? 1 : 0;
  bound = std::max(bound, fewest_covering(memory_cap, memory));
  bound = std::max(bound, fewest_covering(compute_cap, compute));
  bound = std::max(bound, fewest_covering(slice_cap, own_slices));
  return bound;
}

}  // namespace gpupack
