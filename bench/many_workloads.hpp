#pragma once
// The "many distinct workloads" instance of issue 19, shared by bench_plan, the planner tests and the
// e2e scale test (through the many_workloads_yaml tool): `workloads` services of one tenant, `replicas`
// each, memory 512 MiB-6 GiB and compute 0.005-0.06 of an H100, on as many H100-80GB as needed.
// Deterministic: the same arguments give the same scenario on every machine (a fixed LCG, no
// <random> distributions, whose output differs between standard libraries). Memory is a whole number
// of MiB and compute has four decimals, so the YAML text below parses back to exactly this scenario.
#include <cstdint>
#include <cstdio>
#include <string>

#include "core/gpu_catalog.hpp"
#include "core/scenario.hpp"

namespace gpupack::bench {

class Lcg {
 public:
  explicit Lcg(std::uint64_t seed) : state_(seed * 2862933555777941757ull + 3037000493ull) {}
  // Uniform in [0, 1).
  double unit() {
    state_ = state_ * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<double>(state_ >> 11) / 9007199254740992.0;  // 2^53
  }

 private:
  std::uint64_t state_;
};

inline Scenario many_workloads_scenario(int workloads, int replicas, const GpuCatalog& catalog,
                                        std::uint64_t seed = 19) {
  Lcg rng(seed);
  Scenario s;
  FleetEntry h100;
  h100.model = catalog.get("H100-80GB");
  s.fleet = {h100};
  s.elastic = true;
  for (int i = 0; i < workloads; ++i) {
    Workload w;
    w.name = "svc-" + std::to_string(i);
    w.replicas = replicas;
    w.tenant = "platform";
    const auto mib = static_cast<std::uint64_t>(512 + rng.unit() * (6144 - 512));
    w.memory_bytes = mib << 20;
    w.compute = static_cast<double>(static_cast<int>(50 + rng.unit() * 550)) / 10000.0;  // 0.0050-0.0599
    s.workloads.push_back(std::move(w));
  }
  return s;
}

// The scenario as a file for `gpupack plan FILE --gpu H100-80GB` (no fleet: --gpu gives it).
inline std::string many_workloads_yaml(const Scenario& s) {
  std::string out = "workloads:\n";
  char line[160];
  for (const Workload& w : s.workloads) {
    std::snprintf(line, sizeof line, "  - {name: %s, replicas: %d, memory: %lluMiB, compute: %.4f, tenant: %s}\n",
                  w.name.c_str(), w.replicas, static_cast<unsigned long long>(w.memory_bytes >> 20), w.compute,
                  w.tenant.c_str());
    out += line;
  }
  return out;
}

}  // namespace gpupack::bench
