#pragma once
// Phase 2 of the greedy packer, one slice at a time: a candidate's replicas (a tenant's remainder, or one
// isolated replica) put into one empty slice, a whole GPU or a MIG instance. The fill only reports what it
// would take: the caller tries several and commits the best (greedy_packer.cpp).
#include <optional>
#include <vector>

#include "planner/packer_parts.hpp"
#include "planner/plan_context.hpp"

namespace gpupack::packer {

// One candidate filled into one empty instance of a profile.
struct InstanceFill {
  double score = 0;
  std::optional<SliceState> slice;  // none: nothing of the candidate fits
  Taken taken;
};

class SliceFiller {
 public:
  // `buckets` is the packer's own list, read as it stands at each call (its replicas are not copied).
  SliceFiller(const PlanContext& ctx, const std::vector<Bucket>& buckets) : ctx_(ctx), buckets_(buckets) {}

  const PlanContext& ctx() const { return ctx_; }
  const WorkloadDemand& demand(int bucket) const {
    return ctx_.demands().workloads[static_cast<size_t>(buckets_[static_cast<size_t>(bucket)].demand)];
  }

  // First fit decreasing of a candidate's buckets into one slice, `left[b]` replicas of bucket b being
  // available; `taken` gets how many replicas of each bucket went in. Returns the dominant share placed
  // (of the whole GPU).
  double fill(SliceState& slice, const Candidate& c, const std::vector<int>& left, int gpu,
              Taken& taken) const;

  // `fill` into an empty instance of `profile` on GPU `gpu`.
  InstanceFill fill_instance(int gpu, int profile, const Candidate& c, const std::vector<int>& left) const;
  // `fill` into GPU `gpu` whole (one slice, no MIG).
  InstanceFill fill_whole(int gpu, const Candidate& c, const std::vector<int>& left) const;

 private:
  InstanceFill fill_empty(SliceState slice, const Candidate& c, const std::vector<int>& left, int gpu) const;

  const PlanContext& ctx_;
  const std::vector<Bucket>& buckets_;
};

}  // namespace gpupack::packer
