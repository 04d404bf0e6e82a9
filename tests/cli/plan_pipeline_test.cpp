// The one pipeline (cli/plan_pipeline.hpp) that `gpupack plan`, `gpupack render scenario.yaml` and the tests
// plan with: render's inputs (no comparison) give the plan's placements on every example and test scenario,
// the profiles change a plan where they should, and verify reads the pipeline's predictions back through
// the contract's plan reader.
#include "cli/plan_pipeline.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "contract/plan_json.hpp"
#include "core/errors.hpp"
#include "verify/verify_setup.hpp"

namespace gpupack {
namespace {

const std::string kTestScenarios = GPUPACK_PLANNER_TEST_DATA;
const std::string kProfilesDir = kTestScenarios + "/profiles-h100-2026-11-23";

// One H100 node of 16 cores asked for 30 resnets and 4 MLPs: with their profiles the host cores bind them
// (24 resnets placed; 6 and every MLP unplaced, no_host_cores); the synthetic model packs all 34 on the
// stated compute.
constexpr const char* kDense = R"(
fleet: [{model: H100-SXM5-80GB, count: 1, cpu_cores: 16}]
workloads:
  - {name: resnet18-b1, replicas: 30, memory: 1GiB, compute: 0.02, latency_slo_ms: 16.4}
  - {name: mlp-b8, replicas: 4, memory: 1GiB, compute: 0.05, latency_slo_ms: 5}
)";

// `yaml` planned as `gpupack render` plans a scenario (no comparison rows).
PlannedScenario plan_text(const std::string& yaml, const std::string& profiles_dir) {
  PlanInputs inputs;
  inputs.scenario_file = "dense.yaml";
  inputs.scenario_text = yaml;
  inputs.profiles_dir = profiles_dir;
  inputs.compare = false;
  return plan_scenario(PosixFilesystem{}, builtin_catalog(), inputs);
}

// The plan without the rows only `gpupack plan` shows.
PlanDocument deployed_part(PlanDocument document) {
  document.comparison.clear();
  document.consumers.clear();
  return document;
}

std::vector<std::string> scenario_files() {
  std::vector<std::string> out;
  for (const std::string& dir : {std::string(GPUPACK_EXAMPLES_DIR), kTestScenarios}) {
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
      if (entry.path().extension() == ".yaml" && entry.path().filename() != "no-fleet.yaml") out.push_back(entry.path());
    }
  }
  return out;
}

TEST(PlanPipeline, RenderInputsGiveThePlansPlacementsOnEveryExampleAndTestScenario) {
  const std::vector<std::string> files = scenario_files();
  ASSERT_GT(files.size(), 30u);
  for (const std::string& file : files) {
    SCOPED_TRACE(file);
    PlanInputs plan;
    plan.scenario_file = file;
    plan.profiles_dir = kProfilesDir;
    PlanInputs render = plan;
    render.compare = false;  // as render_command.cpp asks
    const PlannedScenario planned = plan_scenario(PosixFilesystem{}, builtin_catalog(), plan);
    const PlannedScenario rendered = plan_scenario(PosixFilesystem{}, builtin_catalog(), render);
    EXPECT_FALSE(planned.document.comparison.empty());
    EXPECT_FALSE(planned.document.consumers.empty());
    EXPECT_TRUE(rendered.document.comparison.empty() && rendered.document.consumers.empty());
    EXPECT_EQ(deployed_part(planned.document), rendered.document);
    EXPECT_EQ(plan_json_text(deployed_part(planned.document)), plan_json_text(rendered.document));
  }
}

TEST(PlanPipeline, ProfilesChangeThePlanWhereTheyBindIt) {
  const PlanDocument profiled = plan_text(kDense, kProfilesDir).document;
  const PlanDocument synthetic = plan_text(kDense, "").document;
  EXPECT_EQ(synthetic.summary.placed, 34);
  // The profiles bind it (the host cores or the SLO beside the MLPs: which one depends on the model's
  // contention terms, so the test asks only that they bind).
  EXPECT_LT(profiled.summary.placed, synthetic.summary.placed);
  ASSERT_FALSE(profiled.unplaced.empty());
  EXPECT_TRUE(profiled.unplaced.front().code == "no_host_cores" ||
              profiled.unplaced.front().code == "slo_not_reachable")
      << profiled.unplaced.front().code;
  for (const DocGpu& g : profiled.gpus) {
    for (const DocSlice& s : g.slices) {
      for (const DocPlacement& c : s.clients) EXPECT_EQ(c.prediction_source, "profile") << c.workload;
    }
  }
}

