#pragma once
// Views of a plan: the stable JSON (docs/plan-schema.md), the same as YAML, and the table for people.
#include <iosfwd>
#include <string>
#include <vector>

#include "cli/json_views.hpp"
#include "core/plan.hpp"
#include "core/scenario.hpp"
#include "planner/calibration.hpp"
#include "planner/planner.hpp"

namespace gpupack {

Json plan_json(const Scenario& scenario, const Plan& plan, const std::vector<ModeOutcome>& comparison,
               const Calibration& calibration);
// Block-style YAML of any JSON value (the --format yaml view).
std::string json_to_yaml(const Json& value);
void print_plan_table(std::ostream& out, const Scenario& scenario, const Plan& plan,
                      const std::vector<ModeOutcome>& comparison, bool explain);

}  // namespace gpupack
