#include "core/gpu_catalog.hpp"

#include <gtest/gtest.h>

#include <set>

#include "core/errors.hpp"
#include "core/text.hpp"

namespace gpupack {

namespace {
const GpuCatalog& catalog() {
  static const GpuCatalog c = builtin_catalog();
  return c;
}
}  // namespace

TEST(GpuCatalog, ShortAliasesFromTheIssueResolve) {
  const std::pair<const char*, const char*> expected[] = {
      {"A100-40GB", "A100-SXM4-40GB"}, {"A100-80GB", "A100-SXM4-80GB"}, {"A30", "A30-24GB"},
      {"H100-80GB", "H100-SXM5-80GB"}, {"H100-94GB", "H100-NVL-94GB"},  {"H200", "H200-SXM-141GB"},
      {"GH200-96GB", "GH200-96GB"},    {"GH200-144GB", "GH200-144GB"},  {"B200", "B200-180GB"},
      {"GB200", "GB200-186GB"},        {"RTXPRO6000", "RTX-PRO-6000-BLACKWELL-96GB"},
      {"L40S", "L40S-48GB"},           {"L4", "L4-24GB"},               {"T4", "T4-16GB"},
      {"V100", "V100-SXM2-16GB"},      {"P100", "P100-PCIE-16GB"},      {"A10G", "A10G-24GB"},
      {"A100-PCIE-80GB", "A100-PCIE-80GB"}, {"H100-PCIE", "H100-PCIE-80GB"}, {"H200-NVL", "H200-NVL-141GB"},
  };
  for (const auto& [alias, name] : expected) {
    const GpuModel* m = catalog().find(alias);
    ASSERT_NE(m, nullptr) << alias;
    EXPECT_EQ(m->name, name) << alias;
  }
}

TEST(GpuCatalog, LookupIsCaseAndPunctuationInsensitive) {
  EXPECT_EQ(catalog().get("h100-80gb").name, "H100-SXM5-80GB");
  EXPECT_EQ(catalog().get("NVIDIA H100 80GB HBM3").name, "H100-SXM5-80GB");
  EXPECT_EQ(catalog().get("nvidia a100-sxm4-80gb").name, "A100-SXM4-80GB");
  EXPECT_EQ(catalog().get("NVIDIA H200").name, "H200-SXM-141GB");
  EXPECT_EQ(catalog().get("Tesla T4").name, "T4-16GB");
  EXPECT_EQ(catalog().get("rtx pro 6000").name, "RTX-PRO-6000-BLACKWELL-96GB");
}

TEST(GpuCatalog, EveryNameIsUniqueAfterFolding) {
  std::set<std::string> seen;
  for (const auto& m : catalog().models()) {
    std::vector<std::string> names{m.name};
    names.insert(names.end(), m.aliases.begin(), m.aliases.end());
    names.insert(names.end(), m.nvml_names.begin(), m.nvml_names.end());
    for (const auto& n : names) EXPECT_TRUE(seen.insert(fold_name(n)).second) << "duplicate name " << n;
  }
}

TEST(GpuCatalog, UnknownModelListsClosestMatches) {
  try {
    catalog().get("A100-8GB");
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("'A100-8GB'"), std::string::npos) << msg;
    EXPECT_NE(msg.find("A100-80GB"), std::string::npos) << msg;
    EXPECT_EQ(msg.find('\n'), std::string::npos) << "one line";
  }
  EXPECT_THROW(catalog().get(""), InputError);
  EXPECT_THROW(catalog().get("  "), InputError);
  EXPECT_EQ(catalog().closest("h100", 3).size(), 3u);
  EXPECT_EQ(catalog().closest("h100", 3)[0].substr(0, 4), "H100");
}

TEST(GpuCatalog, MpsFactsFollowArchitectureAndCuda) {
  const GpuModel& h100 = catalog().get("H100-80GB");
  const GpuModel& p100 = catalog().get("P100");
  const GpuModel& v100 = catalog().get("V100");
  EXPECT_EQ(mps_client_limit(p100, {13, 1}), 16);
  EXPECT_EQ(mps_client_limit(v100, {12, 4}), 48);
  EXPECT_EQ(mps_client_limit(h100, {13, 0}), 48);
  EXPECT_EQ(mps_client_limit(h100, {13, 1}), 60);
  EXPECT_FALSE(mps_isolates_memory(p100));
  EXPECT_TRUE(mps_isolates_memory(v100));
  EXPECT_FALSE(mps_static_sm_partitions(h100, {13, 0}));
  EXPECT_TRUE(mps_static_sm_partitions(h100, {13, 1}));
  EXPECT_FALSE(mps_static_sm_partitions(p100, {13, 1}));
}

