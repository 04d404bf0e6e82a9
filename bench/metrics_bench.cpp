// Rendering /metrics for a full node: 8 GPUs x 48 MPS clients (the CUDA 13.0 client limit), each
// client with uid, pod and allotment, one MPS daemon per GPU. Target: <= 2 ms per render.
// Run: build/bench/bench_metrics --benchmark_repetitions=5
#include <benchmark/benchmark.h>

#include "metrics/node_snapshot.hpp"

namespace {

gpupack::NodeSnapshot full_node(int gpus, int clients) {
  using namespace gpupack;
  NodeSnapshot s;
  s.version = "0.1.0";
  s.backend = "fake";
  unsigned pid = 10000;
  for (int g = 0; g < gpus; ++g) {
    GpuDeviceInfo d;
    d.index = static_cast<unsigned>(g);
    d.uuid = "GPU-00000000-0000-0000-0000-00000000000" + std::to_string(g);
    d.name = "NVIDIA H100 80GB HBM3";
    d.memory_total_bytes = 85520809984ull;
    d.memory_used_bytes = 40ull << 30;
    d.utilization_gpu = 0.83;
    d.utilization_memory = 0.41;
    d.compute_mode = "Default";
    MpsSnapshot m;
    m.target_uuid = d.uuid;
    m.pipe_dir = "/run/gpupack/mps/" + d.uuid + "/pipe";
    m.status.daemon_up = true;
    MpsServerStatus server;
    server.pid = static_cast<int>(pid++);
    server.state = MpsServerState::active;
    for (int c = 0; c < clients; ++c) {
      GpuProcessInfo p;
      p.pid = pid++;
      p.used_memory_bytes = 700ull << 20;
      p.mps_client = true;
      d.processes.push_back(p);
      server.clients.push_back(static_cast<int>(p.pid));
      s.processes[p.pid] = {.uid = 1000,
                            .pod_uid = "0f6b1e0e-4f0a-4a34-9f0b-2d6c7a1e9c" + std::to_string(10 + c),
                            .container_id = std::string(64, 'a'),
                            .pod = "infer-" + std::to_string(c),
                            .pod_namespace = "serving",
                            .container = "model",
                            .allocated_bytes = 1ull << 30,
                            .allocated_sm_ratio = 0.5};
    }
    m.status.servers.push_back(server);
    s.mps.push_back(m);
    s.sharing.push_back({.gpu_uuid = d.uuid,
                         .target_uuid = d.uuid,
                         .mode = "mps",
                         .clients_limit = clients,
                         .clients_admitted = clients,
                         .sm_percent = 2,
                         .memory_limit_bytes = 1ull << 30,
                         .tenant = "team"});
    s.devices.push_back(std::move(d));
  }
  return s;
}

void BM_RenderMetrics_8Gpus48Clients(benchmark::State& state) {
  const gpupack::NodeSnapshot s = full_node(8, 48);
  const gpupack::GpuCatalog catalog = gpupack::builtin_catalog();
  std::size_t bytes = 0;
  for (auto _ : state) {
    const std::string text = gpupack::render_node_metrics(s, catalog);
    bytes = text.size();
    benchmark::DoNotOptimize(text.data());
  }
  state.counters["bytes"] = static_cast<double>(bytes);
}
BENCHMARK(BM_RenderMetrics_8Gpus48Clients)->Unit(benchmark::kMicrosecond);

}  // namespace
