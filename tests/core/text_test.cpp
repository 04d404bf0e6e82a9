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

// Issue 12: input quoted back in an error line cannot move the cursor or grow the line without limit.
TEST(Text, EscapeControlWritesEveryNonPrintableByteAsHex) {
  EXPECT_EQ(escape_control("gpu0"), "gpu0");
  EXPECT_EQ(escape_control(std::string("a\0b", 3)), "a\\x00b");
  EXPECT_EQ(escape_control("\x1b[31mred\n"), "\\x1b[31mred\\x0a");
  EXPECT_EQ(escape_control("back\\slash \x7f\xc3"), "back\\x5cslash \\x7f\\xc3");
}

TEST(Text, QuoteInputTruncatesLongInput) {
  EXPECT_EQ(quote_input("short"), "short");
  const std::string huge(50'000'000, 'x');
  const std::string quoted = quote_input(huge);
  EXPECT_EQ(quoted, std::string(kMaxQuotedInput, 'x') + "... (50000000 bytes)");
  EXPECT_EQ(quote_input("ab\ncd", 3), "ab\\x0a... (5 bytes)");
}

}  // namespace gpupack
