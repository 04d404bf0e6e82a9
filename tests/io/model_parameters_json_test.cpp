// The model parameters file (io/model_parameters_json.hpp): round trip, partial files, detection of a bench
// report, the plan's record, and one clear error per bad input.
#include "io/model_parameters_json.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "core/errors.hpp"
#include "io/calibration_json.hpp"

namespace gpupack {

namespace {

std::string model_error(const std::string& text) {
  try {
    parse_model_input(text, "my.json");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

std::string file_with(const std::string& parameters) {
  return R"({"schema": "gpupack-model", "version": 1, "parameters": {)" + parameters + "}}";
}

// Every value of every parameter, for comparisons.
std::vector<double> values_of(const ModelParameters& m) {
  std::vector<double> out;
  for (const ParameterSpec& s : parameter_specs()) {
    for (size_t i = 0; i < s.size; ++i) out.push_back(s.get(m, i));
  }
  return out;
}

}  // namespace

TEST(ModelParametersJson, EveryParameterHasASourceAndItsBuiltInValueIsAccepted) {
  const ModelParameters m;
  for (const ParameterSpec& s : parameter_specs()) {
    EXPECT_FALSE(s.source.empty()) << s.name;
    EXPECT_EQ(find_parameter(s.name), &s);
    for (size_t i = 0; i < s.size; ++i) EXPECT_TRUE(s.accepts(s.get(m, i))) << s.name;
  }
}

TEST(ModelParametersJson, TheBuiltInValuesAreTodays) {
  const ModelParameters m;
  EXPECT_DOUBLE_EQ(m.mps_launch_cost_per_client, 0.10);
  EXPECT_DOUBLE_EQ(m.dram_queueing, 0.4);
  EXPECT_DOUBLE_EQ(m.colocated_tail_ratio, 1.3);
  EXPECT_DOUBLE_EQ(m.colocated_tail_excess, 0.4);
  EXPECT_EQ(m.tail_cap_max_clients, 16);
  EXPECT_DOUBLE_EQ(m.core_wait_ms, 4.0);
  EXPECT_DOUBLE_EQ(m.steady_kernel_share, 0.95);
  EXPECT_DOUBLE_EQ(m.burst_free, 0.4);
  EXPECT_DOUBLE_EQ(m.burst_wait, 2.0);
  EXPECT_DOUBLE_EQ(m.profiled_slo_margin, 0.12);
  EXPECT_DOUBLE_EQ(m.p99_alone_share_of_slo, 0.5);
  EXPECT_EQ(m.mps_cap_step_pct, 5);
  EXPECT_DOUBLE_EQ(m.usable_memory_share, 0.94);
  EXPECT_DOUBLE_EQ(m.slo_cap_headroom, 2.0);
  EXPECT_DOUBLE_EQ(m.calibration.timeslicing_p99_inflation, 8.4);
}

TEST(ModelParametersJson, WrittenAndReadBackIsTheSame) {
  ModelParameters m;
  m.mps_launch_cost_per_client = 0.125;
  m.tail_cap_max_clients = 20;
  m.calibration.timeslicing_slowdown = {2.5, 3.5, 6.5};
  const std::string text = model_parameters_json_text(m, "refit");
  EXPECT_NE(text.find("\"schema\": \"gpupack-model\""), std::string::npos);
  EXPECT_NE(text.find("\"name\": \"refit\""), std::string::npos);
  EXPECT_NE(text.find("\"tail_cap_max_clients\": {\n      \"value\": 20,"), std::string::npos) << text;
  const ModelParameters back = parse_model_parameters_json(text, "refit.json");
  EXPECT_EQ(values_of(back), values_of(m));
  // Written again: the same text.
  EXPECT_EQ(model_parameters_json_text(back, "refit"), text);
}

TEST(ModelParametersJson, APartialFileKeepsTheOthersBuiltIn) {
  const ModelParameters m = parse_model_input(
      file_with(R"("core_wait_ms": {"value": 3.5, "source": "run 40"}, "mps_slowdown": {"value": [1.1, 1.2, 1.3]})"),
      "my.json");
  EXPECT_DOUBLE_EQ(m.core_wait_ms, 3.5);
  EXPECT_EQ(m.calibration.mps_slowdown, (std::array<double, 3>{1.1, 1.2, 1.3}));
  ModelParameters expected;
  expected.core_wait_ms = 3.5;
  expected.calibration.mps_slowdown = {1.1, 1.2, 1.3};
  EXPECT_EQ(values_of(m), values_of(expected));
  // The sources: the file's own where given, else the file's name; the others built in.
  EXPECT_EQ(source_of(m, *find_parameter("core_wait_ms")), "run 40");
  EXPECT_EQ(source_of(m, *find_parameter("mps_slowdown")), "my.json");
  EXPECT_EQ(source_of(m, *find_parameter("dram_queueing")), find_parameter("dram_queueing")->source);
  // No parameters at all: the built-in model.
  EXPECT_EQ(values_of(parse_model_input(R"({"schema": "gpupack-model", "version": 1})", "empty.json")),
            values_of(ModelParameters{}));
}

TEST(ModelParametersJson, ABenchReportIsReadAsItsCalibration) {
  std::ifstream in(std::string(GPUPACK_SOURCE_DIR) + "/examples/bench-calibration.json");
  std::stringstream text;
  text << in.rdbuf();
  const ModelParameters m = parse_model_input(text.str(), "bench.json");
  const Calibration from_bench = parse_calibration_json(text.str(), "bench.json");
  EXPECT_EQ(m.calibration.mps_p99_inflation, from_bench.mps_p99_inflation);
  EXPECT_EQ(m.calibration.timeslicing_slowdown, from_bench.timeslicing_slowdown);
  EXPECT_EQ(m.core_wait_ms, ModelParameters{}.core_wait_ms);
  EXPECT_EQ(source_of(m, *find_parameter("mps_p99_inflation")), "gpupack bench report bench.json");
}

TEST(ModelParametersJson, ThePlanRecordReadsBackToTheSameParameters) {
  ModelParameters m;
  m.burst_wait = 2.5;
  m.sources["burst_wait"] = "refit on run 40";
  const std::vector<DocModelParameter> record = model_parameters_record(m);
  ASSERT_EQ(record.size(), parameter_specs().size());
  const ModelParameters back = model_parameters_from_record(record, "plan.json");
  EXPECT_EQ(values_of(back), values_of(m));
  EXPECT_EQ(source_of(back, *find_parameter("burst_wait")), "refit on run 40");
  // A plan without the record: the built-in model.
  EXPECT_EQ(values_of(model_parameters_from_record({}, "old-plan.json")), values_of(ModelParameters{}));
  // A record with an impossible value is refused as a file's would be.
  std::vector<DocModelParameter> broken = record;
  broken.front().value = {-1};
  EXPECT_THROW(model_parameters_from_record(broken, "plan.json"), InputError);
}

TEST(ModelParametersJson, EachBadInputIsOneLineNamingTheFileTheParameterAndWhatIsAccepted) {
  struct Case {
    std::string text;
    std::string expected;
  };
  const std::vector<Case> cases{
      {"not json", "my.json"},
      {"[]", "my.json: no \"calibration\" object (a gpupack bench --json report) and no \"schema\""},
      {R"({"results": []})", "(a model parameters file: gpupack model show --format json)"},
      {R"({"schema": "gpupack-plan", "version": 1})", "my.json: \"schema\" must be \"gpupack-model\""},
      {R"({"schema": "gpupack-model", "version": 2})", "my.json: \"version\" must be 1"},
      {R"({"schema": "gpupack-model", "version": 1, "extra": 1})", "unknown key 'extra'; accepted: schema, version"},
      {R"({"schema": "gpupack-model", "version": 1, "name": 3})", "\"name\" must be a string"},
      {R"({"schema": "gpupack-model", "version": 1, "parameters": []})", "\"parameters\" must be an object"},
      {file_with(R"("mps_launch_cost": {"value": 0.1})"),
       "my.json: unknown parameter 'mps_launch_cost'; accepted: timeslicing_p99_inflation, "},
      {file_with(R"("dram_queueing": 0.4)"), "my.json: parameter dram_queueing must be an object {\"value\""},
      {file_with(R"("dram_queueing": {"value": 0.4, "note": "x"})"), "has unknown key 'note'; accepted: value, source"},
      {file_with(R"("dram_queueing": {"value": "0.4"})"),
       "my.json: parameter dram_queueing must be a factor from 0 to 10, got \"0.4\""},
      {file_with(R"("dram_queueing": {"value": -0.1})"), "parameter dram_queueing must be a factor from 0 to 10, got -0.1"},
      {file_with(R"("dram_queueing": {"value": [0.4]})"), "parameter dram_queueing must be a factor"},
      {file_with(R"("dram_queueing": {"value": 1e999})"), "my.json"},
      {file_with(R"("tail_cap_max_clients": {"value": 16.5})"),
       "parameter tail_cap_max_clients must be a whole number of clients from 1 to 10000, got 16.5"},
      {file_with(R"("timeslicing_slowdown": {"value": 2.0})"),
       "parameter timeslicing_slowdown must be an array of 3 values, each a ratio"},
      {file_with(R"("timeslicing_slowdown": {"value": [2.0, 3.0]})"), "an array of 3 values"},
      {file_with(R"("timeslicing_slowdown": {"value": [2.0, 3.0, null]})"), "an array of 3 values"},
      {file_with(R"("mps_capped_neighbour_throughput": {"value": [0, 0.5, 0.7]})"),
       "each a fraction of the throughput alone: above 0 and at most 1.05"},
      {file_with(R"("usable_memory_share": {"value": 0})"), "usable_memory_share must be a share above 0"},
      {file_with(R"("core_wait_ms": {"value": 4, "source": 4})"), "core_wait_ms's source must be a string"},
      {file_with(R"("core_wait_ms": {"value": 4}, "core_wait_ms": {"value": 5})"), "given twice"},
  };
  for (const Case& c : cases) {
    const std::string error = model_error(c.text);
    EXPECT_NE(error.find(c.expected), std::string::npos) << c.text << "\n -> " << error;
    EXPECT_EQ(error.find('\n'), std::string::npos) << error;
  }
}

}  // namespace gpupack
