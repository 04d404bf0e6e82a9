#pragma once
// Phase 2 of the greedy packer, MIG side: every maximal MIG layout of one GPU (PlanContext::layouts)
// filled from the same starting state, each instance in turn taking the candidate that fills it most, and
// the layout that places the most kept. Layouts are many (28 maximal ones on an H100) and mostly begin
// alike, so fills are shared between them rather than recomputed (mig_layout_fill.cpp).
#include <optional>
#include <vector>

#include "planner/fill_ranking.hpp"
#include "planner/packer_parts.hpp"
#include "planner/slice_fill.hpp"

namespace gpupack::packer {

// The best MIG layout of GPU `gpu` for `candidates`, `start[b]` replicas of bucket b being left, when it
// places strictly more than `to_beat` (what a whole GPU would place: one slice is simpler to run and to
// change, so MIG must do better); none otherwise. Ties between layouts go to the first in
// PlanContext::layouts order. `ranking` holds every candidate's fill from `start` (fill_ranking.hpp).
std::optional<Trial> best_mig_layout(const SliceFiller& filler, FillRanking& ranking, int gpu,
                                     const std::vector<Candidate>& candidates, const std::vector<int>& start,
                                     double to_beat);

}  // namespace gpupack::packer
