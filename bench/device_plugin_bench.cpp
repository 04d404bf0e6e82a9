// Device plugin latency over real unix sockets (fake devices, the test suite's kubelet simulator).
// Targets (issue 7): Allocate p99 <= 1 ms; kubelet.sock recreated -> every plugin re-registered <= 1 s.
// Run: build/bench/bench_device_plugin
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <vector>

#include "fakes/temp_dir.hpp"
#include "k8s/device_plugins.hpp"
#include "k8s/kubelet_sim.hpp"
#include "k8s/sample_node.hpp"
#include "os/filesystem.hpp"

namespace {

using namespace gpupack;
using Clock = std::chrono::steady_clock;

DevicePluginSettings settings_for(const std::string& dir) {
  DevicePluginSettings s;
  s.enabled = true;
  s.plugin_dir = dir;
  return s;
}

double percentile(std::vector<double> v, double p) {
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<std::size_t>(p * static_cast<double>(v.size())))];
}

// One Allocate of an MPS slice (the largest answer: env, mounts), as kubelet sends it.
void BM_Allocate(benchmark::State& state) {
  testing::TempDir dir;
  PosixFilesystem files;
  k8s::DevicePlugins plugins(k8s::plan_resources(testing::sample_targets()), settings_for(dir.path()), files);
  plugins.start();
  testing::PluginClient client(dir.path() + "/" + k8s::socket_name("gpupack.io/mps-25"));
  const std::vector<std::vector<std::string>> request = {{testing::kGpu2 + "::1"}};
  std::vector<double> micros;
  for (auto _ : state) {
    v1beta1::AllocateResponse resp;
    const auto t0 = Clock::now();
    const auto status = client.allocate(request, &resp);
    micros.push_back(std::chrono::duration<double, std::micro>(Clock::now() - t0).count());
    if (!status.ok()) state.SkipWithError(status.error_message().c_str());
  }
  state.counters["p50_us"] = percentile(micros, 0.50);
  state.counters["p99_us"] = percentile(micros, 0.99);
  state.counters["max_us"] = percentile(micros, 1.0);
}
BENCHMARK(BM_Allocate)->Iterations(5000)->Unit(benchmark::kMicrosecond);

// kubelet restarts (deletes every socket, serves kubelet.sock anew) until all six plugins registered
// again.
void BM_ReregistrationAfterKubeletRestart(benchmark::State& state) {
  testing::TempDir dir;
  testing::KubeletSim kubelet(dir.path());
  kubelet.start();
  PosixFilesystem files;
  k8s::DevicePlugins plugins(k8s::plan_resources(testing::sample_targets()), settings_for(dir.path()), files);
  plugins.start();
  const std::size_t n = plugins.resources().size();
  std::size_t expected = n;
  if (!kubelet.wait_for_registrations(expected)) state.SkipWithError("no first registration");
  std::vector<double> millis;
  for (auto _ : state) {
    const auto t0 = Clock::now();
    kubelet.restart();
    expected += n;
    if (!kubelet.wait_for_registrations(expected)) state.SkipWithError("not re-registered within the wait");
    const double ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    millis.push_back(ms);
    state.SetIterationTime(ms / 1000);
  }
  state.counters["p50_ms"] = percentile(millis, 0.50);
  state.counters["max_ms"] = percentile(millis, 1.0);
}
BENCHMARK(BM_ReregistrationAfterKubeletRestart)->Iterations(20)->UseManualTime()->Unit(benchmark::kMillisecond);

}  // namespace
