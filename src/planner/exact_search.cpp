#include "planner/exact_search.hpp"

#include <algorithm>
#include <map>

namespace gpupack {

namespace {

class ExactSearch {
 public:
  ExactSearch(const PlanContext& ctx, int below, long budget) : ctx_(ctx), best_(below), budget_(budget) {
    const Demands& d = ctx.demands();
    for (const auto& w : d.workloads) {
      for (int i = 0; i < w.replicas; ++i) replicas_.push_back({w.workload, i});
    }
    std::stable_sort(replicas_.begin(), replicas_.end(), [&](const ReplicaRef& a, const ReplicaRef& b) {
      return ctx.dominant_share(demand(a), 0) > ctx.dominant_share(demand(b), 0);
    });
    used_.assign(ctx.gpus().size(), false);
  }

  ExactResult run() {
    std::vector<GpuBuild> open;
    dfs(0, open);
    ExactResult r;
    r.builds = std::move(found_);
    r.complete = nodes_ <= budget_;
    return r;
  }

 private:
  const WorkloadDemand& demand(const ReplicaRef& r) const {
    return ctx_.demands().workloads[static_cast<size_t>(r.workload)];
  }

  bool valid_layout(const MigGeometry& g, const MigCounts& counts) {
    const auto it = layout_valid_.find(counts);
    if (it != layout_valid_.end()) return it->second;
    const bool ok = validate_layout(g, counts).valid;
    layout_valid_.emplace(counts, ok);
    return ok;
  }

  void dfs(size_t i, std::vector<GpuBuild>& open) {
    if (++nodes_ > budget_) return;
    if (static_cast<int>(open.size()) >= best_) return;
    if (i == replicas_.size()) {
      best_ = static_cast<int>(open.size());
      found_ = open;
      return;
    }
    const ReplicaRef r = replicas_[i];
    const WorkloadDemand& d = demand(r);
    // Into an existing slice.
    for (size_t g = 0; g < open.size(); ++g) {
      for (size_t s = 0; s < open[g].slices.size(); ++s) {
        if (open[g].slices[s].check(d) != Fit::ok) continue;
        const GpuBuild saved = open[g];
        open[g].slices[s].add(d, r.replica);
        dfs(i + 1, open);
        open[g] = saved;
      }
      // Into a new MIG instance of a MIG GPU.
      if (open[g].mig) try_new_instances(i, open, g, d, r);
    }
    // Onto a new GPU: the first unused GPU of each fleet entry (GPUs of one entry are interchangeable).
    if (static_cast<int>(open.size()) + 1 >= best_) return;
    std::vector<bool> entry_tried(ctx_.scenario().fleet.size(), false);
    for (size_t gi = 0; gi < ctx_.gpus().size(); ++gi) {
      const int entry = ctx_.gpus()[gi].entry;
      if (used_[gi] || entry_tried[static_cast<size_t>(entry)]) continue;
      entry_tried[static_cast<size_t>(entry)] = true;
      const int gpu = static_cast<int>(gi);
      used_[gi] = true;
      if (ctx_.whole_allowed(gpu)) {
        SliceState slice(ctx_.whole(gpu), &ctx_.policy(), &ctx_.parameters());
        if (slice.check(d) == Fit::ok) {
          slice.add(d, r.replica);
          open.push_back(GpuBuild{gpu, false, {std::move(slice)}});
          dfs(i + 1, open);
          open.pop_back();
        }
      }
      if (ctx_.mig_allowed(gpu)) {
        open.push_back(GpuBuild{gpu, true, {}});
        try_new_instances(i, open, open.size() - 1, d, r);
        open.pop_back();
      }
      used_[gi] = false;
    }
  }

  void try_new_instances(size_t i, std::vector<GpuBuild>& open, size_t g, const WorkloadDemand& d,
                         const ReplicaRef& r) {
    const GpuModel& model = ctx_.model(open[g].gpu);
    MigCounts counts = build_counts(ctx_, open[g]);
    for (size_t p = 0; p < model.mig->profiles.size(); ++p) {
      if (model.mig->profiles[p].is_variant()) continue;
      counts[p] += 1;
      const bool ok = valid_layout(*model.mig, counts);
      counts[p] -= 1;
      if (!ok) continue;
      SliceState slice(ctx_.instance(open[g].gpu, static_cast<int>(p)), &ctx_.policy(), &ctx_.parameters());
      if (slice.check(d) != Fit::ok) continue;
      slice.add(d, r.replica);
      open[g].slices.push_back(std::move(slice));
      dfs(i + 1, open);
      open[g].slices.pop_back();
    }
  }

  const PlanContext& ctx_;
  int best_;
  long budget_;
  long nodes_ = 0;
  std::vector<ReplicaRef> replicas_;
  std::vector<bool> used_;
  std::map<MigCounts, bool> layout_valid_;
  std::optional<std::vector<GpuBuild>> found_;
};

}  // namespace

ExactResult exact_pack(const PlanContext& ctx, int below, long node_budget) {
  return ExactSearch(ctx, below, node_budget).run();
}

}  // namespace gpupack
