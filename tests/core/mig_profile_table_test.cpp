// The profile tables against ../shared/reference/mig.md, row by row, for the rows seen on real hardware.
#include <gtest/gtest.h>

#include "core/gpu_catalog.hpp"

namespace gpupack {

namespace {

struct Expected {
  const char* gpu;
  const char* profile;
  int id;
  int memory_slices;
  int max_count;
  int sms;
  double memory_gib;
  std::vector<int> starts;
};

const std::vector<int> k1g8{0, 1, 2, 3, 4, 5, 6};

const Expected kRows[] = {
    // A100-40GB
    {"A100-40GB", "1g.5gb", 19, 1, 7, 14, 4.75, k1g8},
    {"A100-40GB", "1g.5gb+me", 20, 1, 1, 14, 4.75, k1g8},
    {"A100-40GB", "1g.10gb", 15, 2, 4, 14, 9.75, {0, 2, 4, 6}},
    {"A100-40GB", "2g.10gb", 14, 2, 3, 28, 9.75, {0, 2, 4}},
    {"A100-40GB", "3g.20gb", 9, 4, 2, 42, 19.62, {0, 4}},
    {"A100-40GB", "4g.20gb", 5, 4, 1, 56, 19.62, {0}},
    {"A100-40GB", "7g.40gb", 0, 8, 1, 98, 39.5, {0}},
    // A100-80GB
    {"A100-80GB", "1g.10gb", 19, 1, 7, 14, 9.75, k1g8},
    {"A100-80GB", "1g.20gb", 15, 2, 4, 14, 19.5, {0, 2, 4, 6}},
    {"A100-80GB", "2g.20gb", 14, 2, 3, 28, 19.5, {0, 2, 4}},
    {"A100-80GB", "3g.40gb", 9, 4, 2, 42, 39.25, {0, 4}},
    {"A100-80GB", "4g.40gb", 5, 4, 1, 56, 39.25, {0}},
    {"A100-80GB", "7g.80gb", 0, 8, 1, 98, 79.0, {0}},
    // H100 80GB: Hopper SM counts are not slices x 16
    {"H100-80GB", "1g.10gb", 19, 1, 7, 16, 9.75, k1g8},
    {"H100-80GB", "1g.10gb+me", 20, 1, 1, 16, 9.75, k1g8},
    {"H100-80GB", "1g.20gb", 15, 2, 4, 26, 19.5, {0, 2, 4, 6}},
    {"H100-80GB", "2g.20gb", 14, 2, 3, 32, 19.5, {0, 2, 4}},
    {"H100-80GB", "3g.40gb", 9, 4, 2, 60, 39.5, {0, 4}},
    {"H100-80GB", "4g.40gb", 5, 4, 1, 64, 39.5, {0}},
    {"H100-80GB", "7g.80gb", 0, 8, 1, 132, 79.25, {0}},
    // H100 NVL
    {"H100-94GB", "1g.12gb", 19, 1, 7, 16, 10.75, k1g8},
    {"H100-94GB", "1g.24gb", 15, 2, 4, 26, 21.62, {0, 2, 4, 6}},
    {"H100-94GB", "2g.24gb", 14, 2, 3, 32, 21.62, {0, 2, 4}},
    {"H100-94GB", "3g.47gb", 9, 4, 2, 60, 46.38, {0, 4}},
    {"H100-94GB", "4g.47gb", 5, 4, 1, 64, 46.38, {0}},
    {"H100-94GB", "7g.94gb", 0, 8, 1, 132, 93.12, {0}},
    // H200
    {"H200", "1g.18gb", 19, 1, 7, 16, 16.0, k1g8},
    {"H200", "1g.35gb", 15, 2, 4, 26, 32.25, {0, 2, 4, 6}},
    {"H200", "2g.35gb", 14, 2, 3, 32, 32.25, {0, 2, 4}},
    {"H200", "3g.71gb", 9, 4, 2, 60, 69.5, {0, 4}},
    {"H200", "4g.71gb", 5, 4, 1, 64, 69.5, {0}},
    {"H200", "7g.141gb", 0, 8, 1, 132, 139.75, {0}},
    // GH200 144GB and B200: the rows the reference gives
    {"GH200-144GB", "1g.18gb", 19, 1, 7, 16, 17.5, k1g8},
    {"GH200-144GB", "2g.36gb", 14, 2, 3, 32, 35.25, {0, 2, 4}},
    {"B200", "1g.23gb", 19, 1, 7, 18, 22.0, k1g8},
    {"B200", "1g.45gb", 15, 2, 4, 30, 44.25, {0, 2, 4, 6}},
    {"B200", "2g.45gb", 14, 2, 3, 36, 44.25, {0, 2, 4}},
    // A30: 4 memory slices
    {"A30", "1g.6gb", 14, 1, 4, 14, 5.81, {0, 1, 2, 3}},
    {"A30", "1g.6gb+me", 21, 1, 1, 14, 5.81, {0, 1, 2, 3}},
    {"A30", "2g.12gb", 5, 2, 2, 28, 11.69, {0, 2}},
    {"A30", "2g.12gb+me", 6, 2, 1, 28, 11.69, {0, 2}},
    {"A30", "4g.24gb", 0, 4, 1, 56, 23.44, {0}},
    // RTX PRO 6000 Blackwell: a 12-unit axis
    {"RTXPRO6000", "1g.24gb", 14, 3, 4, 46, 22.25, {0, 3, 6, 9}},
    {"RTXPRO6000", "2g.48gb", 5, 6, 2, 94, 44.5, {0, 6}},
    {"RTXPRO6000", "4g.96gb", 0, 12, 1, 188, 89.25, {0}},
};

}  // namespace

TEST(MigProfileTable, MatchesReference) {
  const GpuCatalog catalog = builtin_catalog();
  for (const Expected& e : kRows) {
    SCOPED_TRACE(std::string(e.gpu) + " " + e.profile);
    const GpuModel& m = catalog.get(e.gpu);
    ASSERT_TRUE(m.mig);
    const int i = m.mig->find_profile(e.profile);
    ASSERT_GE(i, 0);
    const MigProfile& p = m.mig->profiles[i];
    EXPECT_EQ(p.gi_profile_id, e.id);
    EXPECT_EQ(p.memory_slices, e.memory_slices);
    EXPECT_EQ(p.max_count, e.max_count);
    EXPECT_EQ(p.sms, e.sms);
    EXPECT_DOUBLE_EQ(p.memory_gib, e.memory_gib);
    EXPECT_EQ(p.placement_starts, e.starts);
  }
}

TEST(MigProfileTable, GeometryPerFamily) {
  const GpuCatalog catalog = builtin_catalog();
  for (const char* gpu : {"A100-40GB", "A100-80GB", "H100-80GB", "H100-94GB", "H200", "GH200-96GB", "GH200-144GB",
                          "B200", "GB200"}) {
    const MigGeometry& g = *catalog.get(gpu).mig;
    EXPECT_EQ(g.memory_slices, 8) << gpu;
    EXPECT_EQ(g.compute_slices, 7) << gpu;
    EXPECT_EQ(g.max_instances, 7) << gpu;
    EXPECT_EQ(g.profiles.size(), 7u) << gpu;
  }
  EXPECT_EQ(catalog.get("A30").mig->memory_slices, 4);
  EXPECT_EQ(catalog.get("A30").mig->compute_slices, 4);
  EXPECT_EQ(catalog.get("RTXPRO6000").mig->memory_slices, 12);
  EXPECT_EQ(catalog.get("RTXPRO6000").mig->max_instances, 4);
}

TEST(MigProfileTable, UnconfirmedValuesStayMarked) {
  const GpuCatalog catalog = builtin_catalog();
  // mig.md: H200 placements UNCONFIRMED; GH200 96GB ids, SMs, placements UNCONFIRMED; B200 3g/4g/7g SMs.
  EXPECT_TRUE(catalog.get("H200").mig->profiles[0].is_unconfirmed("placement_starts"));
  const MigGeometry& gh96 = *catalog.get("GH200-96GB").mig;
  for (const auto& p : gh96.profiles) {
    EXPECT_TRUE(p.is_unconfirmed("gi_profile_id")) << p.name;
    EXPECT_TRUE(p.is_unconfirmed("sms")) << p.name;
  }
  const MigGeometry& b200 = *catalog.get("B200").mig;
  EXPECT_TRUE(b200.profiles[b200.find_profile("3g.90gb")].is_unconfirmed("sms"));
  EXPECT_TRUE(b200.profiles[b200.find_profile("7g.180gb")].is_unconfirmed("memory_gib"));
  EXPECT_FALSE(b200.profiles[b200.find_profile("1g.23gb")].is_unconfirmed("sms"));
  // Real -lgipp rows are not marked.
  for (const auto& p : catalog.get("A100-80GB").mig->profiles) {
    EXPECT_FALSE(p.is_unconfirmed("placement_starts")) << p.name;
    EXPECT_FALSE(p.is_unconfirmed("sms")) << p.name;
  }
}

TEST(MigProfileTable, EstimatesAreConservative) {
  // Estimated SMs never exceed the GPU's SM count and grow with compute slices.
  const GpuCatalog catalog = builtin_catalog();
  for (const auto& m : catalog.models()) {
    if (!m.mig) continue;
    for (const auto& p : m.mig->profiles) {
      EXPECT_GT(p.sms, 0) << m.name << " " << p.name;
      EXPECT_LE(p.sms, m.sm_count) << m.name << " " << p.name;
      EXPECT_GT(p.memory_gib, 0) << m.name << " " << p.name;
      EXPECT_LE(p.memory_gib, m.memory_gib) << m.name << " " << p.name;
    }
  }
}

TEST(MigProfileTable, FindProfileAcceptsResourceNames) {
  const GpuCatalog catalog = builtin_catalog();
  const MigGeometry& g = *catalog.get("A100-80GB").mig;
  EXPECT_EQ(g.find_profile("1G.10GB"), g.find_profile("1g.10gb"));
  EXPECT_EQ(g.find_profile("nvidia.com/mig-3g.40gb"), g.find_profile("3g.40gb"));
  EXPECT_EQ(g.find_profile("3g.40"), -1);
  EXPECT_EQ(g.find_profile(""), -1);
}

}  // namespace gpupack
