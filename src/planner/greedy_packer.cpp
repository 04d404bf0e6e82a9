#include "planner/greedy_packer.hpp"

#include <algorithm>
#include <map>
#include <optional>

namespace gpupack {

namespace {

// The replicas of one workload still to place; the packer takes them from the back.
struct Bucket {
  int demand = 0;  // index into Demands::workloads
  std::vector<int> pending;
  int left() const { return static_cast<int>(pending.size()); }
};

// Candidates for one slice: a tenant's buckets (largest first), or one bucket of isolated replicas.
struct Candidate {
  std::vector<int> buckets;
  bool own_slice = false;
};

// A whole GPU filled less than this (the larger of memory and compute) after first fit decreasing is
// handed back, its replicas packed with other tenants' remainders into MIG instances instead.
constexpr double kDissolveBelow = 0.7;

class GreedyPacker {
 public:
  explicit GreedyPacker(const PlanContext& ctx) : ctx_(ctx), used_(ctx.gpus().size(), false) {
    const Demands& d = ctx.demands();
    tenant_candidates_.resize(d.tenants.size());
    for (const auto& w : d.workloads) {
      const int b = static_cast<int>(buckets_.size());
      Bucket bucket{w.workload, {}};
      for (int i = w.replicas - 1; i >= 0; --i) bucket.pending.push_back(i);
      buckets_.push_back(std::move(bucket));
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
    if (ctx_.policy().whole_gpu) {
      for (const Candidate& c : tenant_candidates_) fill_whole_gpus(c);
    }
    for (int gpu = 0; gpu < static_cast<int>(ctx_.gpus().size()) && anything_left(); ++gpu) {
      if (!used_[static_cast<size_t>(gpu)]) fill_best(gpu);
    }
    PackResult r;
    for (GpuBuild& b : builds_) {
      if (!b.slices.empty()) r.builds.push_back(std::move(b));
    }
    for (const Bucket& b : buckets_) {
      for (int i : b.pending) r.left.push_back({b.demand, i});
    }
    std::sort(r.left.begin(), r.left.end(), [](const ReplicaRef& x, const ReplicaRef& y) {
      return std::pair(x.workload, x.replica) < std::pair(y.workload, y.replica);
    });
    return r;
  }

 private:
  const WorkloadDemand& demand(int bucket) const {
    return ctx_.demands().workloads[static_cast<size_t>(buckets_[static_cast<size_t>(bucket)].demand)];
  }

  bool anything_left() const {
    return std::any_of(buckets_.begin(), buckets_.end(), [](const Bucket& b) { return b.left() > 0; });
  }

  std::vector<int> lefts() const {
    std::vector<int> out;
    for (const Bucket& b : buckets_) out.push_back(b.left());
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
        slice.add(d, buckets_[static_cast<size_t>(b)].pending[static_cast<size_t>(n - 1)]);
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
      auto& pending = buckets_[static_cast<size_t>(b)].pending;
      pending.resize(pending.size() - static_cast<size_t>(k));
    }
  }


  // A cheap test that rules most full GPUs out before the full check (memory without the context, which
  // a group member may not need).
  static bool may_fit(const SliceState& s, const WorkloadDemand& d) {
    return s.memory_used() + d.memory_bytes <= s.spec().memory_bytes &&
           s.compute_used() + d.compute * s.spec().compute_scale <= s.spec().compute_share + 1e-9;
  }

