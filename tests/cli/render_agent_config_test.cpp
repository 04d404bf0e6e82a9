// The gpupack-agent render target writes node configs the agent's own parser accepts, with the modes,
// clients and limits of the plan.
#include <gtest/gtest.h>

#include <fstream>

#include "agent/node_config.hpp"
#include "render/render_targets.hpp"
#include "render/targets.hpp"

namespace gpupack {

namespace {
PlanDocument mixed_plan() {
  std::ifstream in(GPUPACK_RENDER_TEST_DATA "/plan-mixed.json");
  return read_plan_json(nlohmann::json::parse(in), builtin_catalog());
}
const RenderedFile& file(const TargetOutput& o, const std::string& path) {
  for (const auto& f : o.files) {
    if (f.path == path) return f;
  }
  throw std::runtime_error("no " + path);
}
}  // namespace

TEST(RenderAgentConfig, AgentParsesEveryRenderedNodeConfig) {
  const TargetOutput o = render_agent_config_target(mixed_plan());
  ASSERT_EQ(o.files.size(), 4u);  // three nodes' node.yaml and agent.yaml
  for (const auto& f : o.files) {
    if (f.path != "gpupack-agent/agent.yaml") {
      EXPECT_NO_THROW(parse_node_config(f.content, f.path)) << f.content;
    }
  }

  const NodeConfig node0 = parse_node_config(file(o, "gpupack-agent/node-0/node.yaml").content, "node-0");
  ASSERT_EQ(node0.gpus.size(), 2u);
  EXPECT_EQ(node0.gpus[0].ref, "0");
  EXPECT_EQ(node0.gpus[0].mode, Sharing::mps);
  EXPECT_EQ(node0.gpus[0].clients, 3);
  EXPECT_EQ(node0.gpus[0].limits.sm_percent, 50);
  EXPECT_EQ(node0.gpus[0].limits.memory_bytes, 8ull << 30);
  EXPECT_EQ(node0.gpus[0].tenant, "team-a");
  // Each client's own slice for the device plugin, not the largest client's limits three times.
  EXPECT_TRUE(node0.device_plugin.enabled);
  const auto& slices = node0.device_plugin.mps_slices.at("0");
  int clients = 0;
  for (const auto& s : slices) clients += s.count;
  EXPECT_EQ(clients, 3);
  EXPECT_GT(slices.size(), 1u) << "chat (25%) and batch (50%) get slices of their own sizes";
  ASSERT_EQ(node0.gpus[1].mig.size(), 4u);
  EXPECT_EQ(node0.gpus[1].mig[0].ref, "3g.40gb@4");
  EXPECT_EQ(node0.gpus[1].mig[0].mode, Sharing::mps);
  EXPECT_EQ(node0.gpus[1].mig[2].mode, Sharing::time_slicing);
  EXPECT_EQ(node0.gpus[1].mig[2].clients, 2);
  EXPECT_EQ(node0.gpus[1].mig[1].mode, Sharing::exclusive);
  EXPECT_EQ(node0.gpus[1].mig[1].clients, 1);
  const NodeConfig node1 = parse_node_config(file(o, "gpupack-agent/node-1/node.yaml").content, "node-1");
  EXPECT_EQ(node1.gpus[0].mode, Sharing::time_slicing);
  EXPECT_EQ(node1.gpus[0].clients, 3);
  EXPECT_FALSE(node1.gpus[0].limits.sm_percent.has_value());
}

// The SM activity the plan predicted for a slice reaches its node.yaml entry, for the agent to export beside
// the measured (gpupack_slice_sm_active_predicted_ratio); a slice without one has none there.
TEST(RenderAgentConfig, ThePlansPredictedSmActivityReachesTheNodeConfig) {
  PlanDocument plan = mixed_plan();
  plan.gpus[0].slices[0].predicted_sm_active = 0.79;
  const TargetOutput o = render_agent_config_target(plan);
  const NodeConfig node0 = parse_node_config(file(o, "gpupack-agent/node-0/node.yaml").content, "node-0");
  EXPECT_EQ(node0.gpus[0].predicted_sm_active, 0.79);
  EXPECT_FALSE(node0.gpus[1].mig[0].predicted_sm_active);
}

}  // namespace gpupack
