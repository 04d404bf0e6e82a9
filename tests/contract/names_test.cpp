#include "contract/names.hpp"

#include <gtest/gtest.h>

#include "core/errors.hpp"

namespace gpupack {

TEST(Names, Dns1123Label) {
  EXPECT_TRUE(is_dns1123_label("llm-serving"));
  EXPECT_TRUE(is_dns1123_label("a"));
  EXPECT_TRUE(is_dns1123_label(std::string(63, 'a')));
  EXPECT_FALSE(is_dns1123_label(std::string(64, 'a')));
  EXPECT_FALSE(is_dns1123_label(""));
  EXPECT_FALSE(is_dns1123_label("-a"));
  EXPECT_FALSE(is_dns1123_label("a-"));
  EXPECT_FALSE(is_dns1123_label("Upper"));
  EXPECT_FALSE(is_dns1123_label("a.b"));
  EXPECT_FALSE(is_dns1123_label("a b"));
  EXPECT_THROW(require_dns1123_label("workload name", "Bad_Name"), InputError);
}

TEST(Names, LabelValue) {
  EXPECT_TRUE(is_label_value(""));
  EXPECT_TRUE(is_label_value("3g.40gb-2g.20gb-2x1g.10gb"));
  EXPECT_TRUE(is_label_value("A_b.c-D"));
  EXPECT_FALSE(is_label_value("1g.10gb+me"));
  EXPECT_FALSE(is_label_value(".a"));
  EXPECT_FALSE(is_label_value(std::string(64, 'a')));
}

TEST(Names, ScriptSafeRejectsShellMetacharacters) {
  EXPECT_TRUE(is_script_safe("GPU-2f3c1a2b-1111-2222-3333-444455556666"));
  EXPECT_TRUE(is_script_safe("/var/run/gpupack/mps/gpu0"));
  EXPECT_TRUE(is_script_safe("0=1G"));
  for (const char* bad : {"", "-rf", "a b", "a;b", "$(id)", "`id`", "a'b", "a\"b", "a\nb", "a|b", "a&b", "a>b", "a\\b",
                          "*", "~root"}) {
    EXPECT_FALSE(is_script_safe(bad)) << bad;
  }
  EXPECT_THROW(require_script_safe("node name", "a;rm -rf /"), InputError);
}

TEST(Names, ToDns1123Label) {
  EXPECT_EQ(to_dns1123_label("3g.40gb"), "3g-40gb");
  EXPECT_EQ(to_dns1123_label("1g.10gb+me"), "1g-10gb-me");
  EXPECT_EQ(to_dns1123_label("--A100_80GB--"), "a100-80gb");
  EXPECT_EQ(to_dns1123_label("..."), "x");
  EXPECT_TRUE(is_dns1123_label(to_dns1123_label(std::string(100, 'a') + "-b")));
}

}  // namespace gpupack
