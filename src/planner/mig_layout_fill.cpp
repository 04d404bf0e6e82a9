#include "planner/mig_layout_fill.hpp"

#include <map>
#include <utility>

namespace gpupack::packer {

namespace {

// Fills of every (profile, candidate) pair from the GPU's starting state, computed on first use and
// shared by all layouts: candidates hold disjoint replicas, so a fill stays valid in a layout until that
// candidate has filled an earlier instance of it.
class FillTable {
 public:
  FillTable(const SliceFiller& filler, int gpu, const std::vector<Candidate>& candidates,
            const std::vector<int>& start)
      : filler_(filler), gpu_(gpu), candidates_(candidates), start_(start) {}

  const InstanceFill& at(int profile, size_t candidate) {
    auto& row = table_[profile];
    if (row.empty()) row.resize(candidates_.size());
    auto& cell = row[candidate];
    if (!cell) cell = filler_.fill_instance(gpu_, profile, candidates_[candidate], start_);
    return *cell;
  }

 private:
  const SliceFiller& filler_;
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
  double score = 0;                 // of this instance and those before it
  std::optional<SliceState> slice;  // none: no candidate fits this instance
  Taken taken;
  std::vector<int> left;      // per bucket, after this instance
  std::vector<bool> touched;  // per candidate: it filled an instance already
};

// The layouts of one GPU filled from one starting state. Fills are kept by the profiles of a layout's first
// instances: layouts that begin alike (77 distinct beginnings among the 116 instances of an H100's 28
// maximal layouts) share those fills, which depend on nothing else.
class LayoutSearch {
 public:
  LayoutSearch(const SliceFiller& filler, int gpu, const std::vector<Candidate>& candidates,
               const std::vector<int>& start)
      : filler_(filler),
        gpu_(gpu),
        candidates_(candidates),
        table_(filler, gpu, candidates, start),
        empty_{nullptr, 0, std::nullopt, {}, start, std::vector<bool>(candidates.size(), false)} {}
  // Fills hold pointers to each other and to empty_.
  LayoutSearch(const LayoutSearch&) = delete;
  LayoutSearch& operator=(const LayoutSearch&) = delete;

  // `layout` filled instance by instance; the result lives as long as the search.
  const LayoutFill& fill(const MigLayout& layout) {
    const LayoutFill* at = &empty_;
    std::vector<int> profiles;
    for (const MigPlacedInstance& inst : layout.instances) {
      profiles.push_back(inst.profile);
      auto it = fills_.find(profiles);
      if (it == fills_.end()) it = fills_.emplace(profiles, fill_next_instance(inst.profile, *at)).first;
      at = &it->second;
    }
    return *at;
  }

 private:
  // The next instance, of `profile`, after `before`: a candidate that filled no instance yet fills it as
  // from the starting state (the shared table); one that did is filled afresh from what it has left.
  LayoutFill fill_next_instance(int profile, const LayoutFill& before) {
    const InstanceFill* best = nullptr;
    InstanceFill fresh_best;
    size_t best_candidate = 0;
    for (size_t ci = 0; ci < candidates_.size(); ++ci) {
      const double best_score = best ? best->score : 0;
      if (!before.touched[ci]) {
        const InstanceFill& cached = table_.at(profile, ci);
        if (cached.score > best_score) {
          best = &cached;
          best_candidate = ci;
        }
        continue;
      }
      InstanceFill fresh = filler_.fill_instance(gpu_, profile, candidates_[ci], before.left);
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

  const SliceFiller& filler_;
  int gpu_;
  const std::vector<Candidate>& candidates_;
  FillTable table_;
  const LayoutFill empty_;  // before the first instance: the starting state
  std::map<std::vector<int>, LayoutFill> fills_;
};

// The chain of fills ending at `last` as one MIG GPU, instances in layout order (empty ones left out).
Trial layout_trial(int gpu, const LayoutFill& last) {
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

}  // namespace

std::optional<Trial> best_mig_layout(const SliceFiller& filler, int gpu,
                                     const std::vector<Candidate>& candidates, const std::vector<int>& start,
                                     double to_beat) {
  LayoutSearch search(filler, gpu, candidates, start);
  const LayoutFill* best = nullptr;
  for (const MigLayout& layout : filler.ctx().layouts(gpu)) {
    const LayoutFill& t = search.fill(layout);
    // Strictly more, by more than rounding: ties keep the whole GPU, or the earlier layout.
    if (t.score > (best ? best->score : to_beat) + 1e-9) best = &t;
  }
  if (!best) return std::nullopt;
  return layout_trial(gpu, *best);
}

}  // namespace gpupack::packer
