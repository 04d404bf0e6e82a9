#include "verify/window_activity.hpp"

#include <gtest/gtest.h>

namespace gpupack::verify {
namespace {

GpmActivity gpm(double sm, std::optional<double> dram) {
  GpmActivity a;
  a.sm_active = sm;
  a.dram_bw = dram;
  return a;
}

// Only reads wholly inside the window count, each by its time: the warm-up's and the stop's are left out.
TEST(WindowActivityMeter, MeansTheReadsInsideTheWindowByTheirTime) {
  WindowActivityMeter m(5, 15);
  m.add(gpm(0.1, 0.1), 4.5, 5.5);   // across the start: warm-up
  m.add(gpm(0.6, 0.9), 5.5, 6.5);   // 1 s
  m.add(gpm(0.9, 1.0), 6.5, 9.5);   // 3 s
  m.add(gpm(0.2, std::nullopt), 9.5, 10.5);  // DRAM not read this time
  m.add(gpm(0.0, 0.0), 14.9, 15.4);  // across the end: the stop
  const auto r = m.result();
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->samples, 3);
  EXPECT_DOUBLE_EQ(r->seconds, 5);
  EXPECT_NEAR(*r->sm_active, (0.6 * 1 + 0.9 * 3 + 0.2 * 1) / 5, 1e-12);
  EXPECT_NEAR(*r->dram_bw, (0.9 * 1 + 1.0 * 3) / 4, 1e-12);
  EXPECT_FALSE(r->tensor_active.has_value());
}

// A steady value comes back exactly, whatever the reads' times: CI printed a steady 0.875 as 0.87 when it
// was summed as value x seconds over reads of uneven length.
TEST(WindowActivityMeter, ASteadyValueComesBackExactly) {
  WindowActivityMeter m(0, 100);
  double t = 0.013;
  for (int i = 0; i < 97; ++i) {
    const double s = 0.1 + 0.0137 * (i % 11);
    m.add(gpm(0.875, 0.375), t, t + s);
    t += s;
  }
  const auto r = m.result();
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(*r->sm_active, 0.875);
  EXPECT_EQ(*r->dram_bw, 0.375);
}

TEST(WindowActivityMeter, NoReadInTheWindowIsNone) {
  WindowActivityMeter m(5, 15);
  EXPECT_FALSE(m.result().has_value());
  m.add(gpm(0.5, 0.5), 1, 2);
  EXPECT_FALSE(m.result().has_value());
  m.add(GpmActivity{}, 6, 7);  // a read without any figure
  EXPECT_FALSE(m.result().has_value());
}

TEST(WindowActivity, FindsTheGpuOrItsMigInstanceByUuid) {
  GpuDeviceInfo d;
  d.uuid = "GPU-a";
  d.gpm = gpm(0.3, 0.2);
  MigInstanceInfo mig;
  mig.uuid = "MIG-b";
  mig.gpm = gpm(0.7, 0.1);
  d.mig_instances.push_back(mig);
  EXPECT_DOUBLE_EQ(*gpm_of({d}, "GPU-a")->sm_active, 0.3);
  EXPECT_DOUBLE_EQ(*gpm_of({d}, "MIG-b")->sm_active, 0.7);
  EXPECT_FALSE(gpm_of({d}, "GPU-c").has_value());
}

}  // namespace
}  // namespace gpupack::verify
