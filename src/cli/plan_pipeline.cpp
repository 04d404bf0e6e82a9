#include "cli/plan_pipeline.hpp"

#include <sstream>

#include "cli/observed_loading.hpp"

#include "cli/plan_views.hpp"
#include "cli/profile_loading.hpp"
#include "core/errors.hpp"
#include "io/default_scenario.hpp"
#include "io/input_file.hpp"
#include "io/model_parameters_json.hpp"
#include "io/scenario_yaml.hpp"
#include "model/prediction.hpp"
#include "planner/consumer_search.hpp"

namespace gpupack {

namespace {

Scenario parse_scenario(const Filesystem& fs, const GpuCatalog& catalog, const PlanInputs& inputs) {
  if (inputs.scenario_text) return parse_scenario_yaml(*inputs.scenario_text, inputs.scenario_file, catalog);
  if (inputs.scenario_file.empty()) return parse_scenario_yaml(default_scenario_yaml(), kDefaultScenarioName, catalog);
  return parse_scenario_yaml(read_input_file(fs, inputs.scenario_file), inputs.scenario_file, catalog);
}

}  // namespace

ModelParameters load_plan_model(const Filesystem& fs, const PlanModelInputs& model) {
  if (model.file.empty()) return ModelParameters{};
  return parse_model_input(read_input_file(fs, model.file), model.file);
}

Scenario load_plan_scenario(const Filesystem& fs, const GpuCatalog& catalog, const PlanInputs& inputs,
                            const ModelParameters& parameters) {
  Scenario s = parse_scenario(fs, catalog, inputs);
  if (!inputs.gpu.empty()) {
    FleetEntry f;
    f.model = catalog.get(inputs.gpu);
    s.fleet = {f};
    s.elastic = true;
  } else if (s.fleet.empty()) {
    throw InputError((inputs.scenario_file.empty() ? std::string("the scenario") : inputs.scenario_file) +
                     " has no 'fleet'; add one or pass --gpu MODEL");
  }
  assign_consumers(s, inputs.deploy_with);
  attach_profiles(fs, s, inputs.scenario_file, inputs.profiles_dir, catalog, parameters);
  if (!inputs.observed.empty()) {
    std::ostringstream dropped;
    attach_observed(fs, s, inputs.observed, inputs.warnings ? *inputs.warnings : dropped);
  }
  return s;
}

PlannedScenario plan_loaded_scenario(const Scenario& loaded, const ModelParameters& parameters,
                                     const PlanInputs& inputs) {
  PlanOptions options;
  options.parameters = parameters;
  options.forced = inputs.forced;
  // Pools the NVIDIA plugin serves get their one config first: the plan and its comparison use it.
  PlannedScenario out{needs_plugin_configs(loaded, options.forced) ? with_plugin_configs(loaded, options) : loaded,
                      {}, {}, {}};
  options.progress = inputs.progress;
  out.plan = make_plan(out.scenario, options);
  add_predictions(out.scenario, out.plan, options.parameters);
  std::vector<ConsumerOutcome> consumers;
  if (inputs.compare) {
    out.comparison = compare_modes(out.scenario, out.plan, options);
    consumers = compare_consumers(out.scenario, options, &out.plan);
  }
  out.document = plan_document(out.scenario, out.plan, out.comparison, options.parameters);
  out.document.deploy_with = inputs.deploy_with;
  for (const ConsumerOutcome& c : consumers) {
    out.document.consumers.push_back({c.consumer, c.gpus_used, c.placed, c.unplaced, c.gpus_needed, c.cost_per_hour});
  }
  return out;
}

PlannedScenario plan_scenario(const Filesystem& fs, const GpuCatalog& catalog, const PlanInputs& inputs) {
  // The model first: its defaults apply as the profiles are attached.
  const ModelParameters parameters = load_plan_model(fs, inputs.model);
  return plan_loaded_scenario(load_plan_scenario(fs, catalog, inputs, parameters), parameters, inputs);
}

}  // namespace gpupack
