#pragma once
// How many workloads a MIG layout serves concurrently, with sharing inside each instance.
#include <string>
#include <vector>

#include "core/cuda_version.hpp"
#include "core/gpu_model.hpp"
#include "core/mig_layout.hpp"
#include "core/sharing.hpp"

namespace gpupack {

struct MigCapacityRow {
  int profile = 0;              // index into the geometry's profiles
  int instances = 0;
  int requested_per_instance = 0;
  int clients_per_instance = 0;  // after the MPS client limit of the instance's size
  int mps_limit_per_instance = 0;  // the scaled MPS client limit (0 unless MPS)
  int total = 0;
};

struct MigCapacity {
  std::vector<MigCapacityRow> rows;
  int total = 0;
  bool clamped = false;  // some instance asked for more MPS clients than its limit allows
};

// `sharing` inside each instance: exclusive, time_slicing or mps (streams counts as exclusive).
// `per_instance` is the N of --time-slicing N or --mps N (1 when exclusive). The layout must be valid.
MigCapacity mig_capacity(const GpuModel& model, const MigCounts& counts, Sharing sharing, int per_instance,
                         CudaVersion cuda);

}  // namespace gpupack
