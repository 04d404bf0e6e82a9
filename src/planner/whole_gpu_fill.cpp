#include "planner/whole_gpu_fill.hpp"

#include <algorithm>
#include <unordered_map>
#include <utility>

namespace gpupack {

namespace {

// A strand factor for what phase 2 must place: remainders share GPUs through MIG instances, whose fixed
// sizes and lost SMs (16 of 132 per 1g instance of an H100) leave about a sixth unused.
constexpr double kRemainderCost = 1.2;

struct Weights {
  double memory = 1;
  double compute = 1;
  double slots = 1;
};

// A candidate place (a workload of the tenant, or a GPU) and how well it matches: the best is the highest
// score, ties going to the lowest workload index and to the highest GPU index, as the heuristics have
// always broken them (so plans stay the same).
struct Scored {
  double score;
  size_t index;
};

bool worse_workload(const Scored& a, const Scored& b) {
  return a.score != b.score ? a.score < b.score : a.index > b.index;
}

bool worse_gpu(const Scored& a, const Scored& b) { return a.score != b.score ? a.score < b.score : a.index < b.index; }

// The workload (index) of the best candidate that `fits` accepts, or -1 when none does. The best usually
// fits: one pass finds it; only when it does not are the others ordered (a heap, popped until one fits).
template <class Fits>
int first_fitting(std::vector<Scored>& candidates, Fits fits) {
  if (candidates.empty()) return -1;
  const auto best = std::max_element(candidates.begin(), candidates.end(), worse_workload);
  if (fits(best->index)) return static_cast<int>(best->index);
  std::iter_swap(best, candidates.end() - 1);
  candidates.pop_back();
  std::make_heap(candidates.begin(), candidates.end(), worse_workload);
  while (!candidates.empty()) {
    std::pop_heap(candidates.begin(), candidates.end(), worse_workload);
    const size_t i = candidates.back().index;
    candidates.pop_back();
    if (fits(i)) return static_cast<int>(i);
  }
  return -1;
}

// fit_score's factors: those of the GPU (what it has left) and those of the replica (its size on that
// GPU), each computed once where the other varies.
struct BinFactors {
  double free_memory;
  double free_compute;
  double free_slots;
  double slots;
};

BinFactors bin_factors(const SliceState& s) {
  const SliceSpec& spec = s.spec();
  const double memory_cap = static_cast<double>(spec.memory_bytes);
  const double slots = static_cast<double>(spec.mps_client_limit);
  return {(memory_cap - static_cast<double>(s.memory_used())) / memory_cap, 1.0 - s.compute_used() / spec.compute_share,
          (slots - static_cast<double>(s.loads().size())) / slots, slots};
}

struct ItemFactors {
  double memory;
  double compute;
};

ItemFactors item_factors(const SliceSpec& spec, const WorkloadDemand& d) {
  return {static_cast<double>(d.memory_bytes + spec.context_overhead) / static_cast<double>(spec.memory_bytes),
          d.compute * spec.compute_scale / spec.compute_share};
}

// The dot product of what the replica needs and what the GPU has left, weighted by scarcity.
double fit_score(const ItemFactors& item, const BinFactors& bin, const Weights& w) {
  return w.memory * item.memory * bin.free_memory + w.compute * item.compute * bin.free_compute +
         w.slots * bin.free_slots / bin.slots;
}

class WholeGpuTrials {
 public:
  WholeGpuTrials(const PlanContext& ctx, const TenantReplicas& tenant) : ctx_(ctx), tenant_(tenant) {}

  WholeGpuFill sequential(const std::vector<int>& free) const {
    WholeGpuFill t;
    t.pending = tenant_.pending;
    std::vector<Scored> scored;
    for (int gpu : free) {
      SliceState slice = empty_slice(gpu);
      const Weights w = scarcity(t.pending, slice.spec());
      std::vector<bool> blocked(t.pending.size(), false);
      for (int i; (i = best_workload(t.pending, slice, w, blocked, scored)) >= 0;) {
        auto& pending = t.pending[static_cast<size_t>(i)];
        slice.add(demand(static_cast<size_t>(i)), pending.back());
        pending.pop_back();
      }
      if (slice.empty()) break;  // nothing of this tenant fits this GPU: phase 2 tries the others
      t.gpus.push_back(gpu);
      t.bins.push_back(std::move(slice));
    }
    return t;
  }

  // Sequential GPUs filled less than kDissolveBelow go back to phase 2 when MIG could share them with
  // other tenants.
  void dissolve_sparse(WholeGpuFill& t) const {
    std::unordered_map<int, size_t> position;  // workload -> index in the tenant's lists
    for (size_t i = 0; i < tenant_.demands.size(); ++i) position[tenant_.demands[i]->workload] = i;
    WholeGpuFill kept;
    kept.pending = std::move(t.pending);
    for (size_t i = 0; i < t.bins.size(); ++i) {
      const SliceState& s = t.bins[i];
      const double fill = std::max(static_cast<double>(s.memory_used()) / static_cast<double>(s.spec().memory_bytes),
                                   s.compute_used() / s.spec().compute_share);
      if (fill >= kDissolveBelow || ctx_.layouts(t.gpus[i]).empty()) {
        kept.gpus.push_back(t.gpus[i]);
        kept.bins.push_back(std::move(t.bins[i]));
        continue;
      }
      for (const auto& members : s.members()) {
        for (const ReplicaRef& r : members) kept.pending[position.at(r.workload)].push_back(r.replica);
      }
    }
    t = std::move(kept);
  }

