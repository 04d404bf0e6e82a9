#pragma once
// Helpers of the tests that plan from the workload profiles recorded on an H100
// (tests/planner/data/profiles-h100-2026-11-23).
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "cli/plan_pipeline.hpp"
#include "cli/profile_loading.hpp"
#include "core/gpu_catalog.hpp"
#include "io/input_file.hpp"
#include "io/scenario_yaml.hpp"
#include "planner/plan_checker.hpp"
#include "planner/planner.hpp"
#include "model/prediction.hpp"
#include "model/profile_prediction.hpp"

namespace gpupack::test {

inline const std::string kData = GPUPACK_PLANNER_TEST_DATA;

inline Scenario load(const std::string& path, const std::string& profiles_dir = "") {
  const GpuCatalog catalog = builtin_catalog();
  const PosixFilesystem fs;
  Scenario s = parse_scenario_yaml(read_input_file(fs, path), path, catalog);
  attach_profiles(fs, s, path, profiles_dir, catalog);
  return s;
}

inline Scenario from_text(const std::string& yaml, const std::string& profiles_dir) {
  const GpuCatalog catalog = builtin_catalog();
  Scenario s = parse_scenario_yaml(yaml, "test.yaml", catalog);
  attach_profiles(PosixFilesystem{}, s, "", profiles_dir, catalog);
  return s;
}

// The plan with its predictions, as `gpupack plan` makes it (cli/plan_pipeline.hpp), checked.
inline Plan plan_with_predictions(const Scenario& s, std::optional<GpuMode> forced = std::nullopt) {
  PlanInputs inputs;
  inputs.compare = false;
  inputs.forced = forced;
  Plan p = plan_loaded_scenario(s, ModelParameters{}, inputs).plan;
  EXPECT_EQ(check_plan(s, p, ModelParameters{}), std::vector<std::string>{});
  return p;
}

}  // namespace gpupack::test