  // Phase 1: a tenant's replicas on whole GPUs of its own. Two ways are tried and the cheaper kept (GPUs
  // plus what is left over for phase 2, see cost()):
  // - one GPU after the other, each filled before the next is opened (few GPUs when the tenant's replicas
  //   pack well, but the last GPUs get what is left, often all memory-heavy or all compute-heavy);
  // - k GPUs at once (k = the sequential count, and one less), each replica going to the GPU where it
  //   fits best, so every GPU gets a balanced mix and the tenant often needs no GPU in phase 2.
  // Either way a replica goes where its (memory, compute, MPS client slot) vector best matches what the
  // GPU has left, weighted by how scarce each resource is for the tenant (the dot-product heuristic for
  // vector bin packing): memory-heavy and compute-heavy replicas end up side by side instead of filling
  // one dimension of a GPU each.
  void fill_whole_gpus(const Candidate& c) {
    const std::vector<int> free = free_gpus();
    if (free.empty()) return;
    WholeTrial best = sequential(c, free);
    const int opened = static_cast<int>(best.bins.size());
    dissolve_sparse(c, best);
    double best_cost = cost(c, best, free.front());
    for (int k = std::max(1, opened - 1); k <= opened && k <= static_cast<int>(free.size()); ++k) {
      WholeTrial t = balanced(c, free, k);
      const double t_cost = cost(c, t, free.front());
      if (t_cost < best_cost - 1e-9) {
        best = std::move(t);
        best_cost = t_cost;
      }
    }
    for (size_t i = 0; i < c.buckets.size(); ++i) {
      buckets_[static_cast<size_t>(c.buckets[i])].pending = std::move(best.pending[i]);
    }
    for (size_t i = 0; i < best.bins.size(); ++i) {
      used_[static_cast<size_t>(best.gpus[i])] = true;
      builds_.push_back(GpuBuild{best.gpus[i], false, {std::move(best.bins[i])}});
    }
  }

  struct Weights {
    double memory = 1;
    double compute = 1;
    double slots = 1;
  };

  // Whole GPUs for one tenant, tried on copies of its pending replicas.
  struct WholeTrial {
    std::vector<int> gpus;
    std::vector<SliceState> bins;
    std::vector<std::vector<int>> pending;  // per bucket of the candidate: replicas left for phase 2
  };

  std::vector<int> free_gpus() const {
    std::vector<int> out;
    for (size_t g = 0; g < used_.size(); ++g) {
      if (!used_[g]) out.push_back(static_cast<int>(g));
    }
    return out;
  }

  std::vector<std::vector<int>> pending_of(const Candidate& c) const {
    std::vector<std::vector<int>> out;
    for (int b : c.buckets) out.push_back(buckets_[static_cast<size_t>(b)].pending);
    return out;
  }

  // A strand factor for what phase 2 must place: remainders share GPUs through MIG instances, whose fixed
  // sizes and lost SMs (16 of 132 per 1g instance of an H100) leave about a sixth unused.
  static constexpr double kRemainderCost = 1.2;

  // GPUs used plus the GPUs the leftovers will take in phase 2 (their larger resource share, stranded).
  double cost(const Candidate& c, const WholeTrial& t, int gpu) const {
    const SliceSpec spec = ctx_.whole(gpu);
    double memory = 0;
    double compute = 0;
    for (size_t i = 0; i < c.buckets.size(); ++i) {
      const WorkloadDemand& d = demand(c.buckets[i]);
      const double n = static_cast<double>(t.pending[i].size());
      memory += n * static_cast<double>(d.memory_bytes + spec.context_overhead) / static_cast<double>(spec.memory_bytes);
      compute += n * d.compute * spec.compute_scale;
    }
    return static_cast<double>(t.bins.size()) + kRemainderCost * std::max(memory, compute);
  }

  // The bucket (position in c.buckets) whose next replica best matches what `slice` has left; -1 when none
  // fits. Buckets whose replica failed the full check are marked in `blocked`.
  int best_bucket(const Candidate& c, const std::vector<std::vector<int>>& pending, const SliceState& slice,
                  const Weights& w, std::vector<bool>& blocked) const {
    while (true) {
      int best = -1;
      double best_score = -1;
      for (size_t i = 0; i < c.buckets.size(); ++i) {
        if (blocked[i] || pending[i].empty()) continue;
        const WorkloadDemand& d = demand(c.buckets[i]);
        if (!may_fit(slice, d)) continue;
        const double score = fit_score(slice, d, w);
        if (score > best_score) {
          best_score = score;
          best = static_cast<int>(i);
        }
      }
      if (best < 0 || slice.check(demand(c.buckets[static_cast<size_t>(best)])) == Fit::ok) return best;
      blocked[static_cast<size_t>(best)] = true;
    }
  }

  WholeTrial sequential(const Candidate& c, const std::vector<int>& free) const {
    WholeTrial t;
    t.pending = pending_of(c);
    for (int gpu : free) {
      SliceState slice(ctx_.whole(gpu), &ctx_.policy(), &ctx_.calibration());
      const Weights w = scarcity(c, t.pending, slice.spec());
      std::vector<bool> blocked(c.buckets.size(), false);
      for (int i; (i = best_bucket(c, t.pending, slice, w, blocked)) >= 0;) {
        auto& pending = t.pending[static_cast<size_t>(i)];
        slice.add(demand(c.buckets[static_cast<size_t>(i)]), pending.back());
        pending.pop_back();
      }
      if (slice.empty()) break;  // nothing of this tenant fits this GPU: phase 2 tries the others
      t.gpus.push_back(gpu);
      t.bins.push_back(std::move(slice));
    }
    return t;
  }