  WholeGpuFill balanced(const std::vector<int>& free, int k) const {
    WholeGpuFill t;
    t.pending = tenant_.pending;
    for (int i = 0; i < k; ++i) {
      t.gpus.push_back(free[static_cast<size_t>(i)]);
      t.bins.push_back(empty_slice(free[static_cast<size_t>(i)]));
    }
    const Weights w = scarcity(t.pending, t.bins.front().spec());
    std::vector<BinFactors> room;  // per bin, refreshed when it takes a replica
    for (const SliceState& bin : t.bins) room.push_back(bin_factors(bin));
    // Per workload, a heap of the GPUs that may take its next replica, by score. Only the GPU that took
    // a replica changes, so only its entry is scored again; a GPU whose full check refused the workload
    // is dropped, as it would refuse its other replicas too (they are alike and the GPU does not change).
    std::vector<Scored> heap;
    for (size_t i = 0; i < t.pending.size(); ++i) {  // largest replicas first
      const WorkloadDemand& d = demand(i);
      auto& pending = t.pending[i];
      const auto score = [&](size_t b) {
        const SliceState& bin = t.bins[b];
        if (bin.closed() || !bin.has_room(d.memory_bytes, d.compute)) return false;
        heap.push_back({fit_score(item_factors(bin.spec(), d), room[b], w), b});
        return true;
      };
      heap.clear();
      for (size_t b = 0; b < t.bins.size(); ++b) score(b);
      std::make_heap(heap.begin(), heap.end(), worse_gpu);
      while (!pending.empty() && !heap.empty()) {
        std::pop_heap(heap.begin(), heap.end(), worse_gpu);
        const size_t b = heap.back().index;
        heap.pop_back();
        SliceState& bin = t.bins[b];
        if (bin.check(d) != Fit::ok) continue;
        bin.add(d, pending.back());
        pending.pop_back();
        room[b] = bin_factors(bin);
        if (score(b)) std::push_heap(heap.begin(), heap.end(), worse_gpu);
      }
    }
    WholeGpuFill kept;
    kept.pending = std::move(t.pending);
    for (size_t b = 0; b < t.bins.size(); ++b) {
      if (t.bins[b].empty()) continue;
      kept.gpus.push_back(t.gpus[b]);
      kept.bins.push_back(std::move(t.bins[b]));
    }
    return kept;
  }

  // GPUs used plus the GPUs the leftovers will take in phase 2 (their larger resource share, stranded).
  double cost(const WholeGpuFill& t, int gpu) const {
    const SliceSpec spec = ctx_.whole(gpu);
    double memory = 0;
    double compute = 0;
    for (size_t i = 0; i < t.pending.size(); ++i) {
      const WorkloadDemand& d = demand(i);
      const double n = static_cast<double>(t.pending[i].size());
      memory += n * static_cast<double>(d.memory_bytes + spec.context_overhead) / static_cast<double>(spec.memory_bytes);
      compute += n * d.compute * spec.compute_scale;
    }
    return static_cast<double>(t.bins.size()) + kRemainderCost * std::max(memory, compute);
  }

 private:
  const WorkloadDemand& demand(size_t i) const { return *tenant_.demands[i]; }

  SliceState empty_slice(int gpu) const { return SliceState(ctx_.whole(gpu), &ctx_.policy(), &ctx_.parameters()); }

  // The workload whose next replica best matches what `slice` has left; -1 when none fits. Workloads whose
  // replica failed the full check are marked in `blocked`.
  int best_workload(const std::vector<std::vector<int>>& pending, const SliceState& slice, const Weights& w,
                    std::vector<bool>& blocked, std::vector<Scored>& scored) const {
    if (slice.closed()) return -1;
    scored.clear();
    const BinFactors room = bin_factors(slice);
    for (size_t i = 0; i < pending.size(); ++i) {
      if (blocked[i] || pending[i].empty()) continue;
      const WorkloadDemand& d = demand(i);
      if (slice.has_room(d.memory_bytes, d.compute)) scored.push_back({fit_score(item_factors(slice.spec(), d), room, w), i});
    }
    return first_fitting(scored, [&](size_t i) {
      if (slice.check(demand(i)) == Fit::ok) return true;
      blocked[i] = true;
      return false;
    });
  }

  // How much of each resource of one GPU the tenant's remaining replicas need in all.
  Weights scarcity(const std::vector<std::vector<int>>& pending, const SliceSpec& spec) const {
    Weights w{0, 0, 0};
    for (size_t i = 0; i < pending.size(); ++i) {
      const WorkloadDemand& d = demand(i);
      const double n = static_cast<double>(pending[i].size());
      w.memory += n * static_cast<double>(d.memory_bytes + spec.context_overhead) / static_cast<double>(spec.memory_bytes);
      w.compute += n * d.compute * spec.compute_scale / spec.compute_share;
      w.slots += n / spec.mps_client_limit;
    }
    return w;
  }

  const PlanContext& ctx_;
  const TenantReplicas& tenant_;
};

}  // namespace

WholeGpuFill fill_whole_gpus(const PlanContext& ctx, const TenantReplicas& tenant, const std::vector<int>& free) {
  const WholeGpuTrials trials(ctx, tenant);
  WholeGpuFill best = trials.sequential(free);
  const int opened = static_cast<int>(best.bins.size());
  trials.dissolve_sparse(best);
  // Without sharing a GPU holds one replica whichever way it is filled: spreading changes nothing.
  if (!ctx.policy().shares_slices()) return best;
  double best_cost = trials.cost(best, free.front());
  for (int k = std::max(1, opened - 1); k <= opened && k <= static_cast<int>(free.size()); ++k) {
    WholeGpuFill t = trials.balanced(free, k);
    const double t_cost = trials.cost(t, free.front());
    if (t_cost < best_cost - 1e-9) {
      best = std::move(t);
      best_cost = t_cost;
    }
  }
  return best;
}

}  // namespace gpupack
