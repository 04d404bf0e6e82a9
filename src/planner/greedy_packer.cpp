#include "planner/greedy_packer.hpp"

#include <algorithm>
#include <optional>
#include <utility>

#include "planner/fill_ranking.hpp"
#include "planner/mig_layout_fill.hpp"
#include "planner/node_cores.hpp"
#include "planner/packer_parts.hpp"
#include "planner/room_index.hpp"
#include "planner/slice_fill.hpp"
#include "planner/whole_gpu_fill.hpp"

namespace gpupack {

namespace {

using packer::Bucket;
using packer::Candidate;
using packer::Taken;
using packer::Trial;

// The two phases (greedy_packer.hpp) and the bookkeeping between them: which replicas of each workload are
// left, which GPUs are used. Filling one slice is SliceFiller's (slice_fill.hpp), searching the MIG layouts
// of a GPU best_mig_layout's (mig_layout_fill.hpp).
class GreedyPacker {
 public:
  explicit GreedyPacker(const PlanContext& ctx)
      : ctx_(ctx), filler_(ctx, buckets_), used_(ctx.gpus().size(), false) {
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
    r.node_bound = std::move(node_bound_);
    return r;
  }

 private:
  const WorkloadDemand& demand(int bucket) const { return filler_.demand(bucket); }

  std::vector<int> lefts() const {
    std::vector<int> out;
    out.reserve(buckets_.size());
    for (const Bucket& b : buckets_) out.push_back(b.left());
    return out;
  }

  // The first `limit` GPUs not used yet, in order. Bounded: with a tenant per workload, listing every free
  // GPU for each tenant was quadratic (issue 38).
  std::vector<int> free_gpus(size_t limit, bool whole_only = false) {
    while (first_free_ < used_.size() && used_[first_free_]) ++first_free_;
    std::vector<int> out;
    for (size_t g = first_free_; g < used_.size() && out.size() < limit; ++g) {
      if (!used_[g] && (!whole_only || ctx_.whole_allowed(static_cast<int>(g)))) out.push_back(static_cast<int>(g));
    }
    return out;
  }

