// Plans of every GPU mode (the planner forced to one mode), rendered with every target: the files each
// mode needs are there and every placed replica is deployed exactly once.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <set>

#include "cli/plan_pipeline.hpp"
#include "contract/plan_json.hpp"
#include "render/render_targets.hpp"

namespace gpupack {

namespace {

constexpr const char* kScenario = R"(
fleet:
  - model: A100-80GB
    count: 2
workloads:
  - name: api
    replicas: 4
    memory: 2GiB
    compute: 0.05
  - name: notebook
    replicas: 2
    memory: 4GiB
    compute: 0.02
    pattern: intermittent
)";

const RenderedFile* find(const FileTree& files, const std::string& path) {
  for (const auto& f : files) {
    if (f.path == path) return &f;
  }
  return nullptr;
}

bool has_prefix(const FileTree& files, const std::string& prefix) {
  for (const auto& f : files) {
    if (f.path.rfind(prefix, 0) == 0) return true;
  }
  return false;
}

}  // namespace

TEST(RenderEveryMode, EachForcedModeRendersWhatItNeeds) {
  const GpuCatalog catalog = builtin_catalog();
  PlanInputs inputs;
  inputs.scenario_file = "test.yaml";
  inputs.scenario_text = kScenario;
  inputs.compare = false;
  for (GpuMode mode : all_gpu_modes()) {
    SCOPED_TRACE(std::string(to_string(mode)));
    inputs.forced = mode;
    // Planned and rendered from the typed plan, as `gpupack plan --render` does.
    PlanDocument document = plan_scenario(PosixFilesystem{}, catalog, inputs).document;
    check_plan_document(document, catalog);
    const size_t placed = static_cast<size_t>(document.summary.placed);
    ASSERT_GT(placed, 0u) << "the scenario is meant to fit every mode";
    const FileTree files = render_targets(document, parse_render_targets("all"), catalog);

    // Every placed replica is in the Deployments exactly once.
    int deployed = 0;
    for (const auto& doc : YAML::LoadAll(find(files, "k8s-workloads/deployments.yaml")->content)) {
      deployed += doc["spec"]["replicas"].as<int>();
    }
    EXPECT_EQ(deployed, static_cast<int>(placed));

    const bool mig = mode == GpuMode::mig || mode == GpuMode::mig_mps || mode == GpuMode::mig_time_slicing;
    const bool mps = mode == GpuMode::mps || mode == GpuMode::mig_mps;
    EXPECT_EQ(has_prefix(files, "mig-parted/config.yaml"), mig);
    EXPECT_EQ(has_prefix(files, "mps/"), mps);
    if (mig) {
      const YAML::Node configs = YAML::Load(find(files, "mig-parted/config.yaml")->content)["mig-configs"];
      EXPECT_GE(configs.size(), 2u);  // all-disabled and the plan's layout
    }
    if (mps) {
      // One env file per placed replica under MPS.
      int env_files = 0;
      for (const auto& f : files) env_files += f.path.find("/clients/") != std::string::npos;
      EXPECT_EQ(env_files, static_cast<int>(placed));
    }
    EXPECT_TRUE(has_prefix(files, "cdi/"));
    EXPECT_TRUE(has_prefix(files, "gpupack-agent/"));
    ASSERT_NE(find(files, "README.txt"), nullptr);
  }
}

}  // namespace gpupack