TEST(GpuCatalog, MigOnlyOnCapableModels) {
  for (const char* yes : {"A100-40GB", "A100-80GB", "A30", "H100-80GB", "H100-94GB", "H200", "GH200-96GB",
                          "GH200-144GB", "B200", "GB200", "RTXPRO6000"}) {
    EXPECT_TRUE(catalog().get(yes).supports_mig()) << yes;
  }
  for (const char* no : {"L40S", "L4", "A10G", "T4", "V100", "P100"}) {
    EXPECT_FALSE(catalog().get(no).supports_mig()) << no;
  }
}

TEST(GpuCatalog, SpecsOfWellKnownModels) {
  EXPECT_EQ(catalog().get("A100-80GB").sm_count, 108);
  EXPECT_EQ(catalog().get("H100-80GB").sm_count, 132);
  EXPECT_EQ(catalog().get("H200").sm_count, 132);
  EXPECT_EQ(catalog().get("RTXPRO6000").sm_count, 188);
  EXPECT_EQ(catalog().get("H100-80GB").compute_capability.to_string(), "9.0");
  EXPECT_EQ(catalog().get("B200").compute_capability.to_string(), "10.0");
  EXPECT_EQ(catalog().get("P100").arch, Architecture::pascal);
}

// AWS fractional L4s (docs/fractional-gpus.md): 1/8 (3 GB, g6f.large and g6f.xlarge), 1/4 (6 GB, g6f.2xlarge),
// 1/2 (12 GB, g6f.4xlarge and gr6f.4xlarge); no MIG, no MPS inside the vGPU guest.
TEST(GpuCatalog, FractionalL4RowsMatchTheDocumentedSizes) {
  struct Expected {
    const char* alias;
    const char* name;
    int denominator;
    double memory_gib;
    std::vector<std::string> instance_types;
  };
  const Expected rows[] = {{"L4-1/8", "L4-3Q", 8, 3, {"g6f.large", "g6f.xlarge"}},
                           {"L4-1/4", "L4-6Q", 4, 6, {"g6f.2xlarge"}},
                           {"L4-1/2", "L4-12Q", 2, 12, {"g6f.4xlarge", "gr6f.4xlarge"}}};
  const GpuModel& l4 = catalog().get("L4");
  int fractional = 0;
  for (const auto& m : catalog().models()) fractional += m.is_fractional() ? 1 : 0;
  EXPECT_EQ(fractional, 3);
  for (const auto& row : rows) {
    const GpuModel& m = catalog().get(row.alias);
    EXPECT_EQ(m.name, row.name);
    ASSERT_TRUE(m.fraction.has_value()) << row.name;
    EXPECT_EQ(m.fraction->denominator, row.denominator);
    EXPECT_EQ(m.fraction->of_model, l4.name);
    EXPECT_EQ(m.fraction->instance_types, row.instance_types);
    EXPECT_DOUBLE_EQ(m.memory_gib, row.memory_gib);
    EXPECT_DOUBLE_EQ(m.compute_fraction(), 1.0 / row.denominator);
    EXPECT_EQ(m.sm_count, l4.sm_count / row.denominator);  // the share of the L4's 58 SMs, rounded down
    EXPECT_EQ(m.arch, l4.arch);
    EXPECT_FALSE(m.supports_mig());
    EXPECT_FALSE(mps_supported(m));
    EXPECT_EQ(mps_client_limit(m, {13, 1}), 0);
    EXPECT_FALSE(mps_isolates_memory(m));
    for (const auto& type : row.instance_types) EXPECT_EQ(catalog().get(type).name, row.name) << type;
  }
  EXPECT_FALSE(l4.is_fractional());
  EXPECT_TRUE(mps_supported(l4));
  EXPECT_DOUBLE_EQ(l4.compute_fraction(), 1.0);
}

}  // namespace gpupack
