#pragma once
// Every distinct layout (multiset of profiles) that fits on one GPU, each with one valid placement.
#include <vector>

#include "core/mig_layout.hpp"

namespace gpupack {

struct MigLayout {
  MigCounts counts;                          // instances per profile
  std::vector<MigPlacedInstance> instances;  // one valid placement, in creation order
};

struct MigEnumerateOptions {
  bool include_variants = false;  // +me, +me.all, -me, +gfx profiles
  bool maximal_only = false;      // keep layouts to which no further instance can be added
};

// Layouts ordered by instance count, then largest profiles first. The empty layout is not listed.
std::vector<MigLayout> enumerate_layouts(const MigGeometry& geometry, const MigEnumerateOptions& options);

}  // namespace gpupack
