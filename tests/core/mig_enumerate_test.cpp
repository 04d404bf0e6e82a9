#include "core/mig_enumerate.hpp"

#include <gtest/gtest.h>

#include <set>

#include "core/gpu_catalog.hpp"
#include "core/mig_oracle.hpp"

namespace gpupack {

namespace {

std::set<std::vector<int>> as_set(const std::vector<MigLayout>& layouts) {
  std::set<std::vector<int>> out;
  for (const auto& l : layouts) out.insert(l.counts);
  return out;
}

// Every valid count vector by brute force, over the profiles allowed by `include_variants`.
std::set<std::vector<int>> brute_force_layouts(const MigGeometry& g, bool include_variants) {
  std::set<std::vector<int>> out;
  testing::for_each_count_vector(testing::max_count_limits(g), [&](const std::vector<int>& counts) {
    for (size_t i = 0; i < counts.size(); ++i) {
      if (counts[i] > 0 && g.profiles[i].is_variant() && !include_variants) return;
    }
    if (testing::brute_force_fits(g, counts)) out.insert(counts);
  });
  return out;
}

class MigEnumerateTest : public ::testing::Test {
 protected:
  GpuCatalog catalog = builtin_catalog();
};

}  // namespace

TEST_F(MigEnumerateTest, LayoutCountsPerFamily) {
  struct Case {
    const char* gpu;
    bool variants;
    bool maximal;
    size_t count;
  };
  // Counts cross-checked by the brute force below; pinned here so a data change that alters them is seen.
  for (const Case& c : std::vector<Case>{
           {"A100-80GB", false, false, 77},  {"A100-80GB", false, true, 28}, {"A100-80GB", true, false, 127},
           {"A100-80GB", true, true, 44},    {"A100-40GB", false, true, 28}, {"H100-80GB", false, true, 28},
           {"H200", false, false, 77},       {"A30", false, false, 9},       {"A30", false, true, 4},
           {"A30", true, false, 19},         {"A30", true, true, 8},         {"RTXPRO6000", false, false, 9},
           {"RTXPRO6000", false, true, 4},   {"RTXPRO6000", true, false, 114}, {"RTXPRO6000", true, true, 63},
       }) {
    const auto layouts = enumerate_layouts(*catalog.get(c.gpu).mig, {c.variants, c.maximal});
    EXPECT_EQ(layouts.size(), c.count) << c.gpu << (c.variants ? " --media" : "") << (c.maximal ? " --maximal" : "");
  }
}

// Property: the enumeration is exactly the set of valid multisets found by brute force, for every model,
// with and without variants; and every emitted placement is valid.
TEST_F(MigEnumerateTest, EqualsBruteForceOnEveryModel) {
  for (const auto& m : catalog.models()) {
    if (!m.mig) continue;
    for (bool variants : {false, true}) {
      SCOPED_TRACE(m.name + (variants ? " with variants" : ""));
      const auto layouts = enumerate_layouts(*m.mig, {variants, false});
      const auto got = as_set(layouts);
      EXPECT_EQ(got.size(), layouts.size()) << "duplicates in the enumeration";
      EXPECT_EQ(got, brute_force_layouts(*m.mig, variants));
      for (const auto& l : layouts) {
        ASSERT_TRUE(placements_are_valid(*m.mig, l.instances));
        ASSERT_EQ(static_cast<int>(l.instances.size()), instance_count(l.counts));
        ASSERT_TRUE(validate_layout(*m.mig, l.counts).valid);
      }
    }
  }
}

// Property: nothing can be added to a maximal layout, and every non-maximal layout can be extended.
TEST_F(MigEnumerateTest, MaximalMeansNothingFits) {
  for (const auto& m : catalog.models()) {
    if (!m.mig) continue;
    for (bool variants : {false, true}) {
      const auto all = enumerate_layouts(*m.mig, {variants, false});
      const auto maximal = as_set(enumerate_layouts(*m.mig, {variants, true}));
      ASSERT_FALSE(maximal.empty()) << m.name;
      for (const auto& l : all) {
        bool extendable = false;
        for (size_t p = 0; p < l.counts.size(); ++p) {
          if (m.mig->profiles[p].is_variant() && !variants) continue;
          auto bigger = l.counts;
          ++bigger[p];
          extendable = extendable || validate_layout(*m.mig, bigger).valid;
        }
        EXPECT_EQ(maximal.count(l.counts) == 1, !extendable) << m.name << " " << describe_layout(*m.mig, l.counts);
      }
    }
  }
}

TEST_F(MigEnumerateTest, VariantsOnlyWithMedia) {
  const MigGeometry& g = *catalog.get("H100-80GB").mig;
  const int me = g.find_profile("1g.10gb+me");
  for (const auto& l : enumerate_layouts(g, {false, false})) EXPECT_EQ(l.counts[me], 0);
  bool seen = false;
  for (const auto& l : enumerate_layouts(g, {true, false})) {
    EXPECT_LE(l.counts[me], 1);
    seen = seen || l.counts[me] == 1;
  }
  EXPECT_TRUE(seen);
}

TEST_F(MigEnumerateTest, MaximalA100IncludesKnownLayoutsAndExcludesSubsets) {
  const MigGeometry& g = *catalog.get("A100-80GB").mig;
  const auto maximal = as_set(enumerate_layouts(g, {false, true}));
  auto counts = [&](std::initializer_list<std::pair<const char*, int>> items) {
    std::vector<int> c(g.profiles.size(), 0);
    for (auto [name, n] : items) c[g.find_profile(name)] = n;
    return c;
  };
  EXPECT_TRUE(maximal.count(counts({{"7g.80gb", 1}})));
  EXPECT_TRUE(maximal.count(counts({{"1g.10gb", 7}})));
  EXPECT_TRUE(maximal.count(counts({{"4g.40gb", 1}, {"3g.40gb", 1}})));
  EXPECT_TRUE(maximal.count(counts({{"3g.40gb", 1}, {"2g.20gb", 1}, {"1g.10gb", 2}})));  // all-balanced
  EXPECT_FALSE(maximal.count(counts({{"3g.40gb", 1}})));
  EXPECT_FALSE(maximal.count(counts({{"1g.10gb", 6}})));
}

TEST_F(MigEnumerateTest, CreationOrderIsLargestFirst) {
  for (const auto& m : catalog.models()) {
    if (!m.mig) continue;
    for (const auto& l : enumerate_layouts(*m.mig, {true, false})) {
      for (size_t i = 1; i < l.instances.size(); ++i) {
        EXPECT_GE(m.mig->profiles[l.instances[i - 1].profile].memory_slices,
                  m.mig->profiles[l.instances[i].profile].memory_slices);
      }
    }
  }
}

}  // namespace gpupack
