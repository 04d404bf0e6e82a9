#include "model/slice_model.hpp"

#include <algorithm>

#include "model/perf_model.hpp"

namespace gpupack {

double effective_clients(const std::vector<double>& demands) {
  double sum = 0;
  double largest = 0;
  for (double d : demands) {
    const double u = std::min(1.0, d);
    sum += u;
    largest = std::max(largest, u);
  }
  return 1.0 + sum - largest;
}

std::vector<double> timeslicing_inflation(const std::vector<double>& demands, const ModelParameters& m) {
  std::vector<double> out;
  std::vector<double> neighbours;
  for (size_t j = 0; j < demands.size(); ++j) {
    neighbours.clear();
    for (size_t i = 0; i < demands.size(); ++i) {
      if (i != j) neighbours.push_back(std::min(1.0, demands[i]));
    }
    out.push_back(timeslicing_p99_inflation(m, neighbours));
  }
  return out;
}

std::vector<double> synthetic_mps_inflation(const std::vector<int>& caps, const ModelParameters& m) {
  int total = 0;
  for (int c : caps) total += c;
  std::vector<double> out;
  for (int c : caps) out.push_back(mps_p99_inflation(m, std::min(100, total - c)));
  return out;
}

double mps_throughput(const std::vector<double>& demands, const std::vector<int>& caps, double k,
                      const ModelParameters& m) {
  // Caps below what a client needs slow it down: the compute-weighted share of throughput kept.
  double kept = 0;
  double weight = 0;
  for (size_t i = 0; i < demands.size(); ++i) {
    const double demand = std::min(1.0, demands[i]);
    kept += demand * mps_capped_throughput(m, caps[i], demand);
    weight += demand;
  }
  return (weight > 0 ? kept / weight : 1.0) / mps_slowdown(m, k);
}

double streams_throughput(std::size_t clients, double k, const ModelParameters& m) {
  // One process: its streams interleave like MPS clients, without cross-process contention.
  return clients > 1 ? 1.0 / mps_slowdown(m, k) : 1.0;
}

double timeslicing_throughput(double k, const ModelParameters& m) { return 1.0 / timeslicing_slowdown(m, k); }

}  // namespace gpupack
