#include "cli/table.hpp"

#include <gtest/gtest.h>

#include <sstream>

namespace gpupack {

TEST(Table, AlignsColumnsAndTrimsTrailingSpace) {
  Table t({"A", "LONGER"});
  t.add({"xyz", "1"});
  t.add({"q", "22"});
  std::ostringstream out;
  t.print(out);
  EXPECT_EQ(out.str(), "A    LONGER\nxyz  1\nq    22\n");
}

TEST(Table, FormatNumber) {
  EXPECT_EQ(format_number(9.75), "9.75");
  EXPECT_EQ(format_number(79.0), "79");
  EXPECT_EQ(format_number(19.5), "19.5");
  EXPECT_EQ(format_number(19.62), "19.62");
}

}  // namespace gpupack
