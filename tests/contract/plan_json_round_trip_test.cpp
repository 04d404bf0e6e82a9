// The plan JSON's reader and writer against each other: typed -> JSON -> typed is the same plan, and the
// plans gpupack wrote (tests/contract/data, `gpupack plan --format json` output kept from before the
// writer moved here) read and written again are the same bytes.
#include <fstream>
#include <limits>
#include <sstream>

#include <gtest/gtest.h>

#include "contract/plan_json.hpp"

namespace gpupack {

namespace {

using nlohmann::json;

std::string file_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_TRUE(in.good() || in.eof()) << path;
  return text.str();
}

PlanDocument read_text(const std::string& text) { return read_plan_json(json::parse(text), builtin_catalog()); }

// A plan with every kind of value the schema has: MIG and whole GPUs, optional values set and unset,
// strings that need escaping, fractions that have no short decimal form.
PlanDocument every_kind_of_value() {
  PlanDocument p;
  DocGpu mig{"gpu0", "node-0", 0, "A100-SXM4-80GB", GpuMode::mig_mps, {{"3g.40gb", 4, 4}, {"1g.10gb", 0, 1}}, {}, "", {}};
  DocSlice s{"s0", std::string("3g.40gb"), 4, Sharing::mps, 40ULL << 30, {}, "team-a", 3.0 / 7, 1.0 / 3, {}};
  s.predicted_sm_active = 0.79;
  s.clients.push_back({"llm", 0, "team-a", 5ULL << 30, 50, 1.09, 12.5, 80.25, "profile", true, 15.25});
  s.clients.push_back({"llm", 1, "team-a", 5ULL << 30, std::nullopt, 1.0, std::nullopt, std::nullopt, "synthetic", false});
  s.processes.push_back({0, {{"llm", 0}}, 5ULL << 30, 0.05, 50, 1.09,
                         DocPrediction{"profile", 12.5, std::nullopt, true, {"more copies than measured", "é \"quoted\""}, 0.25,
                                       DocPrediction::Observed{0.62, std::nullopt, 4, {"verify.json", "run 2/verify.json"}}}});
  s.processes.push_back({1, {{"llm", 1}}, 5ULL << 30, 1e-05, std::nullopt, 1.0, std::nullopt});
  mig.slices.push_back(s);
  mig.slices.push_back({"s1", std::string("1g.10gb"), 0, Sharing::exclusive, 10ULL << 30, {}, "", 1.0 / 7, 1.0, {}});
  mig.why = "line one\nline two\ttabbed \\ backslash";
  mig.rejected = {{GpuMode::mps, "no memory isolation"}, {GpuMode::time_slicing, "p99 x8.4"}};
  DocGpu whole{"gpu1", "node-1", 0, "H100-SXM5-80GB", GpuMode::time_slicing, {}, {}, "cheapest", {}};
  whole.slices.push_back({"s0", std::nullopt, std::nullopt, Sharing::time_slicing, 80ULL << 30,
                          {{"nb", 3, "default", 1ULL << 30, std::nullopt, 8.4, 40.0, std::nullopt, "synthetic", false}},
                          "default", 1.0, 0.5, {}});
  p.gpus = {mig, whole};
  p.unplaced = {{"huge", 0, "too_large", "needs 100 GiB; the largest GPU has 80 GiB"}};
  p.summary = {2, std::nullopt, 2, true, 4, 3, 1, 0.25, 1.0 / 3, 4.5, 9.0, std::nullopt, 512ULL << 20, "12.4"};
  p.comparison = {{"chosen", 2, 3, 1, 0, 2, 1.09, 0.95, "", 4.5, std::nullopt},
                  {"mig", 3, 3, 1, 1, std::nullopt, std::numeric_limits<double>::max(), 1.0, "slices too small",
                   std::nullopt, std::string("A100-SXM4-80GB")}};
  p.gpu_types = {{"llm", "A100-SXM4-80GB", "cheapest per replica"}};
  p.model = {8.4, 1.74, {{"25", 1.045}, {"50", 1.09}}, {{"25", 0.26}}, {{"2", 2.0}}, {{"8", 1.1}}, {}};
  number_gpus_by_node(p);
  p.workloads.push_back({"llm", std::string("reg.example.com/llm:2"), std::string("serving"), DeployKind::deployment,
                         std::nullopt, 1.5, 4ULL << 30});
  p.workloads.push_back({"nightly", std::nullopt, std::nullopt, DeployKind::cron_job, std::string("0 3 * * *"), std::nullopt,
                         std::nullopt});
  return p;
}

// Every field the input has is in the output with the same value (hand-written plans leave fields out,
// which the reader fills with their defaults).
void expect_contains(const json& output, const json& input, const std::string& path) {
  if (input.is_object()) {
    ASSERT_TRUE(output.is_object()) << path;
    for (const auto& [key, value] : input.items()) {
      ASSERT_TRUE(output.contains(key)) << path << "." << key;
      expect_contains(output.at(key), value, path + "." + key);
    }
  } else if (input.is_array()) {
    ASSERT_TRUE(output.is_array()) << path;
    ASSERT_EQ(output.size(), input.size()) << path;
    for (size_t i = 0; i < input.size(); ++i) expect_contains(output[i], input[i], path + "[" + std::to_string(i) + "]");
  } else if (input.is_number_integer() && output.is_string()) {
    EXPECT_EQ(output.get<std::string>(), std::to_string(input.get<long long>())) << path;  // ids may be numbers
  } else if (input.is_number()) {
    EXPECT_DOUBLE_EQ(output.get<double>(), input.get<double>()) << path;
  } else {
    EXPECT_EQ(output, input) << path;
  }
}

}  // namespace

TEST(PlanJsonRoundTrip, TypedToJsonToTypedIsTheSamePlan) {
  const PlanDocument plan = every_kind_of_value();
  const std::string text = plan_json_text(plan);
  EXPECT_EQ(read_text(text), plan) << text;
}

TEST(PlanJsonRoundTrip, PlansGpupackWroteReadAndWrittenAreTheSameBytes) {
  for (const char* name : {"plan-mixed-fleet.json", "plan-priced-gpu-types.json", "plan-issue15-profiles.json"}) {
    const std::string text = file_text(std::string(GPUPACK_CONTRACT_TEST_DATA "/") + name);
    ASSERT_FALSE(text.empty()) << name;
    EXPECT_EQ(plan_json_text(read_text(text)) + "\n", text) << name;
  }
}

TEST(PlanJsonRoundTrip, HandWrittenPlansKeepEveryFieldTheyHave) {
  for (const char* name : {"plan-mixed.json", "plan-consumers.json"}) {
    const json input = json::parse(file_text(std::string(GPUPACK_TEST_DATA "/") + name));
    const PlanDocument plan = read_plan_json(input, builtin_catalog());
    const std::string text = plan_json_text(plan);
    expect_contains(json::parse(text), input, name);
    EXPECT_EQ(read_text(text), plan) << name;
  }
}

}  // namespace gpupack
