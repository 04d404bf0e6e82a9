// The agent's CDI spec: written by the one CDI writer (contract/cdi_spec.hpp) from the devices it
// advertises; a MIG device carries its parent's node and its GPU/compute instance access nodes.
#include "k8s/cdi_spec.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "k8s/device_plan.hpp"
#include "k8s/sample_node.hpp"

namespace gpupack::k8s {
namespace {

TEST(CdiSpec, MigDevicesCarryTheirCapabilityNodesFromTheDriversIds) {
  auto targets = testing::sample_targets();
  for (auto& t : targets) {
    if (t.mig_uuid == testing::kMigA) t.mig_ids = std::make_pair(2u, 0u);  // GI 2, CI 0 on GPU 3
  }
  const auto spec = nlohmann::json::parse(cdi_spec_json(plan_resources(targets)));
  EXPECT_EQ(spec["cdiVersion"], "0.6.0");  // the annotations need 0.6.0, nothing newer
  bool seen_mig = false, seen_gpu = false;
  for (const auto& d : spec["devices"]) {
    const auto& nodes = d["containerEdits"]["deviceNodes"];
    if (d["annotations"]["gpupack.io/uuid"] == testing::kMigA) {
      seen_mig = true;
      ASSERT_EQ(nodes.size(), 3u);
      EXPECT_EQ(nodes[0]["path"], "/dev/nvidia3");
      EXPECT_EQ(nodes[1]["path"], "/dev/nvidia-caps/nvidia-cap426");  // 3 + 135 x 3 + 9 x 2
      EXPECT_EQ(nodes[2]["path"], "/dev/nvidia-caps/nvidia-cap427");
    } else if (d["annotations"]["gpupack.io/uuid"] == testing::kGpu0) {
      seen_gpu = true;
      ASSERT_EQ(nodes.size(), 1u);
      EXPECT_EQ(nodes[0]["path"], "/dev/nvidia0");
    }
  }
  EXPECT_TRUE(seen_mig);
  EXPECT_TRUE(seen_gpu);
}

}  // namespace
}  // namespace gpupack::k8s
