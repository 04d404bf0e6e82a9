#include "planner/room_index.hpp"

#include <algorithm>
#include <limits>

namespace gpupack {

namespace {
// What no slice has room for: padding leaves and removed positions.
constexpr RoomIndex::Item kNone{std::numeric_limits<std::uint64_t>::max() / 2, std::numeric_limits<double>::infinity()};
}  // namespace

RoomIndex::RoomIndex(const std::vector<Item>& items) : size_(items.size()), leaves_(1) {
  while (leaves_ < size_) leaves_ *= 2;
  least_.assign(2 * leaves_, kNone);
  for (size_t i = 0; i < size_; ++i) least_[leaves_ + i] = items[i];
  for (size_t n = leaves_; n-- > 1;) pull_up(n);
}

void RoomIndex::pull_up(size_t n) {
  least_[n] = {std::min(least_[2 * n].memory, least_[2 * n + 1].memory),
               std::min(least_[2 * n].compute, least_[2 * n + 1].compute)};
}

void RoomIndex::remove(size_t i) {
  size_t n = leaves_ + i;
  least_[n] = kNone;
  while (n /= 2) pull_up(n);
}

size_t RoomIndex::next(size_t from, const SliceState& slice) const {
  if (from >= size_) return size_;
  return std::min(size_, find(1, 0, leaves_, from, slice));
}

size_t RoomIndex::find(size_t node, size_t lo, size_t hi, size_t from, const SliceState& slice) const {
  if (hi <= from || !slice.has_room(least_[node].memory, least_[node].compute)) return size_;
  if (hi - lo == 1) return lo;
  const size_t mid = (lo + hi) / 2;
  const size_t left = find(2 * node, lo, mid, from, slice);
  return left < size_ ? left : find(2 * node + 1, mid, hi, from, slice);
}

}  // namespace gpupack
