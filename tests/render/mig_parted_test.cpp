#include "render/mig_parted.hpp"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <regex>

#include "core/gpu_catalog.hpp"

namespace gpupack {

TEST(MigParted, ConfigHasOneNamedConfigPerLayout) {
  const GpuCatalog catalog = builtin_catalog();
  const MigGeometry& g = *catalog.get("A100-80GB").mig;
  const auto layouts = enumerate_layouts(g, {false, true});
  const YAML::Node doc = YAML::Load(render_mig_parted_config(g, layouts));
  EXPECT_EQ(doc["version"].as<std::string>(), "v1");
  const YAML::Node configs = doc["mig-configs"];
  ASSERT_TRUE(configs.IsMap());
  EXPECT_EQ(configs.size(), layouts.size() + 1);
  EXPECT_FALSE(configs["all-disabled"][0]["mig-enabled"].as<bool>());
  const YAML::Node balanced = configs["3g.40gb-2g.20gb-2x1g.10gb"];
  ASSERT_TRUE(balanced.IsSequence());
  EXPECT_EQ(balanced[0]["devices"].as<std::string>(), "all");
  EXPECT_TRUE(balanced[0]["mig-enabled"].as<bool>());
  EXPECT_EQ(balanced[0]["mig-devices"]["3g.40gb"].as<int>(), 1);
  EXPECT_EQ(balanced[0]["mig-devices"]["2g.20gb"].as<int>(), 1);
  EXPECT_EQ(balanced[0]["mig-devices"]["1g.10gb"].as<int>(), 2);
}

TEST(MigParted, NamesAreValidLabelValuesEvenWithVariants) {
  const GpuCatalog catalog = builtin_catalog();
  const std::regex label_value("^[A-Za-z0-9]([A-Za-z0-9._-]{0,61}[A-Za-z0-9])?$");
  for (const auto& m : catalog.models()) {
    if (!m.mig) continue;
    const auto layouts = enumerate_layouts(*m.mig, {true, false});
    const YAML::Node configs = YAML::Load(render_mig_parted_config(*m.mig, layouts))["mig-configs"];
    EXPECT_EQ(configs.size(), layouts.size() + 1) << m.name;
    for (const auto& kv : configs) {
      EXPECT_TRUE(std::regex_match(kv.first.as<std::string>(), label_value)) << kv.first.as<std::string>();
    }
  }
}

}  // namespace gpupack
