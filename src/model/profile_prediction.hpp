#pragma once
// Absolute figures per client (p99 in ms, req/s per replica) from the workloads' profiles: the SM-share
// curve at the client's MPS cap, contention from the neighbours' measured GPM activity, the co-location
// grid for copies of one workload, and scaling to another GPU's SM count. Clients without a profile get
// the synthetic model's figures. The model is documented in docs/decisions.md ("Predictions from
// profiles"). A private part of model/prediction.hpp's predict(): everything outside the model asks that.
// Pure.
#include <optional>
#include <vector>

#include "core/gpu_model.hpp"
#include "core/plan.hpp"
#include "core/scenario.hpp"
#include "model/client_outcome.hpp"
#include "model/model_parameters.hpp"

namespace gpupack {

// One client of a slice as the profile model sees it.
struct PredictionInput {
  const Workload* workload = nullptr;  // the workload of its replicas (the first one's, for a group)
  int replicas = 1;
  double compute = 0;                  // fraction of the slice's SMs the plan counts for it (synthetic clients)
  std::optional<int> cap_pct;          // MPS active-thread percentage
  double synthetic_inflation = 1;      // the synthetic model's predicted p99 inflation
};

// `slice`: the SMs and DRAM bandwidth of the slice (a whole GPU's, or a MIG instance's); `slice_throughput`:
// the synthetic model's per-client throughput for the slice (used where the profile has nothing for the
// sharing). Every field of the outcomes but `inflation`, which predict() sets.
std::vector<ClientOutcome> client_figures(Sharing sharing, SliceCapacity slice, double slice_throughput,
                                          const std::vector<PredictionInput>& clients, const ModelParameters& m);

// The compute demand the planner packs for a profiled workload (docs/decisions.md): its measured GPM SM
// activity, the share of SMs it keeps busy, where measured; else the SM-share curve's knee
// (curve_share_tolerance); else the profile's compute demand (at least min_packing_compute).
double packing_compute(const ProfileFacts& p, const ModelParameters& m);
// The smallest MPS thread share (0..1) at which the SM-share curve keeps req/s within `tolerance` of its
// best point, interpolated between points; none without a curve. Throughput only: p99 of real programs
// varies run to run by more than the curve's steps (resnet18-b1: 3.2 to 5.5 ms alone).
std::optional<double> curve_share(const ProfileFacts& p, double tolerance);

}  // namespace gpupack
