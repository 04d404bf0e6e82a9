// The sharing vocabulary's one table: a GPU mode's text is made from its sharing's, measurement records
// keep their key, and a GPU's mode follows from its slices.
#include "core/sharing.hpp"

#include <gtest/gtest.h>

#include "core/plan.hpp"

namespace gpupack {
namespace {

TEST(CoreSharing, GpuModeTextIsTheSharingsAfterMig) {
  EXPECT_EQ(to_string(GpuMode::time_slicing), to_string(Sharing::time_slicing));
  EXPECT_EQ(to_string(GpuMode::mig), "mig");
  EXPECT_EQ(to_string(GpuMode::mig_mps), "mig+mps");
  EXPECT_EQ(to_string(GpuMode::mig_time_slicing), "mig+time-slicing");
  EXPECT_EQ(gpu_mode_names(), "exclusive, time-slicing, mps, mig, mig+mps, mig+time-slicing");
  EXPECT_EQ(sharing_names(), "exclusive, time-slicing, mps, streams");
  EXPECT_EQ(sharing_names(false), "exclusive, time-slicing, mps");  // node.yaml's
  // Streams is one process on an exclusive slice: a GPU of streams slices runs exclusive.
  EXPECT_EQ(gpu_mode(false, Sharing::streams), GpuMode::exclusive);
  EXPECT_EQ(gpu_mode(true, Sharing::streams), GpuMode::mig);
}

TEST(CoreSharing, MeasurementRecordsKeepTheirKeyAndReadEitherSpelling) {
  EXPECT_EQ(measurement_key(Sharing::time_slicing), "timeslicing");
  EXPECT_EQ(measurement_key(Sharing::mps), "mps");
  EXPECT_EQ(parse_measured_sharing("timeslicing"), Sharing::time_slicing);
  EXPECT_EQ(parse_measured_sharing("time-slicing"), Sharing::time_slicing);
  EXPECT_EQ(parse_measured_sharing("mps"), Sharing::mps);
  for (const char* bad : {"", "time_slicing", "mps_cap25", "alone", "mig"}) {
    EXPECT_EQ(parse_measured_sharing(bad), std::nullopt) << bad;
  }
  // The plan's and node.yaml's reader stays strict.
  EXPECT_EQ(parse_sharing("timeslicing"), std::nullopt);
}

PlanSlice slice_of(Sharing sharing, int profile) {
  PlanSlice s;
  s.sharing = sharing;
  s.profile = profile;
  return s;
}

TEST(CoreSharing, AGpusModeIsItsMostSharedSlice) {
  EXPECT_EQ(gpu_mode_of(false, {slice_of(Sharing::streams, -1)}), GpuMode::exclusive);
  EXPECT_EQ(gpu_mode_of(false, {slice_of(Sharing::mps, -1)}), GpuMode::mps);
  EXPECT_EQ(gpu_mode_of(true, {slice_of(Sharing::exclusive, 0), slice_of(Sharing::streams, 1)}), GpuMode::mig);
  EXPECT_EQ(gpu_mode_of(true, {slice_of(Sharing::time_slicing, 0), slice_of(Sharing::exclusive, 1)}),
            GpuMode::mig_time_slicing);
  EXPECT_EQ(gpu_mode_of(true, {slice_of(Sharing::mps, 0), slice_of(Sharing::time_slicing, 1)}), GpuMode::mig_mps);
  EXPECT_EQ(gpu_mode_of(true, {slice_of(Sharing::time_slicing, 0), slice_of(Sharing::mps, 1)}), GpuMode::mig_mps);
}

}  // namespace
}  // namespace gpupack
