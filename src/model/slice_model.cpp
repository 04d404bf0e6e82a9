#include "model/slice_model.hpp"

#include <algorithm>

#include "model/perf_model.hpp"
#include "model/profiled_slice.hpp"

namespace gpupack {

double effective_clients(const std::vector<SliceLoad>& clients) {
  double sum = 0;
  double largest = 0;
  for (const auto& c : clients) {
    const double u = std::min(1.0, c.demand);
    sum += u;
    largest = std::max(largest, u);
  }
  return 1.0 + sum - largest;
}

std::vector<double> timeslicing_inflation(const std::vector<SliceLoad>& clients, const ModelParameters& m) {
  std::vector<double> out;
  std::vector<double> neighbours;
  for (size_t j = 0; j < clients.size(); ++j) {
    neighbours.clear();
    for (size_t i = 0; i < clients.size(); ++i) {
      if (i != j) neighbours.push_back(std::min(1.0, clients[i].demand));
    }
    out.push_back(timeslicing_p99_inflation(m, neighbours));
  }
  return out;
}

double synthetic_mps_inflation(int neighbour_caps_pct, const ModelParameters& m) {
  return mps_p99_inflation(m, std::min(100, neighbour_caps_pct));
}

std::vector<double> mps_inflation(SliceCapacity capacity, const std::vector<SliceLoad>& clients,
                                  const std::vector<int>& caps, const ModelParameters& m,
                                  std::optional<double>& host_cores) {
  int total = 0;
  for (int c : caps) total += c;
  std::vector<double> out;
  for (int c : caps) out.push_back(synthetic_mps_inflation(total - c, m));
  const bool all_profiled =
      std::all_of(clients.begin(), clients.end(), [](const SliceLoad& c) { return c.profiled != nullptr; });
  if (clients.size() < 2 || !all_profiled) return out;
  std::vector<PredictionInput> inputs;
  for (size_t i = 0; i < clients.size(); ++i) {
    inputs.push_back({clients[i].profiled, 1, clients[i].demand, caps[i], out[i]});
  }
  ProfiledSliceJudgement judged = judge_profiled_slice(capacity, inputs, m);
  host_cores = judged.host_cores;
  return std::move(judged.inflation);
}

double mps_throughput(const std::vector<SliceLoad>& clients, const std::vector<int>& caps, double k,
                      const ModelParameters& m) {
  // Caps below what a client needs slow it down: the compute-weighted share of throughput kept.
  double kept = 0;
  double weight = 0;
  for (size_t i = 0; i < clients.size(); ++i) {
    const double demand = std::min(1.0, clients[i].demand);
    kept += demand * mps_capped_throughput(m, caps[i], demand);
    weight += demand;
  }
  return (weight > 0 ? kept / weight : 1.0) / mps_slowdown(m, k);
}

double streams_throughput(size_t clients, double k, const ModelParameters& m) {
  // One process: its streams interleave like MPS clients, without cross-process contention.
  return clients > 1 ? 1.0 / mps_slowdown(m, k) : 1.0;
}

double timeslicing_throughput(double k, const ModelParameters& m) { return 1.0 / timeslicing_slowdown(m, k); }

}  // namespace gpupack
