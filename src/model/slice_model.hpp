#pragma once
// The synthetic model of a slice (model/perf_model.hpp) read at its clients' shares of the SMs: the
// concurrency, each client's p99 inflation under each sharing and the per-client throughput. A private
// part of model/prediction.hpp's predict(). Pure.
#include <cstddef>
#include <vector>

#include "model/model_parameters.hpp"

namespace gpupack {

// `demands`: each client's share of the slice's SMs (compute / the slice's share), which may pass 1.

// Busy clients beside the largest one: the concurrency the slowdown curves are read at.
double effective_clients(const std::vector<double>& demands);
// Time-slicing: each client's p99 inflation from its neighbours' busy shares.
std::vector<double> timeslicing_inflation(const std::vector<double>& demands, const ModelParameters& m);
// MPS: each client's p99 inflation from its neighbours' summed caps (percent).
std::vector<double> synthetic_mps_inflation(const std::vector<int>& caps, const ModelParameters& m);
// Per-client throughput relative to alone: under MPS the demand-weighted share each keeps under its cap,
// slowed by the concurrency `k` (effective_clients); for streams the MPS slowdown without caps; for
// time-slicing its own slowdown.
double mps_throughput(const std::vector<double>& demands, const std::vector<int>& caps, double k,
                      const ModelParameters& m);
double streams_throughput(std::size_t clients, double k, const ModelParameters& m);
double timeslicing_throughput(double k, const ModelParameters& m);

}  // namespace gpupack
