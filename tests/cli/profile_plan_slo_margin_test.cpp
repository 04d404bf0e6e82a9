// The SLO margin in plans from the recorded H100 profiles: a profiled workload with an SLO packs to
// SLO / (1 + 12%) unless its entry states slo_margin; the checker holds the plan to the same figure.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "profile_plan_helpers.hpp"

namespace gpupack {
namespace {

using test::from_text;
using test::kData;
using test::plan_with_predictions;

// density-r40-h100.yaml: 40 resnet18-b1 asked beside the GEMM at 55% on one H100 of a 16-core host.
Scenario density(const std::string& margin) {
  return from_text("fleet: [{model: H100-SXM5-80GB, count: 1, gpus_per_node: 1, cpu_cores: 16}]\n"
                   "workloads:\n"
                   "  - {name: resnet18-b1, replicas: 40, profile: " +
                       kData + "/profiles-h100-2026-11-23/resnet18-b1.json, latency_slo_ms: 16.4" + margin +
                       "}\n"
                       "  - {name: gemm, profile: " +
                       kData + "/profiles-h100-2026-11-23/gemm.json, compute: 0.55, isolation: memory}\n",
                   "");
}

struct Packed {
  int resnets = 0;
  double worst_p99_ms = 0;
};

Packed resnets_of(const Plan& p) {
  Packed out;
  for (const auto& g : p.gpus)
    for (const auto& s : g.slices)
      for (const auto& c : s.clients)
        if (c.replicas.at(0).workload == 0) {
          out.resnets += static_cast<int>(c.replicas.size());
          out.worst_p99_ms = std::max(out.worst_p99_ms, c.prediction.value().p99_ms.value());
        }
  return out;
}

TEST(ProfilePlanSloMargin, AProfiledSloKeepsTwelvePercentByDefault) {
  const Scenario s = density("");
  ASSERT_TRUE(s.workloads[0].slo_margin);
  EXPECT_DOUBLE_EQ(*s.workloads[0].slo_margin, ModelParameters{}.profiled_slo_margin);
  EXPECT_FALSE(s.workloads[1].slo_margin);  // no SLO, no margin
  const Packed p = resnets_of(plan_with_predictions(s));
  // Measured on three H100s (runs 22-24): 30, 27 and 28 fit at this SLO. Without a margin the plan
  // placed 30 and broke the SLO in some windows on two of them; with 12% it places 27.
  EXPECT_EQ(p.resnets, 27);
  EXPECT_LE(p.worst_p99_ms * 1.12, 16.4);
}

TEST(ProfilePlanSloMargin, AStatedMarginWins) {
  const Packed none = resnets_of(plan_with_predictions(density(", slo_margin: 0")));
  // 30 until issue 37; the resnets' host cores now count their rate before the MPS launch path's wait,
  // and 28 of them fill the 16 cores (runs 22-24 measured 30, 27 and 28 within the SLO).
  EXPECT_EQ(none.resnets, 28);
  EXPECT_LE(none.worst_p99_ms, 16.4);
  EXPECT_GT(none.worst_p99_ms * 1.12, 16.4);
  const Packed wide = resnets_of(plan_with_predictions(density(", slo_margin: 0.3")));
  EXPECT_LT(wide.resnets, 27);
  EXPECT_LE(wide.worst_p99_ms * 1.3, 16.4);
}

TEST(ProfilePlanSloMargin, TheCheckerHoldsAPlanToTheMargin) {
  // The plan packed without a margin breaks the default margin's SLO in the checker.
  const Plan loose = plan_with_predictions(density(", slo_margin: 0"));
  const auto errors = check_plan(density(""), loose, ModelParameters{});
  EXPECT_TRUE(std::any_of(errors.begin(), errors.end(), [](const std::string& e) {
    return e.find("predicted p99 above its SLO") != std::string::npos;
  })) << errors.size();
}

}  // namespace
}  // namespace gpupack
