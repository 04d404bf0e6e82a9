// libFuzzer target: any bytes as a scenario YAML. The parser must either return a scenario or throw
// InputError; small scenarios it accepts are planned and every plan must pass the plan checker.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstdio>
#include <string_view>

#include "core/errors.hpp"
#include "core/gpu_catalog.hpp"
#include "io/scenario_yaml.hpp"
#include "planner/plan_checker.hpp"
#include "planner/planner.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const gpupack::GpuCatalog catalog = gpupack::builtin_catalog();
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  gpupack::Scenario scenario;
  try {
    scenario = gpupack::parse_scenario_yaml(text, "fuzz.yaml", catalog);
  } catch (const gpupack::InputError&) {
    return 0;  // rejected with a message: fine
  }
  // Plan what is small enough to plan quickly (the fuzzer runs thousands of inputs a second).
  if (scenario.fleet.empty()) {
    gpupack::FleetEntry f;
    f.model = catalog.get("A100-80GB");
    scenario.fleet = {f};
    scenario.elastic = true;
  }
  long gpus = 0;
  for (const auto& f : scenario.fleet) gpus += f.count;
  if (gpupack::total_replicas(scenario) > 64 || gpus > 64) return 0;
  gpupack::PlanOptions options;
  options.exact_budget = 2000;
  const gpupack::Plan plan = gpupack::make_plan(scenario, options);
  const auto errors = gpupack::check_plan(scenario, plan, options.parameters);
  if (!errors.empty()) {
    std::fprintf(stderr, "plan breaks a rule: %s\n", errors.front().c_str());
    std::abort();
  }
  return 0;
}
