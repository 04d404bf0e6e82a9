// The one text form of the sharing vocabulary: every value reads back as itself, nothing else reads.
#include <gtest/gtest.h>

#include "contract/sharing.hpp"

namespace gpupack {
namespace {

TEST(Sharing, EveryValueRoundTripsThroughItsText) {
  for (const Sharing s : {Sharing::exclusive, Sharing::time_slicing, Sharing::mps, Sharing::streams}) {
    EXPECT_EQ(parse_sharing(to_string(s)), s);
  }
  for (const GpuMode m : {GpuMode::exclusive, GpuMode::time_slicing, GpuMode::mps, GpuMode::mig, GpuMode::mig_mps,
                          GpuMode::mig_time_slicing}) {
    EXPECT_EQ(parse_gpu_mode(to_string(m)), m);
  }
}

TEST(Sharing, RefusesOtherSpellings) {
  // "timeslicing" is the bench grid's vocabulary, not the plan's or node.yaml's.
  for (const char* bad : {"", "timeslicing", "time_slicing", "MPS", "mig+mps", " mps"}) {
    EXPECT_EQ(parse_sharing(bad), std::nullopt) << bad;
  }
  for (const char* bad : {"", "mig-mps", "mig+streams", "MIG"}) EXPECT_EQ(parse_gpu_mode(bad), std::nullopt) << bad;
}

TEST(Sharing, NodeSideServesStreamsAsExclusive) {
  EXPECT_EQ(node_sharing(Sharing::streams), Sharing::exclusive);
  EXPECT_EQ(node_sharing(Sharing::mps), Sharing::mps);
  EXPECT_TRUE(is_shared_by_processes(Sharing::time_slicing));
  EXPECT_FALSE(is_shared_by_processes(Sharing::streams));
  EXPECT_TRUE(is_mig(GpuMode::mig_time_slicing));
  EXPECT_FALSE(is_mig(GpuMode::mps));
}

}  // namespace
}  // namespace gpupack
