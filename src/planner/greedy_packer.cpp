#include "planner/greedy_packer.hpp"

#include <algorithm>
#include <numeric>

namespace gpupack {

namespace {

// The replicas of one workload still to place (replica indices next .. replicas-1).
struct Bucket {
  int demand = 0;  // index into Demands::workloads
  int next = 0;
  int left = 0;
};

// Candidates for one slice: a tenant's buckets (largest first), or one bucket of isolated replicas.
struct Candidate {
  std::vector<int> buckets;
  bool own_slice = false;
};

class GreedyPacker {
 public:
  explicit GreedyPacker(const PlanContext& ctx) : ctx_(ctx) {
    const Demands& d = ctx.demands();
    tenant_candidates_.resize(d.tenants.size());
    for (const auto& w : d.workloads) {
      const int b = static_cast<int>(buckets_.size());
      buckets_.push_back({w.workload, 0, w.replicas});
      if (needs_own_slice(w.isolation)) own_.push_back(b);
      else tenant_candidates_[static_cast<size_t>(w.tenant)].buckets.push_back(b);
    }
    // Largest first on the reference GPU (the first of the fleet).
    const auto larger = [&](int a, int b) {
      return ctx.dominant_share(demand(a), 0) > ctx.dominant_share(demand(b), 0);
    };
    for (auto& c : tenant_candidates_) std::stable_sort(c.buckets.begin(), c.buckets.end(), larger);
    std::stable_sort(own_.begin(), own_.end(), larger);
  }

  PackResult run() {
    int gpu = 0;
    const int gpu_count = static_cast<int>(ctx_.gpus().size());
    if (ctx_.policy().whole_gpu) gpu = fill_whole_tenants(gpu, gpu_count);
    for (; gpu < gpu_count && anything_left(); ++gpu) fill_best(gpu);
    PackResult r;
    r.builds = std::move(builds_);
    for (const Bucket& b : buckets_) {
      for (int i = b.next; i < b.next + b.left; ++i) r.left.push_back({b.demand, i});
    }
    return r;
  }

 private:
  const WorkloadDemand& demand(int bucket) const {
    return ctx_.demands().workloads[static_cast<size_t>(buckets_[static_cast<size_t>(bucket)].demand)];
  }

  bool anything_left() const {
    return std::any_of(buckets_.begin(), buckets_.end(), [](const Bucket& b) { return b.left > 0; });
  }

  // Remaining demand of a candidate in whole GPUs `gpu` (the larger of memory and compute).
  double gpus_worth(const Candidate& c, int gpu, const std::vector<int>& left) const {
    const SliceSpec w = ctx_.whole(gpu);
    double memory = 0;
    double compute = 0;
    for (int b : c.buckets) {
      const WorkloadDemand& d = demand(b);
      memory += left[static_cast<size_t>(b)] * static_cast<double>(d.memory_bytes + w.context_overhead);
      compute += left[static_cast<size_t>(b)] * d.compute * w.compute_scale;
    }
    return std::max(memory / static_cast<double>(w.memory_bytes), compute);
  }

  std::vector<int> lefts() const {
    std::vector<int> out;
    for (const Bucket& b : buckets_) out.push_back(b.left);
    return out;
  }

  // First fit decreasing of a candidate's buckets into one slice; `left` is decremented, `taken` gets
  // how many replicas of each bucket went in. Returns the dominant share placed (of the whole GPU).
  double fill(SliceState& slice, const Candidate& c, std::vector<int>& left, int gpu,
              std::vector<std::pair<int, int>>* taken) const {
    double placed = 0;
    for (int b : c.buckets) {
      int& n = left[static_cast<size_t>(b)];
      int k = 0;
      const WorkloadDemand& d = demand(b);
      while (n > 0 && slice.check(d) == Fit::ok) {
        slice.add(d, buckets_[static_cast<size_t>(b)].next + (buckets_[static_cast<size_t>(b)].left - n));
        --n;
        ++k;
        if (c.own_slice) break;
      }
      if (k > 0) {
        placed += k * ctx_.dominant_share(d, gpu);
        if (taken) taken->push_back({b, k});
      }
      if (c.own_slice && k > 0) break;
    }
    return placed;
  }

