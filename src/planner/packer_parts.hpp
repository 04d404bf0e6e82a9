#pragma once
// The small types the greedy packer's parts share (greedy_packer.cpp, slice_fill.hpp, mig_layout_fill.hpp):
// internal to the packer, hence their own namespace, so that names such as Candidate stay free elsewhere.
#include <utility>
#include <vector>

#include "planner/plan_context.hpp"
#include "planner/room_index.hpp"

namespace gpupack::packer {

// The replicas of one workload still to place; the packer takes them from the back.
struct Bucket {
  int demand = 0;  // index into Demands::workloads
  std::vector<int> pending;
  int left() const { return static_cast<int>(pending.size()); }
};

// Candidates for one slice: a tenant's buckets (largest first), or one bucket of isolated replicas.
struct Candidate {
  std::vector<int> buckets;
  bool own_slice = false;
  RoomIndex room;  // over `buckets`: which of them a slice still has room for
};

// How many replicas a fill took, per bucket: (bucket, count) pairs, applied by GreedyPacker's commit
// only once a configuration is chosen.
using Taken = std::vector<std::pair<int, int>>;

// One configuration of a GPU tried in phase 2: what it places (dominant shares of the GPU), the GPU built
// and the replicas it takes.
struct Trial {
  double score = 0;
  GpuBuild build;
  Taken taken;
};

}  // namespace gpupack::packer