  // Phase 1 (whole_gpu_fill.hpp): a tenant's replicas on whole GPUs of its own.
  void fill_whole(const Candidate& c) {
    // A tenant opens at most one GPU a replica (each gets one at least; the next one left empty ends it).
    // GPUs whose MIG layout is fixed are never one whole slice.
    size_t replicas = 0;
    for (int b : c.buckets) replicas += static_cast<size_t>(buckets_[static_cast<size_t>(b)].left());
    const std::vector<int> free = free_gpus(replicas, /*whole_only=*/true);
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

  // Applies the chosen configuration's fills: only now do its replicas leave their buckets, and the
  // candidates they belong to get their fills computed again (the others' stay valid).
  void commit(const Taken& taken) {
    std::vector<size_t> changed;
    for (auto [b, k] : taken) {
      auto& pending = buckets_[static_cast<size_t>(b)].pending;
      pending.resize(pending.size() - static_cast<size_t>(k));
      left_[static_cast<size_t>(b)] -= k;
      remaining_ -= k;
      const auto [candidate, position] = phase2_position_[static_cast<size_t>(b)];
      if (candidate < 0) continue;
      if (pending.empty()) phase2_[static_cast<size_t>(candidate)].room.remove(position);
      changed.push_back(static_cast<size_t>(candidate));
    }
    std::sort(changed.begin(), changed.end());
    changed.erase(std::unique(changed.begin(), changed.end()), changed.end());
    for (size_t c : changed) ranking_->refresh(c, left_);
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

  // GPU `gpu` whole for the one candidate that fills it most (ties to the first listed).
  Trial try_whole(int gpu, const std::vector<int>& left) {
    const auto top = ranking_->best(gpu, packer::kWholeGpu, {}, left);
    if (!top) return Trial{};
    return Trial{top->fill->score, GpuBuild{gpu, false, {*top->fill->slice}}, top->fill->taken};
  }

  // The candidates of phase 2, listed once: a candidate whose buckets ran out stays listed and fills
  // nothing (the plan is the same); a bucket that runs out leaves its candidate's RoomIndex (commit).
  const std::vector<Candidate>& phase2() {
    if (!phase2_listed_) {
      phase2_ = phase2_candidates();
      phase2_listed_ = true;
      left_ = lefts();
      ranking_.emplace(filler_, phase2_);
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
    Trial best;
    std::vector<CoreBoundReplica> over;  // the best trial's replicas its node's cores turned away
    if (ctx_.whole_allowed(gpu)) best = within_node_cores(try_whole(gpu, left_), over);
    // MIG must place strictly more than a whole GPU: one slice is simpler to run and to change. Both are
    // compared within the node's cores.
    if (auto layout = packer::best_mig_layout(filler_, *ranking_, gpu, candidates, left_, best.score)) {
      std::vector<CoreBoundReplica> mig_over;
      Trial mig = within_node_cores(std::move(*layout), mig_over);
      if (mig.score > best.score + 1e-9) {
        best = std::move(mig);
        over = std::move(mig_over);
      }
    }
    if (best.score <= 0) return;
    for (const CoreBoundReplica& r : over) {
      keep_pending(best.taken, r.replica);
      node_bound_.insert_or_assign(r.replica.workload, r);
    }
    commit(best.taken);
    used_[static_cast<size_t>(gpu)] = true;
    builds_.push_back(std::move(best.build));
  }

  // A trial with its GPU's slices and the node's GPUs filled before within the node's cores (node_cores.hpp):
  // replicas over them stay in their buckets for the next GPUs; its score counts only what stays.
  Trial within_node_cores(Trial t, std::vector<CoreBoundReplica>& over_cores) {
    if (t.score <= 0 || !ctx_.entry(t.build.gpu).cpu_cores) return t;
    std::vector<GpuBuild> node = builds_;
    node.push_back(std::move(t.build));
    const auto over = fit_node_cores(ctx_, node, node.size() - 1);
    t.build = std::move(node.back());
    for (const CoreBoundReplica& r : over) {
      t.score -= ctx_.dominant_share(ctx_.demands().workloads[static_cast<size_t>(r.replica.workload)], t.build.gpu);
      over_cores.push_back(r);
    }
    return t;
  }

  // A replica a fill took that is not placed after all: commit takes the bucket's taken replicas from the
  // back of its pending list, so it moves just before them and one of the bucket's counts drops by one.
  void keep_pending(Taken& taken, const ReplicaRef& r) {
    auto& pending = buckets_[static_cast<size_t>(r.workload)].pending;
    size_t total = 0;
    for (const auto& [b, k] : taken) total += b == r.workload ? static_cast<size_t>(k) : 0;
    const size_t first = pending.size() - total;
    const auto it = std::find(pending.begin() + static_cast<long>(first), pending.end(), r.replica);
    if (it == pending.end()) return;
    std::iter_swap(it, pending.begin() + static_cast<long>(first));
    for (auto& [b, k] : taken) {
      if (b == r.workload && k > 0) {
        --k;
        return;
      }
    }
  }

  const PlanContext& ctx_;
  std::vector<Bucket> buckets_;
  packer::SliceFiller filler_;  // reads buckets_ (declared before it)
  std::vector<Candidate> tenant_candidates_;
  std::vector<int> own_;
  std::vector<bool> used_;
  std::vector<GpuBuild> builds_;
  std::vector<Candidate> phase2_;
  bool phase2_listed_ = false;
  std::vector<std::pair<int, size_t>> phase2_position_;  // per bucket: (candidate, position) in phase2_
  std::vector<int> left_;                                // per bucket, in phase 2: replicas left
  std::optional<packer::FillRanking> ranking_;           // phase 2's fills, over phase2_
  long remaining_ = 0;  // replicas not placed yet
  std::map<int, CoreBoundReplica> node_bound_;  // PackResult::node_bound
  size_t first_free_ = 0;  // no GPU before it is free
};

}  // namespace

PackResult greedy_pack(const PlanContext& ctx) { return GreedyPacker(ctx).run(); }

}  // namespace gpupack
