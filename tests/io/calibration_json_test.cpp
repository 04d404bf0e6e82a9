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

namespace {
std::string calibration_error(const std::string& text) {
  try {
    parse_calibration_json(text, "bench.json");
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}
}  // namespace

// Issue 12, reproducers: the calibration object is strict; every error names the file and the field.
TEST(CalibrationJson, RejectsUnknownFieldsAndPointKeys) {
  EXPECT_NE(calibration_error(R"({"calibration": {"mps_p99_inflaton": 1.2}})")
                .find("bench.json: unknown calibration field 'mps_p99_inflaton'; accepted: timeslicing_p99_inflation"),
            std::string::npos);
  EXPECT_NE(calibration_error(R"({"calibration": {"mps_slowdown": {"3": 1.1}}})")
                .find("unknown key mps_slowdown.3 in the calibration; accepted: 2, 4, 8"),
            std::string::npos);
  EXPECT_NE(calibration_error(R"({"calibration": {"mps_capped_p99_inflation": {"60": 1.1}}})").find("accepted: 25, 50, 75"),
            std::string::npos);
}

TEST(CalibrationJson, RejectsDuplicateKeys) {
  EXPECT_NE(calibration_error(R"({"calibration": {"mps_p99_inflation": 1.2, "mps_p99_inflation": 9}})")
                .find("bench.json: key \"mps_p99_inflation\" given twice"),
            std::string::npos);
  EXPECT_NE(calibration_error(R"({"calibration": {"mps_slowdown": {"2": 1.1, "2": 1.2}}})").find("given twice"),
            std::string::npos);
}

TEST(CalibrationJson, RejectsImpossibleValuesNamingTheField) {
  EXPECT_NE(calibration_error(R"({"calibration": {"mps_capped_neighbour_throughput": {"50": 50}}})")
                .find("mps_capped_neighbour_throughput.50 must be a fraction of the throughput alone"),
            std::string::npos);
  EXPECT_NE(calibration_error(R"({"calibration": {"mps_capped_neighbour_throughput": {"50": 0}}})").find("fraction"),
            std::string::npos);
  EXPECT_NE(calibration_error(R"({"calibration": {"timeslicing_slowdown": {"2": 0.001}}})")
                .find("timeslicing_slowdown.2 must be a ratio"),
            std::string::npos);
  EXPECT_NE(calibration_error(R"({"calibration": {"mps_p99_inflation": 0.5}})").find("mps_p99_inflation must be a ratio"),
            std::string::npos);
  // Measurement noise around the boundaries is not an error.
  const Calibration c = parse_calibration_json(
      R"({"calibration": {"mps_slowdown": {"2": 0.98}, "mps_capped_neighbour_throughput": {"75": 1.01}}})", "b.json");
  EXPECT_DOUBLE_EQ(c.mps_slowdown[0], 0.98);
  EXPECT_DOUBLE_EQ(c.mps_capped_neighbour_throughput[2], 1.01);
}

TEST(CalibrationJson, NumberOverflowIsAnInputErrorNamingTheFile) {
  const std::string error = calibration_error(R"({"calibration": {"mps_p99_inflation": 1e999}})");
  EXPECT_NE(error.find("bench.json: JSON value out of range"), std::string::npos) << error;
  EXPECT_NE(calibration_error(R"({"results": [1e999], "calibration": {}})").find("bench.json"), std::string::npos);
}

TEST(CalibrationJson, TheExampleFileIsAccepted) {
  std::ifstream in(std::string(GPUPACK_SOURCE_DIR) + "/examples/bench-calibration.json");
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_NO_THROW(parse_calibration_json(text.str(), "examples/bench-calibration.json"));
}

}  // namespace gpupack
