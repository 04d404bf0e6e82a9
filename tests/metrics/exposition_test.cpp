#include "metrics/exposition.hpp"

#include <gtest/gtest.h>

namespace gpupack {
namespace {

TEST(Exposition, WritesHelpTypeAndEscapedSamples) {
  Exposition e;
  e.family("gpupack_x_bytes", "gauge", "An x.");
  e.sample({{"a", "plain"}, {"b", "q\"uote\\back\nline"}}, 85899345920.0);
  e.sample({}, 0.25);
  e.family("gpupack_y_total", "counter", "A y.");
  e.sample({{"a", ""}}, 3);
  EXPECT_EQ(e.text(),
            "# HELP gpupack_x_bytes An x.\n"
            "# TYPE gpupack_x_bytes gauge\n"
            "gpupack_x_bytes{a=\"plain\",b=\"q\\\"uote\\\\back\\nline\"} 85899345920\n"
            "gpupack_x_bytes 0.25\n"
            "# HELP gpupack_y_total A y.\n"
            "# TYPE gpupack_y_total counter\n"
            "gpupack_y_total{a=\"\"} 3\n");
}

TEST(Exposition, NumbersReadBackExactly) {
  std::string s;
  append_number(s, 0.1);
  s += ' ';
  append_number(s, -2);
  s += ' ';
  append_number(s, 1e300);
  s += ' ';
  append_number(s, 1.0 / 0.0);
  EXPECT_EQ(s, "0.1 -2 1e+300 +Inf");
}

}  // namespace
}  // namespace gpupack
