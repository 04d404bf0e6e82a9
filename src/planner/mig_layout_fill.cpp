#include "planner/mig_layout_fill.hpp"

#include <algorithm>
#include <cstddef>
#include <map>
#include <utility>

namespace gpupack::packer {

namespace {

// A MIG layout's instances filled up to some point, each instance in turn taking the candidate that fills
// it most: this instance's fill on top of the fills before it (`parent`), so that layouts beginning alike
// share them without copies.
struct LayoutFill {
  const LayoutFill* parent = nullptr;
  double score = 0;                 // of this instance and those before it
  std::optional<SliceState> slice;  // none: no candidate fits this instance
  Taken taken;
  std::size_t candidate = 0;  // the candidate that filled it, when it has a slice
};

// The layouts of one GPU filled from one starting state. Fills are kept by the profiles of a layout's first
// instances: layouts that begin alike (77 distinct beginnings among the 116 instances of an H100's 28
// maximal layouts) share those fills, which depend on nothing else. A candidate that filled no instance
// yet fills one as from the starting state: the ranking's (fill_ranking.hpp), which the packer keeps up to
// date across GPUs; so a step costs a lookup and the fills of the few candidates on its chain, never a
// scan of all candidates (nor a copy of per-candidate state: one tenant a candidate makes them many).
class LayoutSearch {
 public:
  LayoutSearch(const SliceFiller& filler, FillRanking& ranking, int gpu, const std::vector<Candidate>& candidates,
               const std::vector<int>& start)
      : filler_(filler), ranking_(ranking), gpu_(gpu), candidates_(candidates), start_(start), left_(start) {}
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
  // The next instance, of `profile`, after `before`: the candidate that fills it most, ties to the first
  // listed. One that filled an instance before on this chain is filled afresh from what it has left.
  LayoutFill fill_next_instance(int profile, const LayoutFill& before) {
    std::vector<std::size_t> touched;
    Taken taken_before;
    for (const LayoutFill* f = &before; f; f = f->parent) {
      if (!f->slice) continue;
      touched.push_back(f->candidate);
      taken_before.insert(taken_before.end(), f->taken.begin(), f->taken.end());
    }
    const auto top = ranking_.best(gpu_, profile, touched, start_);
    const InstanceFill* best = top ? top->fill : nullptr;
    std::size_t best_candidate = top ? top->candidate : 0;
    InstanceFill fresh_best;
    if (!touched.empty()) {
      for (auto [b, k] : taken_before) left_[static_cast<std::size_t>(b)] -= k;
      std::sort(touched.begin(), touched.end());
      touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
      for (std::size_t ci : touched) {
        InstanceFill fresh = filler_.fill_instance(gpu_, profile, candidates_[ci], left_);
        const bool better = best ? fresh.score > best->score || (fresh.score == best->score && ci < best_candidate)
                                 : fresh.score > 0;
        if (better) {
          fresh_best = std::move(fresh);
          best = &fresh_best;
          best_candidate = ci;
        }
      }
      for (auto [b, k] : taken_before) left_[static_cast<std::size_t>(b)] += k;  // back to the start
    }
    LayoutFill f{&before, before.score, std::nullopt, {}, 0};
    if (!best || !best->slice) return f;
    f.candidate = best_candidate;
    f.score += best->score;
    f.slice = *best->slice;
    f.taken = best->taken;
    return f;
  }

  const SliceFiller& filler_;
  FillRanking& ranking_;
  int gpu_;
  const std::vector<Candidate>& candidates_;
  const std::vector<int>& start_;
  std::vector<int> left_;   // the start, with a chain's takes applied only while a step fills afresh
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

std::optional<Trial> best_mig_layout(const SliceFiller& filler, FillRanking& ranking, int gpu,
                                     const std::vector<Candidate>& candidates, const std::vector<int>& start,
                                     double to_beat) {
  LayoutSearch search(filler, ranking, gpu, candidates, start);
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
