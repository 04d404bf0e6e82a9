// Every JSON input read at the 4 MiB input-file limit (issue 38, item 6): the plan, a workload profile, a
// calibration (bench) file and the fake GPU machine, each as its command reads it (the strict reader, then
// the document's own reader). The strict reader's parser callback used to rescan the parent at every
// object end: an array of empty objects made a 3 MB plan cost minutes. Each kind is read as a valid
// document near 4 MiB where the format has a free-form part, and as that array of empty objects, which is
// the worst case of the old reader. Target: each < 1 s (they take milliseconds).
// Run: build/bench/bench_json_inputs
#include <benchmark/benchmark.h>

#include <string>

#include "cli/plan_views.hpp"
#include "contract/plan_json.hpp"
#include "core/errors.hpp"
#include "core/gpu_catalog.hpp"
#include "gpu/fake_gpu_backend.hpp"
#include "io/calibration_json.hpp"
#include "io/input_file.hpp"
#include "io/json_document.hpp"
#include "many_workloads.hpp"
#include "measure/workload_profile.hpp"
#include "planner/planner.hpp"

namespace {

using namespace gpupack;

const GpuCatalog& catalog() {
  static const GpuCatalog c = builtin_catalog();
  return c;
}

// `{}` repeated to fill `bytes` as a JSON array: the old reader's quadratic case.
std::string empty_objects(std::size_t bytes) {
  std::string out = "[";
  while (out.size() + 4 < bytes) out += "{},";
  out.back() = ']';
  return out;
}

// `document` (a JSON object's text) with `"key": <array of empty objects>` added at its end, the whole
// just under the input-file limit.
std::string with_filler(const std::string& document, const std::string& key) {
  const std::size_t room = kMaxInputFileBytes - document.size() - key.size() - 8;
  return document.substr(0, document.rfind('}')) + ", \"" + key + "\": " + empty_objects(room) + "}";
}

void report(benchmark::State& state, const std::string& text) {
  state.counters["bytes"] = static_cast<double>(text.size());
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) *
                          static_cast<std::int64_t>(text.size()));
}

// A real plan (many distinct workloads) just under 4 MiB, read as `gpupack render` reads it.
void BM_PlanJson(benchmark::State& state) {
  Scenario s = bench::many_workloads_scenario(200, 20, catalog());
  const Plan plan = make_plan(s, PlanOptions{});
  const std::string text = plan_json_text(plan_document(s, plan, {}, ModelParameters{}));
  if (text.size() > kMaxInputFileBytes) state.SkipWithError("the plan is over 4 MiB");
  for (auto _ : state)
    benchmark::DoNotOptimize(read_plan_json(parse_json_document(text, "plan.json"), catalog()));
  report(state, text);
}
BENCHMARK(BM_PlanJson)->Unit(benchmark::kMillisecond);

// The issue's reproducer: a plan that is an array of empty objects (refused after the parse).
void BM_PlanOfEmptyObjects(benchmark::State& state) {
  const std::string text = with_filler(R"({"schema_version": 1})", "gpus");
  for (auto _ : state) {
    try {
      read_plan_json(parse_json_document(text, "plan.json"), catalog());
    } catch (const InputError&) {
    }
  }
  report(state, text);
}
BENCHMARK(BM_PlanOfEmptyObjects)->Unit(benchmark::kMillisecond);

measure::WorkloadProfile small_profile() {
  measure::WorkloadProfile p;
  p.name = "resnet18-b1";
  p.command = {"python3", "resnet18_b1.py"};
  p.device = {"H100-SXM5-80GB", "NVIDIA H100 80GB HBM3", "GPU-1"};
  p.window = {"ready-line", 3, 10, true, 8.5};
  p.memory = {801112064, 922746880, "processes"};
  p.activity = {0.061, 0.0234, 0.002, std::nullopt, 0.41, "gpm", 20};
  p.compute_demand = {0.12, "gpm", std::nullopt, std::nullopt, std::nullopt};
  return p;
}

// A profile whose free-form co-location grid is 4 MiB of empty objects: accepted, read whole.
void BM_WorkloadProfile(benchmark::State& state) {
  std::string text = measure::profile_to_json(small_profile()).dump();
  text.replace(text.find("\"colocation\":null"), 17,
               "\"colocation\":" + empty_objects(kMaxInputFileBytes - text.size()));
  for (auto _ : state) benchmark::DoNotOptimize(measure::read_workload_profile(text, "profile.json"));
  report(state, text);
}
BENCHMARK(BM_WorkloadProfile)->Unit(benchmark::kMillisecond);

// A bench file: the calibration object and 4 MiB of free-form results.
void BM_CalibrationJson(benchmark::State& state) {
  const std::string text = with_filler(R"({"calibration": {"mps_p99_inflation": 1.2}})", "results");
  for (auto _ : state) benchmark::DoNotOptimize(parse_calibration_json(text, "bench.json"));
  report(state, text);
}
BENCHMARK(BM_CalibrationJson)->Unit(benchmark::kMillisecond);

// The fake GPU machine: 4 MiB of XID events (each an empty object: no uuid, XID 0, snapshot 0).
void BM_FakeMachine(benchmark::State& state) {
  const std::string text = with_filler(
      R"({"devices": [{"uuid": "GPU-1", "name": "NVIDIA H100 80GB HBM3", "memory_total_bytes": 85520809984}]})",
      "xid_events");
  for (auto _ : state) benchmark::DoNotOptimize(FakeGpuBackend(parse_json_document(text, "machine.json")));
  report(state, text);
}
BENCHMARK(BM_FakeMachine)->Unit(benchmark::kMillisecond);

}  // namespace
