#pragma once
// The next workload a slice has room for, found without testing every one: phase 2 fills each MIG
// instance by first fit over a tenant's workloads (largest first), and with hundreds of distinct
// workloads most of the scan used to go to replicas that could not fit any more. A segment tree over the
// list keeps, per range, the smallest memory and compute of one replica; ranges the slice has no room for
// are skipped whole.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "planner/slice_state.hpp"

namespace gpupack {

class RoomIndex {
 public:
  struct Item {
    std::uint64_t memory = 0;  // one replica, without the context
    double compute = 0;        // one replica, fraction of the reference GPU
  };

  RoomIndex() = default;
  explicit RoomIndex(const std::vector<Item>& items);

  // The first position >= `from` whose replica `slice` has room for (SliceState::has_room); size() when
  // there is none.
  size_t next(size_t from, const SliceState& slice) const;
  // Position `i` is never returned again (its workload has no replica left).
  void remove(size_t i);
  size_t size() const { return size_; }

 private:
  void pull_up(size_t node);
  size_t find(size_t node, size_t lo, size_t hi, size_t from, const SliceState& slice) const;

  size_t size_ = 0;
  size_t leaves_ = 0;        // a power of two
  std::vector<Item> least_;  // per node: the smallest memory and compute in its range (1-based heap order)
};

}  // namespace gpupack
