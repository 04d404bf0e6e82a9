#include "io/calibration_json.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "core/errors.hpp"

namespace gpupack {

TEST(CalibrationJson, ReadsTheSampleAndKeepsDefaultsForMissingFields) {
  std::ifstream in(std::string(GPUPACK_SOURCE_DIR) + "/tests/io/bench-calibration.json");
  ASSERT_TRUE(in);
  std::stringstream text;
  text << in.rdbuf();
  const Calibration c = parse_calibration_json(text.str(), "bench.json");
  EXPECT_DOUBLE_EQ(c.timeslicing_p99_inflation, 6.2);
  EXPECT_DOUBLE_EQ(c.mps_p99_inflation, 1.9);
  EXPECT_DOUBLE_EQ(c.mps_capped_p99_inflation[1], 1.12);
  EXPECT_DOUBLE_EQ(c.mps_capped_p99_inflation[0], Calibration{}.mps_capped_p99_inflation[0]);  // not in the file
  EXPECT_DOUBLE_EQ(c.timeslicing_slowdown[2], 6.1);
  EXPECT_DOUBLE_EQ(c.mps_slowdown[0], Calibration{}.mps_slowdown[0]);
}

TEST(CalibrationJson, RejectsWhatIsNotACalibration) {
  for (const char* bad : {"{}", "[]", "not json", R"({"calibration": 3})",
                          R"({"calibration": {"mps_p99_inflation": "fast"}})",
                          R"({"calibration": {"mps_p99_inflation": -1}})",
                          R"({"calibration": {"timeslicing_slowdown": [2, 3, 5]}})",
                          R"({"calibration": {"mps_slowdown": {"2": null}}})"}) {
    EXPECT_THROW(parse_calibration_json(bad, "x.json"), InputError) << bad;
  }
  EXPECT_NO_THROW(parse_calibration_json(R"({"calibration": {}, "results": []})", "x.json"));
}

}  // namespace gpupack
