// MIG engine speed: the planner calls these in its inner loops, so they must stay cheap.
#include <benchmark/benchmark.h>

#include "core/gpu_catalog.hpp"
#include "core/mig_enumerate.hpp"
#include "core/mig_request.hpp"

namespace {

using namespace gpupack;

const GpuModel& model(const char* name) {
  static const GpuCatalog catalog = builtin_catalog();
  return catalog.get(name);
}

// All layouts of an 8-slice GPU (A100-80GB), variants excluded / included, all / maximal.
void BM_EnumerateLayouts_A100_80GB(benchmark::State& state) {
  const MigGeometry& g = *model("A100-80GB").mig;
  const MigEnumerateOptions options{state.range(0) != 0, state.range(1) != 0};
  size_t n = 0;
  for (auto _ : state) {
    auto layouts = enumerate_layouts(g, options);
    n = layouts.size();
    benchmark::DoNotOptimize(layouts);
  }
  state.counters["layouts"] = static_cast<double>(n);
}
BENCHMARK(BM_EnumerateLayouts_A100_80GB)
    ->ArgNames({"media", "maximal"})
    ->Args({0, 0})
    ->Args({0, 1})
    ->Args({1, 0})
    ->Args({1, 1})
    ->Unit(benchmark::kMicrosecond);

// Validate a 7-instance layout: the worst case for the placement search on 8-slice GPUs.
void BM_Validate7Instances(benchmark::State& state) {
  const GpuModel& m = model("H100-80GB");
  const MigCounts counts = parse_mig_request(m, std::vector<std::string>{"6x1g.10gb", "1g.20gb"});
  for (auto _ : state) {
    auto v = validate_layout(*m.mig, counts);
    benchmark::DoNotOptimize(v);
  }
}
BENCHMARK(BM_Validate7Instances)->Unit(benchmark::kNanosecond);

void BM_Validate7x1g(benchmark::State& state) {
  const GpuModel& m = model("A100-80GB");
  const MigCounts counts = parse_mig_request(m, std::vector<std::string>{"7x1g.10gb"});
  for (auto _ : state) {
    auto v = validate_layout(*m.mig, counts);
    benchmark::DoNotOptimize(v);
  }
}
BENCHMARK(BM_Validate7x1g)->Unit(benchmark::kNanosecond);

}  // namespace
