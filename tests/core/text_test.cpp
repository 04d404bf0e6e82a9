#include "core/text.hpp"

#include <gtest/gtest.h>

namespace gpupack {

TEST(Text, FoldNameDropsCaseAndPunctuation) {
  EXPECT_EQ(fold_name("NVIDIA H100 80GB HBM3"), "nvidiah10080gbhbm3");
  EXPECT_EQ(fold_name("a100-80gb"), fold_name("A100_80GB"));
  EXPECT_EQ(fold_name("--"), "");
}

TEST(Text, EditDistance) {
  EXPECT_EQ(edit_distance("", ""), 0u);
  EXPECT_EQ(edit_distance("a100", "a100"), 0u);
  EXPECT_EQ(edit_distance("a100", "a10"), 1u);
  EXPECT_EQ(edit_distance("h100", "a100"), 1u);
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);
}

TEST(Text, IEqualsAndJoin) {
  EXPECT_TRUE(iequals("1G.10GB", "1g.10gb"));
  EXPECT_FALSE(iequals("1g.10gb", "1g.10g"));
  EXPECT_EQ(join({"a", "b", "c"}, ", "), "a, b, c");
  EXPECT_EQ(join({}, ", "), "");
}

}  // namespace gpupack
