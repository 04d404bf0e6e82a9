#pragma once
// Views of a plan: the typed plan behind the stable JSON (docs/plan-schema.md, written by
// contract/plan_json.hpp), the same as YAML, and the table for people.
#include <iosfwd>
#include <string>
#include <vector>

#include "cli/json_views.hpp"
#include "contract/plan_document.hpp"
#include "core/plan.hpp"
#include "core/scenario.hpp"
#include "model/model_parameters.hpp"
#include "planner/planner.hpp"

namespace gpupack {

// The typed plan the plan JSON and the render are made from (cli/plan_document.cpp): every name resolved,
// slice ids given, predicted p99 in milliseconds computed.
PlanDocument plan_document(const Scenario& scenario, const Plan& plan, const std::vector<ModeOutcome>& comparison,
                           const ModelParameters& parameters);
// Block-style YAML of any JSON value (the --format yaml view).
std::string json_to_yaml(const Json& value);
void print_plan_table(std::ostream& out, const Scenario& scenario, const Plan& plan,
                      const std::vector<ModeOutcome>& comparison, bool explain);
// What each consumer (--deploy-with) places of the same scenario ($.consumers[]), after the plan's table.
void print_consumer_table(std::ostream& out, const Scenario& scenario, const PlanDocument& plan);

}  // namespace gpupack
