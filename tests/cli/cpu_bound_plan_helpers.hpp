#pragma once
// Helpers of the tests that plan issue 37's CPU-bound decode loop (profile_plan_cpu_bound_test.cpp, from
// its profile alone; profile_plan_cpu_grid_test.cpp, from its profile with an MPS grid of host CPU): the
// scenario, the plan with its predictions, what it places and the host cores it counts per node.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/gpu_catalog.hpp"
#include "core/mig_enumerate.hpp"
#include "profile_plan_helpers.hpp"

namespace gpupack::test {

// 40 replicas of the decode loop at an SLO of 80 ms on `count` H200s, `gpus_per_node` to a node of 16 host
// cores; `fleet_extra` adds to the fleet entry (", mig: ..."), `p99_alone_ms` replaces the profile's p99.
inline Scenario decode_scenario(const std::string& profile_file, const std::string& fleet_extra, int count = 1,
                                int gpus_per_node = 1, std::optional<double> p99_alone_ms = std::nullopt) {
  Scenario s = from_text("fleet: [{model: H200, count: " + std::to_string(count) +
                             ", cpu_cores: 16, gpus_per_node: " + std::to_string(gpus_per_node) + fleet_extra +
                             "}]\n"
                             "workloads:\n  - {name: decode-b1, replicas: 40, profile: " +
                             kData + "/" + profile_file + ", latency_slo_ms: 80}\n",
                         "");
  if (p99_alone_ms) {
    auto facts = std::make_shared<ProfileFacts>(*s.workloads[0].profile);
    facts->p99_ms = *p99_alone_ms;
    s.workloads[0].profile = facts;
  }
  return s;
}

inline int placed(const Plan& p) {
  int n = 0;
  for (const auto& g : p.gpus)
    for (const auto& sl : g.slices)
      for (const auto& c : sl.clients) n += static_cast<int>(c.replicas.size());
  return n;
}

// Host cores the plan's predictions count per node.
inline std::map<std::string, double> cores_by_node(const Plan& p) {
  std::map<std::string, double> out;
  for (const auto& g : p.gpus)
    for (const auto& sl : g.slices)
      for (const auto& c : sl.clients) {
        EXPECT_TRUE(c.prediction && c.prediction->host_cores);
        if (c.prediction && c.prediction->host_cores)
          out[g.node] += *c.prediction->host_cores * static_cast<double>(c.replicas.size());
      }
  return out;
}

// Replicas placed per node.
inline std::map<std::string, int> placed_by_node(const Plan& p) {
  std::map<std::string, int> out;
  for (const auto& g : p.gpus)
    for (const auto& sl : g.slices)
      for (const auto& c : sl.clients) out[g.node] += static_cast<int>(c.replicas.size());
  return out;
}

// Every maximal MIG layout of an H200 (no variants), as a fleet's `mig:` string.
inline std::vector<std::string> h200_layouts() {
  const GpuCatalog catalog = builtin_catalog();
  const MigGeometry& g = *catalog.find("H200")->mig;
  std::vector<std::string> out;
  for (const MigLayout& l : enumerate_layouts(g, {false, true})) {
    std::string text;
    for (const auto& inst : l.instances) text += (text.empty() ? "" : ",") + g.profiles[static_cast<size_t>(inst.profile)].name;
    out.push_back(text);
  }
  return out;
}

}  // namespace gpupack::test