  // GPUs filled less than kDissolveBelow are handed back for phase 2 when MIG could share them with other
  // tenants.
  void dissolve_sparse(const Candidate& c, WholeTrial& t) const {
    std::map<int, size_t> position;  // bucket -> index in c.buckets
    for (size_t i = 0; i < c.buckets.size(); ++i) position[c.buckets[i]] = i;
    WholeTrial kept;
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

  WholeTrial balanced(const Candidate& c, const std::vector<int>& free, int k) const {
    WholeTrial t;
    t.pending = pending_of(c);
    for (int i = 0; i < k; ++i) {
      t.gpus.push_back(free[static_cast<size_t>(i)]);
      t.bins.emplace_back(ctx_.whole(free[static_cast<size_t>(i)]), &ctx_.policy(), &ctx_.calibration());
    }
    const Weights w = scarcity(c, t.pending, t.bins.front().spec());
    std::vector<std::pair<double, size_t>> order;  // (score, bin)
    for (size_t i = 0; i < c.buckets.size(); ++i) {  // largest replicas first
      const WorkloadDemand& d = demand(c.buckets[i]);
      auto& pending = t.pending[i];
      while (!pending.empty()) {
        order.clear();
        for (size_t b = 0; b < t.bins.size(); ++b) {
          if (may_fit(t.bins[b], d)) order.push_back({fit_score(t.bins[b], d, w), b});
        }
        std::sort(order.begin(), order.end(), std::greater<>());
        const auto fits = std::find_if(order.begin(), order.end(),
                                       [&](const auto& o) { return t.bins[o.second].check(d) == Fit::ok; });
        if (fits == order.end()) break;  // the replicas of one workload are alike: none of them fits now
        t.bins[fits->second].add(d, pending.back());
        pending.pop_back();
      }
    }
    WholeTrial kept;
    kept.pending = std::move(t.pending);
    for (size_t b = 0; b < t.bins.size(); ++b) {
      if (t.bins[b].empty()) continue;
      kept.gpus.push_back(t.gpus[b]);
      kept.bins.push_back(std::move(t.bins[b]));
    }
    return kept;
  }

  // How much of each resource of one GPU the tenant's remaining replicas need in all.
  Weights scarcity(const Candidate& c, const std::vector<std::vector<int>>& pending, const SliceSpec& spec) const {
    Weights w{0, 0, 0};
    for (size_t i = 0; i < c.buckets.size(); ++i) {
      const WorkloadDemand& d = demand(c.buckets[i]);
      const double n = static_cast<double>(pending[i].size());
      w.memory += n * static_cast<double>(d.memory_bytes + spec.context_overhead) / static_cast<double>(spec.memory_bytes);
      w.compute += n * d.compute * spec.compute_scale / spec.compute_share;
      w.slots += n / spec.mps_client_limit;
    }
    return w;
  }

  static double fit_score(const SliceState& s, const WorkloadDemand& d, const Weights& w) {
    const SliceSpec& spec = s.spec();
    const double memory_cap = static_cast<double>(spec.memory_bytes);
    const double item_memory = static_cast<double>(d.memory_bytes + spec.context_overhead) / memory_cap;
    const double free_memory = (memory_cap - static_cast<double>(s.memory_used())) / memory_cap;
    const double item_compute = d.compute * spec.compute_scale / spec.compute_share;
    const double free_compute = 1.0 - s.compute_used() / spec.compute_share;
    const double slots = static_cast<double>(spec.mps_client_limit);
    const double free_slots = (slots - static_cast<double>(s.loads().size())) / slots;
    return w.memory * item_memory * free_memory + w.compute * item_compute * free_compute +
           w.slots * free_slots / slots;
  }

  std::vector<Candidate> phase2_candidates() const {
    std::vector<Candidate> out;
    for (const Candidate& c : tenant_candidates_) {
      bool any = false;
      for (int b : c.buckets) any = any || buckets_[static_cast<size_t>(b)].left() > 0;
      if (any) out.push_back(c);
    }
    for (int b : own_) {
      if (buckets_[static_cast<size_t>(b)].left() > 0) out.push_back(Candidate{{b}, true});
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

  // One candidate filled into one empty instance of a profile, from the GPU's starting state.
  struct InstanceFill {
    double score = 0;
    std::optional<SliceState> slice;
    std::vector<std::pair<int, int>> taken;
  };

  InstanceFill fill_instance(int gpu, int profile, const Candidate& c, std::vector<int>& left) const {
    InstanceFill f;
    SliceState slice(ctx_.instance(gpu, profile), &ctx_.policy(), &ctx_.calibration());
    f.score = fill(slice, c, left, gpu, &f.taken);
    if (f.score > 0) f.slice = std::move(slice);
    return f;
  }

  // Fills of every (profile, candidate) pair from the GPU's starting state, computed on first use and
  // shared by all layouts: candidates hold disjoint replicas, so a fill stays valid in a layout until that
  // candidate has filled an earlier instance of it.
  class FillTable {
   public:
    FillTable(const GreedyPacker& packer, int gpu, const std::vector<Candidate>& candidates)
        : packer_(packer), gpu_(gpu), candidates_(candidates), start_(packer.lefts()) {}

    const InstanceFill& at(int profile, size_t candidate) {
      auto& row = table_[profile];
      if (row.empty()) row.resize(candidates_.size());
      auto& cell = row[candidate];
      if (!cell) {
        std::vector<int> left = start_;
        cell = packer_.fill_instance(gpu_, profile, candidates_[candidate], left);
      }
      return *cell;
    }
    const std::vector<int>& start() const { return start_; }

   private:
    const GreedyPacker& packer_;
    int gpu_;
    const std::vector<Candidate>& candidates_;
    std::vector<int> start_;
    std::map<int, std::vector<std::optional<InstanceFill>>> table_;
  };

  Trial try_layout(int gpu, const MigLayout& layout, const std::vector<Candidate>& candidates,
                   FillTable& table) const {
    Trial t;
    t.build = GpuBuild{gpu, true, {}};
    std::vector<int> left = table.start();
    std::vector<bool> touched(candidates.size(), false);
    for (const MigPlacedInstance& inst : layout.instances) {
      InstanceFill best;
      size_t best_candidate = 0;
      for (size_t ci = 0; ci < candidates.size(); ++ci) {
        if (!touched[ci]) {
          const InstanceFill& f = table.at(inst.profile, ci);
          if (f.score > best.score) {
            best = f;
            best_candidate = ci;
          }
          continue;
        }
        std::vector<int> trial_left = left;
        InstanceFill f = fill_instance(gpu, inst.profile, candidates[ci], trial_left);
        if (f.score > best.score) {
          best = std::move(f);
          best_candidate = ci;
        }
      }
      if (!best.slice) continue;
      touched[best_candidate] = true;
      for (auto [b, k] : best.taken) left[static_cast<size_t>(b)] -= k;
      t.score += best.score;
      t.build.slices.push_back(std::move(*best.slice));
      t.taken.insert(t.taken.end(), best.taken.begin(), best.taken.end());
    }
    return t;
  }

  // Phase 2: the configuration of GPU `gpu` that places the most.
  void fill_best(int gpu) {
    const std::vector<Candidate> candidates = phase2_candidates();
    Trial best;
    if (ctx_.policy().whole_gpu) best = try_whole(gpu, candidates);
    FillTable table(*this, gpu, candidates);
    for (const MigLayout& layout : ctx_.layouts(gpu)) {
      Trial t = try_layout(gpu, layout, candidates, table);
      // MIG must place strictly more than a whole GPU: one slice is simpler to run and to change.
      if (t.score > best.score + 1e-9) best = std::move(t);
    }
    if (best.score <= 0) return;
    commit(best.taken);
    used_[static_cast<size_t>(gpu)] = true;
    builds_.push_back(std::move(best.build));
  }

  const PlanContext& ctx_;
  std::vector<Bucket> buckets_;
  std::vector<Candidate> tenant_candidates_;
  std::vector<int> own_;
  std::vector<bool> used_;
  std::vector<GpuBuild> builds_;
};

}  // namespace

PackResult greedy_pack(const PlanContext& ctx) { return GreedyPacker(ctx).run(); }

}  // namespace gpupack
