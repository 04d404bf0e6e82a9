#pragma once
// Scenarios for planner tests: built in code, and random ones with a seed.
#include <memory>
#include <random>
#include <string>

#include "core/gpu_catalog.hpp"
#include "core/scenario.hpp"
#include "core/units.hpp"

namespace gpupack::test {

inline const GpuCatalog& catalog() {
  static const GpuCatalog c = builtin_catalog();
  return c;
}

inline FleetEntry fleet(const char* model, int count) {
  FleetEntry f;
  f.model = catalog().get(model);
  f.count = count;
  return f;
}

// A program's profile measured alone on an H100: its GPM SM activity, req/s and p99.
inline std::shared_ptr<ProfileFacts> h100_profile(double sm_active, double req_per_s, double p99_ms) {
  auto p = std::make_shared<ProfileFacts>();
  p->gpu_model = "H100-SXM5-80GB";
  p->gpu_sms = catalog().get("H100-SXM5-80GB").sm_count;
  p->sm_active = sm_active;
  p->req_per_s = req_per_s;
  p->p99_ms = p99_ms;
  return p;
}

inline Workload workload(std::string name, double memory_gib, double compute, int replicas = 1,
                         std::string tenant = "default") {
  Workload w;
  w.name = std::move(name);
  w.memory_bytes = static_cast<std::uint64_t>(memory_gib * static_cast<double>(kGiB));
  w.compute = compute;
  w.replicas = replicas;
  w.tenant = std::move(tenant);
  return w;
}

struct RandomOptions {
  int workloads = 6;
  int max_replicas = 3;
  int tenants = 2;
  double max_memory_gib = 20;
  double max_compute = 0.3;
  bool isolation = true;  // some workloads with isolation memory/fault
  bool slos = true;
  bool groups = true;
};

// A random scenario on the given fleet (elastic when `elastic`).
inline Scenario random_scenario(std::mt19937& rng, std::vector<FleetEntry> fleet, bool elastic,
                                const RandomOptions& o) {
  Scenario s;
  s.fleet = std::move(fleet);
  s.elastic = elastic;
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::uniform_int_distribution<int> replicas(1, o.max_replicas);
  std::uniform_int_distribution<int> tenant(0, o.tenants - 1);
  for (int i = 0; i < o.workloads; ++i) {
    Workload w = workload("w" + std::to_string(i), 0.25 + unit(rng) * o.max_memory_gib, 0.01 + unit(rng) * o.max_compute,
                          replicas(rng), "t" + std::to_string(tenant(rng)));
    if (o.slos && unit(rng) < 0.4) {
      w.latency_slo_ms = 10 + 40 * unit(rng);
      w.p99_alone_ms = *w.latency_slo_ms / (1.2 + 3 * unit(rng));
    }
    const double r = unit(rng);
    if (o.isolation && r < 0.15) w.isolation = Isolation::fault;
    else if (o.isolation && r < 0.3) w.isolation = Isolation::memory;
    else if (o.groups && r < 0.4) w.group = "g" + std::to_string(i % 2);
    if (unit(rng) < 0.2) w.pattern = UsagePattern::intermittent;
    s.workloads.push_back(std::move(w));
  }
  return s;
}

}  // namespace gpupack::test
