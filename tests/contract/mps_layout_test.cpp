// The MPS directory layout both deployments resolve through one function.
#include <gtest/gtest.h>

#include "contract/mps_layout.hpp"

namespace gpupack {
namespace {

TEST(MpsLayout, RenderedDaemonsLiveUnderVarRunAndVarLog) {
  const std::string whole = rendered_mps_daemon_name("node-0", "gpu0", std::nullopt);
  const std::string mig = rendered_mps_daemon_name("node-0", "gpu1", std::string("mig2"));
  EXPECT_EQ(whole, "node-0-gpu0");
  EXPECT_EQ(mig, "node-0-gpu1-mig2");
  const MpsDirectories d = mps_directories(rendered_mps_layout(), mig);
  EXPECT_EQ(d.pipe_dir, "/var/run/gpupack/mps/node-0-gpu1-mig2");
  EXPECT_EQ(d.log_dir, "/var/log/gpupack/mps/node-0-gpu1-mig2");
}

TEST(MpsLayout, AgentDaemonsHavePipeAndLogBelowTheirTarget) {
  const MpsDirectories d = mps_directories(agent_mps_layout("/run/gpupack/mps"), "MIG-1234");
  EXPECT_EQ(d.pipe_dir, "/run/gpupack/mps/MIG-1234/pipe");
  EXPECT_EQ(d.log_dir, "/run/gpupack/mps/MIG-1234/log");
}

}  // namespace
}  // namespace gpupack
