#include "verify/verify_setup.hpp"

#include <gtest/gtest.h>

#include "core/errors.hpp"
#include "render/targets.hpp"
#include "verify_test_plan.hpp"

namespace gpupack::verify {
namespace {

std::vector<GpuDeviceInfo> one_h100() {
  GpuDeviceInfo d;
  d.index = 0;
  d.uuid = "GPU-1234";
  d.name = "NVIDIA H100 80GB HBM3";
  return {d};
}

SetupRequest runs() {
  SetupRequest r;
  r.runs = {{"fast", "python3 fast.py"}, {"batch", "./batch"}};
  r.slo_ms = {{"fast", 30}};
  return r;
}

TEST(VerifySetup, MpsSliceGetsTheRenderedDefaultsAndEveryReplicaItsRenderedEnvironment) {
  const auto json = testing::mps_test_plan();
  const VerifySetup s = build_setup(read_plan_json(json, builtin_catalog()), runs(), one_h100());
  EXPECT_EQ(s.node, "node-0");
  ASSERT_EQ(s.slices.size(), 1u);
  const SliceSetup& slice = s.slices[0];
  EXPECT_EQ(slice.device_uuid, "GPU-1234");
  ASSERT_TRUE(slice.mps.has_value());
  EXPECT_EQ(slice.mps->active_thread_percentage, 40);
  EXPECT_EQ(slice.mps->pinned_mem_limit_text(), "2560M");
  EXPECT_DOUBLE_EQ(slice.predicted_throughput, 0.97);
  ASSERT_EQ(slice.replicas.size(), 4u);
  const ReplicaSetup& fast0 = slice.replicas[1];
  EXPECT_EQ(fast0.name(), "fast-0");
  EXPECT_EQ(fast0.command, "python3 fast.py");
  EXPECT_EQ(fast0.env.at("CUDA_VISIBLE_DEVICES"), "GPU-1234");
  EXPECT_EQ(fast0.env.at("CUDA_MPS_ACTIVE_THREAD_PERCENTAGE"), "40");
  EXPECT_EQ(fast0.env.at("CUDA_MPS_PINNED_DEVICE_MEM_LIMIT"), "0=1536M");
  EXPECT_DOUBLE_EQ(fast0.predicted_p99_inflation, 1.74);
  EXPECT_EQ(fast0.slo_ms, 30.0);
  EXPECT_FALSE(slice.replicas[0].slo_ms.has_value());  // batch has no SLO
}

TEST(VerifySetup, TheEnvironmentIsWhatRenderWritesIntoTheClientEnvFile) {
  const auto json = testing::mps_test_plan();
  const PlanDocument plan = read_plan_json(json, builtin_catalog());
  const VerifySetup s = build_setup(plan, runs(), one_h100());
  std::string env_file;
  for (const auto& f : render_mps_target(plan).files) {
    if (f.path.find("clients/fast-1.env") != std::string::npos) env_file = f.content;
  }
  ASSERT_FALSE(env_file.empty());
  for (const auto& [key, value] : s.slices[0].replicas[2].env) {
    if (key == "CUDA_VISIBLE_DEVICES") continue;  // the daemon's, by UUID, in start.sh
    EXPECT_NE(env_file.find(key + "=" + value + "\n"), std::string::npos) << key;
  }
}

TEST(VerifySetup, TimeSlicingReplicasGetOnlyTheirDevice) {
  auto json = testing::mps_test_plan();
  json["gpus"][0]["mode"] = "time-slicing";
  json["gpus"][0]["slices"][0]["sharing"] = "time-slicing";
  for (auto& c : json["gpus"][0]["slices"][0]["clients"]) c["mps_active_thread_percentage"] = nullptr;
  for (auto& p : json["placements"]) p["mps_active_thread_percentage"] = nullptr;
  const VerifySetup s = build_setup(read_plan_json(json, builtin_catalog()), runs(), one_h100());
  EXPECT_FALSE(s.slices[0].mps.has_value());
  EXPECT_EQ(s.slices[0].replicas[0].env, (std::map<std::string, std::string>{{"CUDA_VISIBLE_DEVICES", "GPU-1234"}}));
}

void expect_input_error(const std::function<void()>& f, const std::string& fragment) {
  try {
    f();
    ADD_FAILURE() << "no InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
  }
}

TEST(VerifySetup, BadInputIsOneInputErrorNamingIt) {
  const auto json = testing::mps_test_plan();
  const PlanDocument plan = read_plan_json(json, builtin_catalog());
  SetupRequest unknown = runs();
  unknown.runs["ranker"] = "./ranker";
  expect_input_error([&] { build_setup(plan, unknown, one_h100()); }, "no workload named 'ranker'");
  SetupRequest missing = runs();
  missing.runs.erase("batch");
  expect_input_error([&] { build_setup(plan, missing, one_h100()); }, "--run batch=COMMAND");
  expect_input_error([&] { build_setup(plan, runs(), {}); }, "GPU gpu0 (index 0 on node node-0, H100-SXM5-80GB) is not here");
  SetupRequest node = runs();
  node.node = "node-7";
  expect_input_error([&] { build_setup(plan, node, one_h100()); }, "--node node-7");
  SetupRequest plain = runs();
  plain.plain = {"other"};
  expect_input_error([&] { build_setup(plan, plain, one_h100()); }, "--plain other");
}

TEST(VerifySetup, MigSlicesMapToExistingInstancesOnly) {
  auto json = testing::mps_test_plan();
  json["gpus"][0]["mode"] = "mig+mps";
  json["gpus"][0]["mig"] = nlohmann::json::parse(R"([{"profile":"3g.40gb","start":0,"size":4}])");
  json["gpus"][0]["slices"][0]["profile"] = "3g.40gb";
  json["gpus"][0]["slices"][0]["start"] = 0;
  const PlanDocument plan = read_plan_json(json, builtin_catalog());
  expect_input_error([&] { build_setup(plan, runs(), one_h100()); }, "verify never creates or changes MIG instances");
  auto devices = one_h100();
  MigInstanceInfo mig;
  mig.uuid = "MIG-abcd";
  mig.profile = "3g.40gb";
  mig.placement_start = 0;
  devices[0].mig_instances.push_back(mig);
  const VerifySetup s = build_setup(plan, runs(), devices);
  EXPECT_EQ(s.slices[0].device_uuid, "MIG-abcd");
  EXPECT_EQ(s.slices[0].replicas[0].env.at("CUDA_VISIBLE_DEVICES"), "MIG-abcd");
}

TEST(VerifySetup, ProfilePredictionsOfThePlanReachTheirReplicasSyntheticOnesDoNot) {
  auto json = testing::mps_test_plan();
  for (auto& p : json["placements"]) {
    if (p["workload"] == "fast") {
      p["predicted_p99_ms"] = 12.5;
      p["predicted_req_per_s"] = 80.0;
      p["prediction_source"] = "profile";
      p["extrapolated"] = p["replica"] == 2;
      if (p["replica"] == 0) p["predicted_worst_copy_p99_ms"] = 14.0;  // copies from their grid: the worst copy's
    } else {
      p["predicted_p99_ms"] = 9.0;  // p99_alone_ms x inflation: the solo run measures it better
      p["predicted_req_per_s"] = nullptr;
      p["prediction_source"] = "synthetic";
      p["extrapolated"] = false;
    }
  }
  const VerifySetup s = build_setup(read_plan_json(json, builtin_catalog()), runs(), one_h100());
  const auto& replicas = s.slices.at(0).replicas;
  ASSERT_EQ(replicas.size(), 4u);
  EXPECT_FALSE(replicas[0].profile_p99_ms.has_value());  // batch
  EXPECT_FALSE(replicas[0].fully_profiled());
  EXPECT_DOUBLE_EQ(*replicas[1].profile_p99_ms, 12.5);
  EXPECT_DOUBLE_EQ(*replicas[1].profile_req_per_s, 80);
  EXPECT_TRUE(replicas[1].fully_profiled());
  EXPECT_FALSE(replicas[1].extrapolated);
  EXPECT_TRUE(replicas[3].extrapolated);
  EXPECT_DOUBLE_EQ(replicas[1].predicted_p99_inflation, 1.74);
  EXPECT_EQ(replicas[1].profile_worst_copy_p99_ms, 14.0);
  EXPECT_FALSE(replicas[3].profile_worst_copy_p99_ms.has_value());
}

// The setup reads every prediction from the typed plan (read_plan_json's PlanDocument), never from the JSON a
// second time: a figure changed in the typed plan after reading is the one a replica gets.
TEST(VerifySetup, PredictionsComeFromTheTypedPlan) {
  auto json = testing::mps_test_plan();
  json["placements"][1]["prediction_source"] = "profile";
  json["placements"][1]["predicted_p99_ms"] = 12.5;
  json["placements"][1]["predicted_req_per_s"] = 80.0;
  PlanDocument plan = read_plan_json(json, builtin_catalog());
  DocSlice& slice = plan.gpus.at(0).slices.at(0);
  ASSERT_EQ(slice.clients.size(), 4u);
  EXPECT_EQ(slice.clients[1].predicted_p99_ms, 12.5);  // as read
  slice.predicted_throughput = 0.5;
  slice.clients[1].predicted_p99_inflation = 2.5;
  slice.clients[1].predicted_p99_ms = 7.0;
  slice.clients[1].extrapolated = true;
  const VerifySetup s = build_setup(plan, runs(), one_h100());
  const SliceSetup& setup = s.slices.at(0);
  EXPECT_DOUBLE_EQ(setup.predicted_throughput, 0.5);
  EXPECT_DOUBLE_EQ(setup.replicas[1].predicted_p99_inflation, 2.5);
  EXPECT_DOUBLE_EQ(*setup.replicas[1].profile_p99_ms, 7.0);
  EXPECT_DOUBLE_EQ(*setup.replicas[1].profile_req_per_s, 80);
  EXPECT_TRUE(setup.replicas[1].extrapolated);
}

// Older plans and partial profiles: no inflation reads as 1, no slice throughput as alone, a profile figure
// that is not positive as none, and a profile prediction with no figure as no profile prediction at all.
TEST(VerifySetup, AbsentOrNonPositivePredictionsReadAsNone) {
  auto json = testing::mps_test_plan();
  json["gpus"][0]["slices"][0].erase("predicted_throughput");
  json["placements"][0].erase("predicted_p99_inflation");
  json["placements"][1]["prediction_source"] = "profile";
  json["placements"][1]["predicted_p99_ms"] = 0.0;
  json["placements"][1]["predicted_req_per_s"] = 55.0;
  json["placements"][2]["prediction_source"] = "profile";
  json["placements"][2]["predicted_p99_ms"] = -1.0;
  json["placements"][2]["extrapolated"] = true;
  const VerifySetup s = build_setup(read_plan_json(json, builtin_catalog()), runs(), one_h100());
  const auto& replicas = s.slices.at(0).replicas;
  EXPECT_DOUBLE_EQ(s.slices[0].predicted_throughput, 1.0);
  EXPECT_DOUBLE_EQ(replicas[0].predicted_p99_inflation, 1.0);
  EXPECT_FALSE(replicas[1].profile_p99_ms.has_value());
  EXPECT_DOUBLE_EQ(*replicas[1].profile_req_per_s, 55);
  EXPECT_FALSE(replicas[2].profile_p99_ms || replicas[2].profile_req_per_s);
  EXPECT_FALSE(replicas[2].extrapolated);  // extrapolated says nothing without a profile figure
}

}  // namespace
}  // namespace gpupack::verify
