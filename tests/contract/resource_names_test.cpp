// Resource names by NVIDIA's rule: '+' in a MIG profile is not allowed in a resource name, so the device
// plugin writes it as '.'; render and the agent's plugin build the same name through this one function.
#include <gtest/gtest.h>

#include "contract/resource_names.hpp"

namespace gpupack {
namespace {

TEST(ResourceNames, GpuResourcesAreGupacksAndNvidiasAndTheirPartFollowsTheDomain) {
  EXPECT_TRUE(is_gpu_resource_name(mps_resource_name(std::nullopt, 25)));
  EXPECT_TRUE(is_gpu_resource_name(whole_resource_name(std::string("1g.10gb"))));
  EXPECT_FALSE(is_gpu_resource_name("example.com/fpga"));
  EXPECT_FALSE(is_gpu_resource_name("gpupack.iox/mps-25"));
  EXPECT_EQ(resource_name_part("gpupack.io/mig-2g.20gb-mps-15"), "mig-2g.20gb-mps-15");
  EXPECT_EQ(resource_name_part("plain"), "plain");
}

TEST(ResourceNames, MediaExtensionProfilesUseDots) {
  EXPECT_EQ(mig_resource_name("1g.10gb+me"), "nvidia.com/mig-1g.10gb.me");
  EXPECT_EQ(mig_resource_name("1g.24gb+me.all"), "nvidia.com/mig-1g.24gb.me.all");
  EXPECT_EQ(mig_resource_part("1g.20gb+gfx"), "1g.20gb.gfx");
  EXPECT_EQ(mig_resource_name("3g.40gb"), "nvidia.com/mig-3g.40gb");
}

}  // namespace
}  // namespace gpupack
