#include "planner/greedy_packer.hpp"

#include <algorithm>
#include <map>
#include <optional>

#include "planner/room_index.hpp"
#include "planner/whole_gpu_fill.hpp"

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
  RoomIndex room;  // over `buckets`: which of them a slice still has room for
};

class GreedyPacker {
 public:
  explicit GreedyPacker(const PlanContext& ctx) : ctx_(ctx), used_(ctx.gpus().size(), false) {
    const Demands& d = ctx.demands();
    tenant_candidates_.resize(d.tenants.size());
    for (const auto& w : d.workloads) {
      const int b = static_cast<int>(buckets_.size());
      Bucket bucket{w.workload, {}};
      for (int i = w.replicas - 1; i >= 0; --i) bucket.pending.push_back(i);
      remaining_ += w.replicas;
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
      for (const Candidate& c : tenant_candidates_) fill_whole(c);
    }
    for (int gpu = 0; gpu < static_cast<int>(ctx_.gpus().size()) && remaining_ > 0; ++gpu) {
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

  std::vector<int> lefts() const {
    std::vector<int> out;
    out.reserve(buckets_.size());
    for (const Bucket& b : buckets_) out.push_back(b.left());
    return out;
  }

  std::vector<int> free_gpus() const {
    std::vector<int> out;
    for (size_t g = 0; g < used_.size(); ++g) {
      if (!used_[g]) out.push_back(static_cast<int>(g));
    }
    return out;
  }

  // Phase 1 (whole_gpu_fill.hpp): a tenant's replicas on whole GPUs of its own.
  void fill_whole(const Candidate& c) {
    const std::vector<int> free = free_gpus();
    if (free.empty() || c.buckets.empty()) return;
    TenantReplicas tenant;
    for (int b : c.buckets) {
      tenant.demands.push_back(&demand(b));
      tenant.pending.push_back(buckets_[static_cast<size_t>(b)].pending);
    }
    WholeGpuFill filled = fill_whole_gpus(ctx_, tenant, free);
    for (size_t i = 0; i < c.buckets.size(); ++i) {
      auto& pending = buckets_[static_cast<size_t>(c.buckets[i])].pending;
      remaining_ -= static_cast<long>(pending.size()) - static_cast<long>(filled.pending[i].size());
      pending = std::move(filled.pending[i]);
    }
    for (size_t i = 0; i < filled.bins.size(); ++i) {
      used_[static_cast<size_t>(filled.gpus[i])] = true;
      builds_.push_back(GpuBuild{filled.gpus[i], false, {std::move(filled.bins[i])}});
    }
  }

  // Phase 2: what is left goes GPU by GPU onto the configuration that holds the most.

  // First fit decreasing of a candidate's buckets into one slice, `left[b]` replicas of bucket b being
  // available; `taken` gets how many replicas of each bucket went in. Returns the dominant share placed
  // (of the whole GPU).
  double fill(SliceState& slice, const Candidate& c, const std::vector<int>& left, int gpu,
              std::vector<std::pair<int, int>>& taken) const {
    double placed = 0;
    // Buckets the slice has no room for are skipped: check would refuse them, as it would refuse every
    // bucket once the slice is closed.
    for (size_t i = c.room.next(0, slice); i < c.buckets.size() && !slice.closed(); i = c.room.next(i + 1, slice)) {
      const int b = c.buckets[i];
      int n = left[static_cast<size_t>(b)];
      int k = 0;
      const WorkloadDemand& d = demand(b);
      while (n > 0 && slice.has_room(d.memory_bytes, d.compute) && slice.check(d) == Fit::ok) {
        slice.add(d, buckets_[static_cast<size_t>(b)].pending[static_cast<size_t>(n - 1)]);
        --n;
        ++k;
        if (c.own_slice) break;
      }
      if (k > 0) {
        placed += k * ctx_.dominant_share(d, gpu);
        taken.push_back({b, k});
      }
      if (c.own_slice && k > 0) break;
    }
    return placed;
  }

  void commit(const std::vector<std::pair<int, int>>& taken) {
    for (auto [b, k] : taken) {
      auto& pending = buckets_[static_cast<size_t>(b)].pending;
      pending.resize(pending.size() - static_cast<size_t>(k));
      remaining_ -= k;
      const auto [candidate, position] = phase2_position_[static_cast<size_t>(b)];
      if (pending.empty() && candidate >= 0) phase2_[static_cast<size_t>(candidate)].room.remove(position);
    }
  }

  // The tenants and isolated buckets with replicas left, each listing only its buckets that have some.
  std::vector<Candidate> phase2_candidates() const {
    std::vector<Candidate> out;
    for (const Candidate& c : tenant_candidates_) {
      Candidate live;
      for (int b : c.buckets) {
        if (buckets_[static_cast<size_t>(b)].left() > 0) live.buckets.push_back(b);
      }
      if (!live.buckets.empty()) out.push_back(std::move(live));
    }
    for (int b : own_) {
      if (buckets_[static_cast<size_t>(b)].left() > 0) out.push_back(Candidate{{b}, true, {}});
    }
    for (Candidate& c : out) {
      std::vector<RoomIndex::Item> items;
      for (int b : c.buckets) items.push_back({demand(b).memory_bytes, demand(b).compute});
      c.room = RoomIndex(items);
    }
    return out;
  }

  struct Trial {
    double score = 0;
    GpuBuild build;
    std::vector<std::pair<int, int>> taken;
  };

  Trial try_whole(int gpu, const std::vector<Candidate>& candidates, const std::vector<int>& left) const {
    Trial best;
    for (const Candidate& c : candidates) {
      SliceState slice(ctx_.whole(gpu), &ctx_.policy(), &ctx_.calibration());
      std::vector<std::pair<int, int>> taken;
      const double score = fill(slice, c, left, gpu, taken);
      if (score > best.score) best = Trial{score, GpuBuild{gpu, false, {std::move(slice)}}, std::move(taken)};
    }
    return best;
  }

  // One candidate filled into one empty instance of a profile.
  struct InstanceFill {
    double score = 0;
    std::optional<SliceState> slice;
    std::vector<std::pair<int, int>> taken;
  };

  InstanceFill fill_instance(int gpu, int profile, const Candidate& c, const std::vector<int>& left) const {
    InstanceFill f;
    SliceState slice(ctx_.instance(gpu, profile), &ctx_.policy(), &ctx_.calibration());
    f.score = fill(slice, c, left, gpu, f.taken);
    if (f.score > 0) f.slice = std::move(slice);
    return f;
  }

  // Fills of every (profile, candidate) pair from the GPU's starting state, computed on first use and
  // shared by all layouts: candidates hold disjoint replicas, so a fill stays valid in a layout until that
  // candidate has filled an earlier instance of it.
  class FillTable {
   public:
    FillTable(const GreedyPacker& packer, int gpu, const std::vector<Candidate>& candidates,
              const std::vector<int>& start)
        : packer_(packer), gpu_(gpu), candidates_(candidates), start_(start) {}

    const InstanceFill& at(int profile, size_t candidate) {
      auto& row = table_[profile];
      if (row.empty()) row.resize(candidates_.size());
      auto& cell = row[candidate];
      if (!cell) cell = packer_.fill_instance(gpu_, profile, candidates_[candidate], start_);
      return *cell;
    }
    const std::vector<int>& start() const { return start_; }

   private:
    const GreedyPacker& packer_;
    int gpu_;
    const std::vector<Candidate>& candidates_;
    const std::vector<int>& start_;
    std::map<int, std::vector<std::optional<InstanceFill>>> table_;
  };

  // A MIG layout's instances filled up to some point, each instance in turn taking the candidate that fills
  // it most: this instance's fill on top of the fills before it (`parent`), so that layouts beginning alike
  // share them without copies.
  struct LayoutFill {
    const LayoutFill* parent = nullptr;
    double score = 0;                  // of this instance and those before it
    std::optional<SliceState> slice;   // none: no candidate fits this instance
    std::vector<std::pair<int, int>> taken;
    std::vector<int> left;             // per bucket, after this instance
    std::vector<bool> touched;         // per candidate: it filled an instance already
  };

  LayoutFill fill_next_instance(int gpu, int profile, const std::vector<Candidate>& candidates, FillTable& table,
                                const LayoutFill& before) const {
    const InstanceFill* best = nullptr;
    InstanceFill fresh_best;
    size_t best_candidate = 0;
    for (size_t ci = 0; ci < candidates.size(); ++ci) {
      const double best_score = best ? best->score : 0;
      if (!before.touched[ci]) {
        const InstanceFill& cached = table.at(profile, ci);
        if (cached.score > best_score) {
          best = &cached;
          best_candidate = ci;
        }
        continue;
      }
      InstanceFill fresh = fill_instance(gpu, profile, candidates[ci], before.left);
      if (fresh.score > best_score) {
        fresh_best = std::move(fresh);
        best = &fresh_best;
        best_candidate = ci;
      }
    }
    LayoutFill f{&before, before.score, std::nullopt, {}, before.left, before.touched};
    if (!best || !best->slice) return f;
    f.touched[best_candidate] = true;
    for (auto [b, k] : best->taken) f.left[static_cast<size_t>(b)] -= k;
    f.score += best->score;
    f.slice = *best->slice;
    f.taken = best->taken;
    return f;
  }

  // Layouts filled from the GPU's starting state, by the profiles of their first instances: layouts that
  // begin alike (77 distinct beginnings among the 116 instances of an H100's 28 maximal layouts) share
  // those fills, which depend on nothing else.
  using LayoutFills = std::map<std::vector<int>, LayoutFill>;

  const LayoutFill& try_layout(int gpu, const MigLayout& layout, const std::vector<Candidate>& candidates,
                               FillTable& table, const LayoutFill& empty, LayoutFills& fills) const {
    const LayoutFill* at = &empty;
    std::vector<int> profiles;
    for (const MigPlacedInstance& inst : layout.instances) {
      profiles.push_back(inst.profile);
      auto it = fills.find(profiles);
      if (it == fills.end()) it = fills.emplace(profiles, fill_next_instance(gpu, inst.profile, candidates, table, *at)).first;
      at = &it->second;
    }
    return *at;
  }

  static Trial layout_trial(int gpu, const LayoutFill& last) {
    Trial t{last.score, GpuBuild{gpu, true, {}}, {}};
    std::vector<const LayoutFill*> chain;
    for (const LayoutFill* f = &last; f; f = f->parent) chain.push_back(f);
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
      if (!(*it)->slice) continue;
      t.build.slices.push_back(*(*it)->slice);
      t.taken.insert(t.taken.end(), (*it)->taken.begin(), (*it)->taken.end());
    }
    return t;
  }

  // The candidates of phase 2, listed once: a candidate whose buckets ran out stays listed and fills
  // nothing (the plan is the same); a bucket that runs out leaves its candidate's RoomIndex (commit).
  const std::vector<Candidate>& phase2() {
    if (!phase2_listed_) {
      phase2_ = phase2_candidates();
      phase2_listed_ = true;
      phase2_position_.assign(buckets_.size(), {-1, 0});
      for (size_t ci = 0; ci < phase2_.size(); ++ci) {
        for (size_t i = 0; i < phase2_[ci].buckets.size(); ++i) {
          phase2_position_[static_cast<size_t>(phase2_[ci].buckets[i])] = {static_cast<int>(ci), i};
        }
      }
    }
    return phase2_;
  }

  // The configuration of GPU `gpu` that places the most: a whole GPU for one candidate, or a MIG layout
  // (of the maximal ones) whose instances each take one candidate's replicas.
  void fill_best(int gpu) {
    const std::vector<Candidate>& candidates = phase2();
    const std::vector<int> start = lefts();
    Trial best;
    if (ctx_.policy().whole_gpu) best = try_whole(gpu, candidates, start);
    FillTable table(*this, gpu, candidates, start);
    const LayoutFill empty{nullptr, 0, std::nullopt, {}, start, std::vector<bool>(candidates.size(), false)};
    LayoutFills fills;
    const LayoutFill* best_layout = nullptr;
    for (const MigLayout& layout : ctx_.layouts(gpu)) {
      const LayoutFill& t = try_layout(gpu, layout, candidates, table, empty, fills);
      // MIG must place strictly more than a whole GPU: one slice is simpler to run and to change.
      if (t.score > (best_layout ? best_layout->score : best.score) + 1e-9) best_layout = &t;
    }
    if (best_layout) best = layout_trial(gpu, *best_layout);
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
  std::vector<Candidate> phase2_;
  bool phase2_listed_ = false;
  std::vector<std::pair<int, size_t>> phase2_position_;  // per bucket: (candidate, position) in phase2_
  long remaining_ = 0;  // replicas not placed yet
};

}  // namespace

PackResult greedy_pack(const PlanContext& ctx) { return GreedyPacker(ctx).run(); }

}  // namespace gpupack
