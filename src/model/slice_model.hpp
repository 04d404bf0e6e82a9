#pragma once
// The model half of a slice the packer fills (planner/slice_state.hpp): given each client's share of the
// slice's SMs and, under MPS, the caps the packer chose, the p99 inflation per client and the per-client
// throughput for one sharing. The synthetic model (model/perf_model.hpp) reads the clients' shares; an MPS
// slice whose clients are all judged by their profiles is predicted by the profile model
// (model/profiled_slice.hpp). Pure.
#include <optional>
#include <vector>

#include "core/gpu_model.hpp"
#include "core/workload.hpp"
#include "model/model_parameters.hpp"

namespace gpupack {

// One client of a slice as this model sees it.
struct SliceLoad {
  double demand = 0;                   // its share of the slice's SMs (compute / the slice's share), may pass 1
  const Workload* profiled = nullptr;  // set when its profile judges it (model/profiled_slice.hpp)
};

// Busy clients beside the largest one: the concurrency the slowdown curves are read at.
double effective_clients(const std::vector<SliceLoad>& clients);

// Time-slicing: each client's p99 inflation from its neighbours' busy shares.
std::vector<double> timeslicing_inflation(const std::vector<SliceLoad>& clients, const ModelParameters& m);

// MPS under `caps` (percent per client): p99 inflation per client from the neighbours' summed caps, or,
// where two or more clients share the slice and every one is judged by its profile, the profile model's,
// which also sets `host_cores` (the host CPU cores they use at their predicted req/s).
std::vector<double> mps_inflation(SliceCapacity capacity, const std::vector<SliceLoad>& clients,
                                  const std::vector<int>& caps, const ModelParameters& m,
                                  std::optional<double>& host_cores);

// The synthetic MPS inflation of a client whose neighbours' caps sum to `neighbour_caps_pct`.
double synthetic_mps_inflation(int neighbour_caps_pct, const ModelParameters& m);

// Per-client throughput relative to alone: under MPS the demand-weighted share each keeps under its cap,
// slowed by the concurrency `k` (effective_clients); for streams the MPS slowdown without caps; for
// time-slicing its own slowdown.
double mps_throughput(const std::vector<SliceLoad>& clients, const std::vector<int>& caps, double k,
                      const ModelParameters& m);
double streams_throughput(size_t clients, double k, const ModelParameters& m);
double timeslicing_throughput(double k, const ModelParameters& m);

}  // namespace gpupack
