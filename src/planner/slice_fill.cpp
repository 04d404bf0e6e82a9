#include "planner/slice_fill.hpp"

#include <utility>

namespace gpupack::packer {

double SliceFiller::fill(SliceState& slice, const Candidate& c, const std::vector<int>& left, int gpu,
                         Taken& taken) const {
  double placed = 0;
  // Buckets the slice has no room for are skipped: check would refuse them, as it would refuse every
  // bucket once the slice is closed.
  for (size_t i = c.room.next(0, slice); i < c.buckets.size() && !slice.closed();
       i = c.room.next(i + 1, slice)) {
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
    // A replica that needs a slice of its own closes it: one is all this candidate may put in.
    if (c.own_slice && k > 0) break;
  }
  return placed;
}

InstanceFill SliceFiller::fill_instance(int gpu, int profile, const Candidate& c,
                                        const std::vector<int>& left) const {
  return fill_empty(SliceState(ctx_.instance(gpu, profile), &ctx_.policy(), &ctx_.parameters()), c, left, gpu);
}

InstanceFill SliceFiller::fill_whole(int gpu, const Candidate& c, const std::vector<int>& left) const {
  return fill_empty(SliceState(ctx_.whole(gpu), &ctx_.policy(), &ctx_.parameters()), c, left, gpu);
}

InstanceFill SliceFiller::fill_empty(SliceState slice, const Candidate& c, const std::vector<int>& left, int gpu) const {
  InstanceFill f;
  f.score = fill(slice, c, left, gpu, f.taken);
  // A slice that takes nothing is not kept: a layout leaves unused instances out.
  if (f.score > 0) f.slice = std::move(slice);
  return f;
}

}  // namespace gpupack::packer
