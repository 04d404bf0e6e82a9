#include "render/render_plan.hpp"

#include <gtest/gtest.h>

#include "core/errors.hpp"
#include "render/render_test_support.hpp"

namespace gpupack {

using nlohmann::json;

TEST(RenderPlan, ReadsGpusSlicesAndPlacements) {
  const RenderPlan p = testing::mixed_plan();
  ASSERT_EQ(p.gpus.size(), 4u);
  EXPECT_EQ(p.nodes, (std::vector<std::string>{"node-0", "node-1", "node-2"}));
  EXPECT_EQ(p.gpus[1].index, 1);
  EXPECT_EQ(p.gpus[2].index, 0);
  EXPECT_EQ(p.gpus[1].mig.size(), 4u);
  EXPECT_EQ(p.gpus[0].slices[0].clients.size(), 3u);
  EXPECT_EQ(p.gpus[0].slices[0].clients[2].active_thread_percentage, 50);
  EXPECT_FALSE(p.gpus[1].slices[1].clients[0].active_thread_percentage.has_value());
  EXPECT_EQ(p.gpus[1].slices[0].profile, "3g.40gb");
}

namespace {
std::string error_of(const json& plan) {
  try {
    render_plan_from_json(plan);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}
json minimal() {
  return json::parse(R"({"gpus":[{"id":"gpu0","node":"node-0","model":"H100-SXM5-80GB","mode":"mps",
    "slices":[{"id":"0","profile":null,"sharing":"mps","memory_bytes":1000}]}],
    "placements":[{"workload":"w","replica":0,"tenant":"t","gpu":"gpu0","slice":"0","memory_limit_bytes":10,
    "mps_active_thread_percentage":50}]})");
}
}  // namespace

TEST(RenderPlan, RejectsBadPlansNamingThePath) {
  EXPECT_EQ(error_of(minimal()), "");
  EXPECT_NE(error_of(json::array()).find("$: expected a JSON object"), std::string::npos);
  json p = minimal();
  p.erase("gpus");
  EXPECT_NE(error_of(p).find("$.gpus: expected"), std::string::npos);
  p = minimal();
  p["gpus"][0]["mode"] = "turbo";
  EXPECT_NE(error_of(p).find("$.gpus[0].mode"), std::string::npos);
  p = minimal();
  p["gpus"][0]["id"] = "gpu0; rm -rf /";
  EXPECT_NE(error_of(p).find("not allowed in generated scripts"), std::string::npos);
  p = minimal();
  p["gpus"][0]["node"] = "Node_0";
  EXPECT_NE(error_of(p).find("not a valid Kubernetes name"), std::string::npos);
  p = minimal();
  p["placements"][0]["workload"] = "$(id)";
  EXPECT_NE(error_of(p).find("$.placements[0].workload"), std::string::npos);
  p = minimal();
  p["placements"][0]["gpu"] = "gpu9";
  EXPECT_NE(error_of(p).find("'gpu9' is not one"), std::string::npos);
  p = minimal();
  p["placements"][0]["slice"] = "7";
  EXPECT_NE(error_of(p).find("'7' is not one"), std::string::npos);
  p = minimal();
  p["placements"][0]["mps_active_thread_percentage"] = 150;
  EXPECT_NE(error_of(p).find("1..100"), std::string::npos);
  p = minimal();
  p["gpus"][0]["slices"][0]["memory_bytes"] = -1;
  EXPECT_NE(error_of(p).find("memory_bytes"), std::string::npos);
  p = minimal();
  p["gpus"].push_back(p["gpus"][0]);
  EXPECT_NE(error_of(p).find("repeats"), std::string::npos);
}

}  // namespace gpupack
