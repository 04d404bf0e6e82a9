#pragma once
// The one way a scenario becomes a plan (DESIGN.md, "cli"): scenario -> profiles -> plan -> predictions ->
// plan document. `gpupack plan`, `gpupack render scenario.yaml` and the tests all call plan_scenario, so
// that the same inputs give the same plan everywhere.
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "contract/plan_document.hpp"
#include "core/consumer.hpp"
#include "core/gpu_catalog.hpp"
#include "core/plan.hpp"
#include "core/scenario.hpp"
#include "os/filesystem.hpp"
#include "model/model_parameters.hpp"
#include "planner/planner.hpp"

namespace gpupack {

// Where the performance model's numbers come from, kept apart from the rest of PlanInputs.
struct PlanModelInputs {
  // --model FILE (alias --calibration): model parameters, or a `gpupack bench --json` report; empty: the
  // built-in ModelParameters.
  std::string file;
};

struct PlanInputs {
  // The scenario: the YAML file, or with no file the embedded default (40 models on one A100).
  std::string scenario_file;
  // The YAML itself instead of reading scenario_file, which then only names it (errors, profile paths).
  std::optional<std::string> scenario_text;
  std::string gpu;             // --gpu MODEL: as many GPUs of that model as needed replace the fleet
  Consumer deploy_with = Consumer::gpupack_agent;  // --deploy-with: pools whose entry names no consumer
  std::string profiles_dir;    // --profiles DIR: DIR/<workload name>.json for entries that name none
  std::vector<std::string> observed;  // --observed FILE (repeatable): verify JSON fed back (cli/observed_loading.hpp)
  std::ostream* warnings = nullptr;   // where --observed says what it ignored (none: dropped)
  PlanModelInputs model;
  // $.comparison and $.consumers: each mode and each consumer planned again. `gpupack plan` shows them;
  // what is deployed (render) does not depend on them.
  bool compare = true;
  std::optional<GpuMode> forced;  // plan with this mode only (tests of each mode)
  // Called as each plan of the comparison starts (PlanOptions::progress).
  std::function<void(const std::string& what, int done, int total)> progress;
};

struct PlannedScenario {
  Scenario scenario;  // as planned: consumers assigned, profiles attached, the NVIDIA plugin's configs chosen
  Plan plan;          // with its predictions
  std::vector<ModeOutcome> comparison;  // empty unless PlanInputs::compare
  PlanDocument document;                // the typed plan the JSON, the table's consumers and render use
};

// The first steps of plan_scenario. The model's parameters (InputError naming the file for a bad one).
ModelParameters load_plan_model(const Filesystem& fs, const PlanModelInputs& model);
// The scenario as the plan sees it: read (InputError naming the file for bad YAML), --gpu applied (a
// scenario with no fleet needs it), consumers assigned, profiles attached with `parameters`' defaults.
Scenario load_plan_scenario(const Filesystem& fs, const GpuCatalog& catalog, const PlanInputs& inputs,
                            const ModelParameters& parameters);

// The steps after them: the NVIDIA plugin's configs chosen, the plan, its predictions, the comparison
// (PlanInputs::compare) and the plan document. Only the planning fields of `inputs` are read: the scenario
// is `scenario` (tests that build or change one first).
PlannedScenario plan_loaded_scenario(const Scenario& scenario, const ModelParameters& parameters,
                                     const PlanInputs& inputs);

// All of it: plans the scenario of `inputs`, its files read through `fs`. Throws InputError for bad inputs.
PlannedScenario plan_scenario(const Filesystem& fs, const GpuCatalog& catalog, const PlanInputs& inputs);

}  // namespace gpupack
