// `gpupack plan FILE --gpu H100-80GB --format json` as the command runs it, without the file read and the
// write to stdout: the scenario YAML parsed, the plan, its predictions, the comparison of modes, the typed
// plan and its JSON text (issue 19: 500 x 20 <= 1 s end to end; the writer was 40 % of it as an
// ordered_json tree). The JSON text alone is measured too. Arguments: workloads, replicas.
// Run: build/bench/bench_plan_json --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include "cli/plan_views.hpp"
#include "contract/plan_json.hpp"
#include "core/gpu_catalog.hpp"
#include "io/scenario_yaml.hpp"
#include "many_workloads.hpp"
#include "planner/planner.hpp"
#include "model/prediction.hpp"

namespace {

using namespace gpupack;

const GpuCatalog& catalog() {
  static const GpuCatalog c = builtin_catalog();
  return c;
}

// The YAML file `build/bench/many_workloads_yaml W R` writes, planned with --gpu H100-80GB (elastic).
std::string many_workloads_file(const benchmark::State& state) {
  return bench::many_workloads_yaml(bench::many_workloads_scenario(static_cast<int>(state.range(0)),
                                                                   static_cast<int>(state.range(1)), catalog()));
}

// As `gpupack plan FILE --gpu H100-80GB` loads it: the flag replaces the fleet by as many GPUs as needed.
Scenario load_scenario(const std::string& yaml) {
  Scenario scenario = parse_scenario_yaml(yaml, "many.yaml", catalog());
  FleetEntry h100;
  h100.model = catalog().get("H100-80GB");
  scenario.fleet = {h100};
  scenario.elastic = true;
  return scenario;
}

std::string plan_json_of(const std::string& yaml) {
  const Scenario scenario = load_scenario(yaml);
  const PlanOptions options;
  Plan plan = make_plan(scenario, options);
  add_predictions(scenario, plan, ModelParameters{});
  const std::vector<ModeOutcome> comparison = compare_modes(scenario, plan, options);
  return plan_json_text(plan_document(scenario, plan, comparison, options.parameters));
}

void BM_PlanCommandEndToEnd(benchmark::State& state) {
  const std::string yaml = many_workloads_file(state);
  size_t bytes = 0;
  for (auto _ : state) {
    const std::string json = plan_json_of(yaml);
    bytes = json.size();
    benchmark::DoNotOptimize(json.data());
  }
  state.counters["json_bytes"] = static_cast<double>(bytes);
}
BENCHMARK(BM_PlanCommandEndToEnd)->Args({500, 20})->Args({2000, 5})->Unit(benchmark::kMillisecond);

void BM_PlanJsonText(benchmark::State& state) {
  const Scenario scenario = load_scenario(many_workloads_file(state));
  const PlanOptions options;
  Plan plan = make_plan(scenario, options);
  add_predictions(scenario, plan, ModelParameters{});
  const std::vector<ModeOutcome> comparison = compare_modes(scenario, plan, options);
  for (auto _ : state) {
    const std::string json = plan_json_text(plan_document(scenario, plan, comparison, options.parameters));
    benchmark::DoNotOptimize(json.data());
  }
}
BENCHMARK(BM_PlanJsonText)->Args({500, 20})->Args({2000, 5})->Unit(benchmark::kMillisecond);

}  // namespace