TEST(PlanPipeline, LoadingAppliesGpuAndConsumerAndRefusesAScenarioWithoutGpus) {
  const GpuCatalog catalog = builtin_catalog();
  PlanInputs inputs;
  inputs.scenario_file = "a.yaml";
  inputs.scenario_text = "workloads: [{name: a, memory: 1GiB, compute: 0.1}]\n";
  inputs.gpu = "L4";
  inputs.deploy_with = Consumer::dra;
  const Scenario s = load_plan_scenario(PosixFilesystem{}, catalog, inputs, ModelParameters{});
  ASSERT_EQ(s.fleet.size(), 1u);
  EXPECT_EQ(s.fleet[0].model.name, catalog.get("L4").name);
  EXPECT_TRUE(s.elastic);
  EXPECT_EQ(s.fleet[0].deploy_with, Consumer::dra);
  try {
    inputs.gpu.clear();
    load_plan_scenario(PosixFilesystem{}, catalog, inputs, ModelParameters{});
    FAIL() << "a scenario without a fleet or --gpu is refused";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "a.yaml has no 'fleet'; add one or pass --gpu MODEL");
  }
  inputs.scenario_text = kDense;
  inputs.model.file = "/nonexistent/bench.json";
  EXPECT_THROW(plan_scenario(PosixFilesystem{}, catalog, inputs), InputError);
}

// The plan's profile predictions, written as JSON and read back by the contract's reader, are what verify
// runs each replica against.
TEST(PlanPipeline, VerifyReadsThePlansPredictionsThroughThePlanReader) {
  const PlannedScenario planned = plan_text(kDense, kProfilesDir);
  const PlanDocument read = read_plan_json(nlohmann::json::parse(plan_json_text(planned.document)), builtin_catalog());
  verify::SetupRequest request;
  request.runs = {{"resnet18-b1", "./resnet"}, {"mlp-b8", "./mlp"}};
  GpuDeviceInfo h100;  // the plan's one GPU, with its MIG layout created
  h100.uuid = "GPU-1";
  h100.name = "NVIDIA H100 80GB HBM3";
  ASSERT_EQ(read.gpus.size(), 1u);
  for (const DocSlice& s : read.gpus[0].slices) {
    if (!s.profile) continue;
    MigInstanceInfo mig;
    mig.uuid = "MIG-" + s.id;
    mig.profile = *s.profile;
    mig.placement_start = static_cast<unsigned>(*s.mig_start);
    h100.mig_instances.push_back(mig);
  }
  const verify::VerifySetup setup = verify::build_setup(read, request, {h100});
  int replicas = 0;
  for (const DocGpu& g : planned.document.gpus) {
    for (const DocSlice& s : g.slices) {
      const auto slice = std::find_if(setup.slices.begin(), setup.slices.end(),
                                      [&](const verify::SliceSetup& x) { return x.slice_id == s.id; });
      ASSERT_NE(slice, setup.slices.end());
      EXPECT_DOUBLE_EQ(slice->predicted_throughput, s.predicted_throughput);
      ASSERT_EQ(slice->replicas.size(), s.clients.size());
      for (size_t i = 0; i < s.clients.size(); ++i) {
        const DocPlacement& c = s.clients[i];
        const verify::ReplicaSetup& r = slice->replicas[i];
        ASSERT_TRUE(c.predicted_p99_ms && c.predicted_req_per_s);
        ASSERT_TRUE(r.profile_p99_ms && r.profile_req_per_s) << "the profile's predictions did not reach " << r.name();
        EXPECT_NEAR(*r.profile_p99_ms, *c.predicted_p99_ms, 1e-9 * *c.predicted_p99_ms);
        EXPECT_NEAR(*r.profile_req_per_s, *c.predicted_req_per_s, 1e-9 * *c.predicted_req_per_s);
        EXPECT_NEAR(r.predicted_p99_inflation, c.predicted_p99_inflation, 1e-9);
        EXPECT_EQ(r.extrapolated, c.extrapolated);
        ++replicas;
      }
    }
  }
  EXPECT_EQ(replicas, planned.document.summary.placed);
}

// Copies of one workload predicted from its co-location grid (resnet18-b1's H100 profile: 4 copies under
// MPS with p99 3.16-4.53 ms): each placement carries the median copy's p99 as its prediction and the worst
// copy's, which the SLO check read, beside it; both reach verify.
TEST(PlanPipeline, CopiesFromTheirGridCarryTheMedianCopysP99AndTheWorstCopysTheSloCheckRead) {
  const std::string dir = kTestScenarios + "/profiles-timeslicing-h100";
  const PlannedScenario planned = plan_text(R"(
fleet: [{model: H100-SXM5-80GB, count: 1, mig: off}]
workloads:
  - {name: resnet18-b1, replicas: 4, latency_slo_ms: 16.4}
)",
                                            dir);
  const PlanDocument read = read_plan_json(nlohmann::json::parse(plan_json_text(planned.document)), builtin_catalog());
  ASSERT_EQ(read.summary.placed, 4);
  for (const DocPlacement& c : read.gpus.at(0).slices.at(0).clients) {
    ASSERT_TRUE(c.predicted_p99_ms && c.predicted_worst_copy_p99_ms) << c.workload << c.replica;
    EXPECT_NEAR(*c.predicted_p99_ms, (3.3158 + 3.5913) / 2, 0.01);  // the median of the four copies
    EXPECT_NEAR(*c.predicted_worst_copy_p99_ms, 4.5291, 0.01);
  }
}

}  // namespace
}  // namespace gpupack
