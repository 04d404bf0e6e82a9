#pragma once
// A bench run assembled from recorded numbers: the per-client times and latency shapes of the H200
// measurements in ../shared/reference/mps.md (time-slicing 2.0x at K=2, MPS 1.05x; latency p99 8.4x
// under time-slicing, 1.74x under MPS). Latency samples are generated deterministically with a given
// body and tail so that percentiles are known exactly.
#include <vector>

#include "bench/results.hpp"

namespace gpupack::bench::testing {

// `n` samples: value `body` except every `tail_every`-th sample, which is `tail` (0: no tail).
inline std::vector<double> shaped_samples(int n, double body, double tail, int tail_every) {
  std::vector<double> out;
  for (int i = 0; i < n; ++i) out.push_back(tail_every > 0 && i % tail_every == tail_every - 1 ? tail : body + (i % 7));
  return out;
}

// A user program's grid: the resnet18-b1 figures on an H100 (341 req/s alone; 8 copies 1827 req/s
// under time-slicing, 2111 under MPS), with K = 2 and 4 in between, and the GEMM neighbour at 50%.
inline measure::ColocationGrid recorded_grid() {
  auto copies = [](int k, double total, double p50, double p99) {
    measure::CopyResult c;
    c.stopped = true;
    c.exit_code = 143;
    c.wall_s = 21;
    c.reported = true;
    c.req_per_s = total / k;
    c.requests = static_cast<long>(total / k * 10);
    c.p50_ms = p50;
    c.p99_ms = p99;
    return std::vector<measure::CopyResult>(static_cast<size_t>(k), c);
  };
  measure::ColocationGrid g{"python3 examples/clients/resnet18_b1.py --duration 3600",
                            "python3 examples/clients/gemm_batch.py --duration 3600", 10, {}};
  const double ts[] = {341, 640, 1150, 1827}, mps[] = {341, 670, 1290, 2111};
  const double ts_p99[] = {6.9, 8.1, 12.5, 20}, mps_p99[] = {6.9, 7.4, 9.8, 16};
  for (int i = 0; i < 4; ++i) {
    const int k = 1 << i;
    g.cells.push_back({"timeslicing", k, false, std::nullopt, 10, copies(k, ts[i], 2.9, ts_p99[i]), std::nullopt, ""});
  }
  for (int i = 0; i < 4; ++i) {
    const int k = 1 << i;
    g.cells.push_back({"mps", k, false, std::nullopt, 10, copies(k, mps[i], 2.8, mps_p99[i]), std::nullopt, ""});
  }
  measure::CopyResult gemm = copies(1, 100, 80, 85)[0];
  g.cells.push_back({"timeslicing", 0, true, std::nullopt, 10, {}, gemm, ""});
  gemm.req_per_s = 62;
  g.cells.push_back({"mps", 1, true, 50, 10, copies(1, 300, 3.1, 9.6), gemm, ""});
  return g;
}

inline BenchResults recorded_results() {
  BenchResults r;
  r.started_at = "2026-11-20T10:00:00Z";
  r.elapsed_s = 61.5;
  r.command_line = "gpupack bench --json bench.json --report bench.html";
  r.device.name = "NVIDIA H200";
  r.device.uuid = "GPU-11111111-2222-3333-4444-555555555555";
  r.device.gpu_uuid = r.device.uuid;
  r.device.compute_capability = "9.0";
  r.device.driver_version = "580.159.04";
  r.device.cuda_driver_version = "13.0";
  r.device.cuda_runtime_version = "13.0";
  r.device.compute_mode = "Default";
  r.device.mig_mode = "Disabled";
  r.device.sm_count = 132;
  r.device.memory_bytes = 150754820096ULL;
  r.streams = StreamsResult{{{2, 16, {2.0, 2.1, 2.0}, {1.0, 1.05, 1.0}}, {4, 16, {4.0, 4.1}, {1.1, 1.0}}, {8, 16, {8.0}, {1.2}}},
                            {8, 4, 900, 16 << 20, {10.0, 10.2, 10.1}, {6.0, 6.1, 5.9}}};
  // Per-client seconds: time-slicing 1x, 2.0x, 3.1x, 5.9x; MPS 1x, 1.05x, 1.06x, 1.1x.
  r.clients = {{"timeslicing", "", 1, {0.30}, 1e12},
               {"timeslicing", "", 2, {0.60, 0.60}, 1e12},
               {"timeslicing", "", 4, {0.93, 0.93, 0.93, 0.93}, 1e12},
               {"timeslicing", "", 8, std::vector<double>(8, 1.77), 1e12},
               {"mps", "", 1, {0.30}, 1e12},
               {"mps", "", 2, {0.315, 0.315}, 1e12},
               {"mps", "", 4, {0.318, 0.318, 0.318, 0.318}, 1e12},
               {"mps", "", 8, std::vector<double>(8, 0.33), 1e12}};
  r.neighbour_alone_kernels_per_s = 400;
  // 2000 samples each: one in 50 (2%) is the tail, so p99 and p99.9 land on it.
  r.isolation = {{"alone", std::nullopt, shaped_samples(2000, 200, 250, 50), std::nullopt},
                 {"timeslicing", std::nullopt, shaped_samples(2000, 210, 2100, 50), 380},
                 {"mps", std::nullopt, shaped_samples(2000, 220, 435, 50), 390},
                 {"mps_cap25", 25, shaped_samples(2000, 205, 260, 50), 100},
                 {"mps_cap50", 50, shaped_samples(2000, 205, 272.5, 50), 208},
                 {"mps_cap75", 75, shaped_samples(2000, 210, 350, 50), 300}};
  r.thread_limits = {{25, 32, 132, 24.5, 100}, {50, 66, 132, 49, 100}, {75, 99, 132, 74, 100}};
  r.memory_limit = MemoryLimitCheck{2048, 1024, 3072, true, true, "", "cudaErrorMemoryAllocation"};
  r.skipped = {{"mig", "MIG mode is Disabled (bench never changes it)"}};
  r.options.client_cmd = "python3 examples/clients/resnet18_b1.py --duration 3600";
  r.colocation = recorded_grid();
  return r;
}

}  // namespace gpupack::bench::testing