  void commit(const std::vector<std::pair<int, int>>& taken) {
    for (auto [b, k] : taken) {
      buckets_[static_cast<size_t>(b)].next += k;
      buckets_[static_cast<size_t>(b)].left -= k;
    }
  }

  // Phase 1: whole GPUs for tenants with at least a GPU's worth of replicas.
  int fill_whole_tenants(int gpu, int gpu_count) {
    for (const Candidate& c : tenant_candidates_) {
      while (gpu < gpu_count) {
        std::vector<int> left = lefts();
        if (gpus_worth(c, gpu, left) < 1.0) break;
        SliceState slice(ctx_.whole(gpu), &ctx_.policy(), &ctx_.calibration());
        std::vector<std::pair<int, int>> taken;
        if (fill(slice, c, left, gpu, &taken) <= 0) break;
        commit(taken);
        builds_.push_back(GpuBuild{gpu, false, {std::move(slice)}});
        ++gpu;
      }
    }
    return gpu;
  }

  std::vector<Candidate> phase2_candidates() const {
    std::vector<Candidate> out;
    for (const Candidate& c : tenant_candidates_) {
      bool any = false;
      for (int b : c.buckets) any = any || buckets_[static_cast<size_t>(b)].left > 0;
      if (any) out.push_back(c);
    }
    for (int b : own_) {
      if (buckets_[static_cast<size_t>(b)].left > 0) out.push_back(Candidate{{b}, true});
    }
    return out;
  }

  struct Trial {
    double score = 0;
    GpuBuild build;
    std::vector<std::pair<int, int>> taken;
  };

  Trial try_whole(int gpu, const std::vector<Candidate>& candidates) const {
    Trial best;
    for (const Candidate& c : candidates) {
      std::vector<int> left = lefts();
      SliceState slice(ctx_.whole(gpu), &ctx_.policy(), &ctx_.calibration());
      std::vector<std::pair<int, int>> taken;
      const double score = fill(slice, c, left, gpu, &taken);
      if (score > best.score) best = Trial{score, GpuBuild{gpu, false, {std::move(slice)}}, std::move(taken)};
    }
    return best;
  }

  Trial try_layout(int gpu, const MigLayout& layout, const std::vector<Candidate>& candidates) const {
    Trial t;
    t.build = GpuBuild{gpu, true, {}};
    std::vector<int> left = lefts();
    for (const MigPlacedInstance& inst : layout.instances) {
      double best_score = 0;
      std::optional<SliceState> best_slice;
      std::vector<std::pair<int, int>> best_taken;
      std::vector<int> best_left;
      for (const Candidate& c : candidates) {
        std::vector<int> trial_left = left;
        SliceState slice(ctx_.instance(gpu, inst.profile), &ctx_.policy(), &ctx_.calibration());
        std::vector<std::pair<int, int>> taken;
        const double score = fill(slice, c, trial_left, gpu, &taken);
        if (score > best_score) {
          best_score = score;
          best_slice = std::move(slice);
          best_taken = std::move(taken);
          best_left = std::move(trial_left);
        }
      }
      if (!best_slice) continue;
      t.score += best_score;
      left = std::move(best_left);
      t.build.slices.push_back(std::move(*best_slice));
      t.taken.insert(t.taken.end(), best_taken.begin(), best_taken.end());
    }
    return t;
  }

  // Phase 2: the configuration of GPU `gpu` that places the most.
  void fill_best(int gpu) {
    const std::vector<Candidate> candidates = phase2_candidates();
    Trial best;
    if (ctx_.policy().whole_gpu) best = try_whole(gpu, candidates);
    for (const MigLayout& layout : ctx_.layouts(gpu)) {
      Trial t = try_layout(gpu, layout, candidates);
      // MIG must place strictly more than a whole GPU: one slice is simpler to run and to change.
      if (t.score > best.score + 1e-9) best = std::move(t);
    }
    if (best.score <= 0) return;
    commit(best.taken);
    builds_.push_back(std::move(best.build));
  }

  const PlanContext& ctx_;
  std::vector<Bucket> buckets_;
  std::vector<Candidate> tenant_candidates_;
  std::vector<int> own_;
  std::vector<GpuBuild> builds_;
};

}  // namespace

PackResult greedy_pack(const PlanContext& ctx) { return GreedyPacker(ctx).run(); }

}  // namespace gpupack
