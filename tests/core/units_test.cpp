#include "core/units.hpp"

#include <gtest/gtest.h>

#include "core/errors.hpp"
#include "core/workload.hpp"
#include "model/model_parameters.hpp"

namespace gpupack {

TEST(Units, ParsesBinaryAndDecimalSizes) {
  EXPECT_EQ(parse_size("6GiB"), 6 * kGiB);
  EXPECT_EQ(parse_size("512MiB"), 512 * kMiB);
  EXPECT_EQ(parse_size("1.5GiB"), 3 * kGiB / 2);
  EXPECT_EQ(parse_size("2 gib"), 2 * kGiB);
  EXPECT_EQ(parse_size("1GB"), 1000u * 1000 * 1000);
  EXPECT_EQ(parse_size("100B"), 100u);
  EXPECT_EQ(parse_size("1TiB"), kTiB);
}

// Issue 32: the Kubernetes quantity suffixes, as users write them in pod specs and gpupack's DRA files do.
TEST(Units, AcceptsKubernetesBinarySuffixes) {
  EXPECT_EQ(parse_size("20Gi"), 20 * kGiB);
  EXPECT_EQ(parse_size("512Mi"), 512 * kMiB);
  EXPECT_EQ(parse_size("64Ki"), 64 * kKiB);
  EXPECT_EQ(parse_size("1Ti"), kTiB);
  EXPECT_EQ(parse_size("1.5Gi"), parse_size("1.5GiB"));
}

TEST(Units, RejectsWhatIsNotASize) {
  for (const char* bad : {"", "6", "GiB", "-1GiB", "0GiB", "0.0000001B", "1.2.3GiB", "6 GiBs", "6G", "6m", "6Gis", "1e3MiB",
                          "99999999999999999999999TiB", " 6GiB", "6GiB "}) {
    EXPECT_THROW(parse_size(bad), InputError) << bad;
  }
}

TEST(Units, FormatsWithTheLargestUnit) {
  EXPECT_EQ(format_size(6 * kGiB), "6GiB");
  EXPECT_EQ(format_size(3 * kGiB / 2), "1.5GiB");
  EXPECT_EQ(format_size(512 * kMiB), "512MiB");
  EXPECT_EQ(format_size(12), "12B");
  EXPECT_EQ(gib_to_bytes(9.75), 9984 * kMiB);
}

TEST(Workload, SloDefaultsToHalfItsBudgetAlone) {
  Workload w;
  EXPECT_FALSE(w.max_p99_inflation(ModelParameters{}.p99_alone_share_of_slo));
  w.latency_slo_ms = 20;
  EXPECT_DOUBLE_EQ(*w.max_p99_inflation(ModelParameters{}.p99_alone_share_of_slo), 2.0);
  w.p99_alone_ms = 8;
  EXPECT_DOUBLE_EQ(*w.max_p99_inflation(ModelParameters{}.p99_alone_share_of_slo), 2.5);
  EXPECT_EQ(parse_isolation("Hardware"), Isolation::hardware);
  EXPECT_THROW(parse_isolation("strong"), InputError);
  EXPECT_EQ(parse_usage_pattern("intermittent"), UsagePattern::intermittent);
}

}  // namespace gpupack
