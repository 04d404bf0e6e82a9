#pragma once
// The MIG layout engine: does a multiset of GPU-instance profiles fit on one GPU, where does each
// instance go, and in which order to create them.
//
// The rule (mig.md): a layout is valid iff every instance sits at one of its profile's allowed placement
// starts, the occupied memory-slice intervals [start, start + size) are pairwise disjoint, and at most one
// instance carries media extensions (+me, +me.all).
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/mig_profile.hpp"

namespace gpupack {

// Instances per profile, indexed like MigGeometry::profiles.
using MigCounts = std::vector<int>;

struct MigPlacedInstance {
  int profile = 0;  // index into MigGeometry::profiles
  int start = 0;    // first memory slice; the instance covers [start, start + profile.memory_slices)
};

struct MigValidation {
  bool valid = false;
  // When valid: one placement per instance, in creation order (largest first).
  std::vector<MigPlacedInstance> instances;
  // When invalid: why, in one sentence naming the profile that found no room.
  std::string reason;
};

// Searches the placements of `counts` (backtracking over allowed starts, largest profiles first).
MigValidation validate_layout(const MigGeometry& geometry, std::span<const int> counts);

// True iff the given placements satisfy the rule (used by tests and by callers holding placements).
bool placements_are_valid(const MigGeometry& geometry, std::span<const MigPlacedInstance> instances);

// Sorts instances into the order to create them: larger memory footprint first, then more compute,
// then lower start. Creating the 3g before the 1g/2g avoids the driver putting a small instance where
// the large one must go (`-cgi 19,19,14,9` fails where `-cgi 9,19,14,19` works).
void sort_creation_order(const MigGeometry& geometry, std::vector<MigPlacedInstance>& instances);

// "3g.40gb@4:4" for one instance.
std::string format_instance(const MigGeometry& geometry, const MigPlacedInstance& instance);

// Indices of the profiles present in `counts`, largest footprint first (memory, then compute slices).
std::vector<int> profiles_largest_first(const MigGeometry& geometry, std::span<const int> counts);

// "3g.40gb + 2g.20gb + 2x1g.10gb": the profiles of a layout, largest first.
std::string describe_layout(const MigGeometry& geometry, std::span<const int> counts);

// Total instances in a count vector.
int instance_count(std::span<const int> counts);

}  // namespace gpupack
