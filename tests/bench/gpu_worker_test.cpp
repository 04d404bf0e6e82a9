// Label gpu: the real worker on a real GPU (the device machine; CI has none). Runs `gpupack
// bench-worker` through the same Workers class bench uses; GPUPACK_BIN overrides the binary's path.
#include <gtest/gtest.h>

#include <cstdlib>

#include "bench/stats.hpp"
#include "bench/workers.hpp"

namespace gpupack::bench {
namespace {

Workers workers() {
  const char* bin = std::getenv("GPUPACK_BIN");
  return Workers(bin && *bin ? bin : GPUPACK_BINARY);
}

nlohmann::json run(WorkerRequest r) { return workers().run_one({r, plain_environment()}); }

TEST(GpuWorker, InfoDescribesTheDeviceAndCalibrates) {
  WorkerRequest r;
  r.mode = WorkerMode::info;
  r.gemm_n = 1024;
  const auto j = run(r);
  EXPECT_GT(j.at("sm_count").get<int>(), 0);
  EXPECT_EQ(j.at("uuid").get<std::string>().rfind("GPU-", 0), 0u);
  EXPECT_GT(j.at("calibration").at("client_iters_per_ms").get<double>(), 0);
  EXPECT_GT(j.at("calibration").at("gemm_ms").get<double>(), 0);
}

TEST(GpuWorker, FmaWorkTakesLongerWithMoreIterations) {
  WorkerRequest r;
  r.mode = WorkerMode::fma;
  r.iters = 20000;
  r.launches = 5;
  const double short_s = run(r).at("seconds").get<double>();
  r.iters = 200000;
  const double long_s = run(r).at("seconds").get<double>();
  EXPECT_GT(long_s, 4 * short_s);  // fixed arithmetic: 10x the work takes several times longer
}

TEST(GpuWorker, LatencySamplesAreRecorded) {
  WorkerRequest r;
  r.mode = WorkerMode::latency;
  r.blocks = 4;
  r.threads = 128;
  r.iters = 5000;
  r.launches = 100;
  const auto samples = run(r).at("samples_us").get<std::vector<double>>();
  ASSERT_EQ(samples.size(), 100u);
  EXPECT_GT(median(samples), 1.0);
}

TEST(GpuWorker, StreamsRunConcurrently) {
  WorkerRequest r;
  r.mode = WorkerMode::streams;
  r.iters = 50000;
  r.launches = 3;
  const auto j = run(r);
  const auto& k2 = j.at("kernels").at(0);
  EXPECT_GT(median(k2.at("serial_ms").get<std::vector<double>>()) / median(k2.at("concurrent_ms").get<std::vector<double>>()), 1.05);
}

TEST(GpuWorker, AllocationBeyondTheCardFails) {
  WorkerRequest r;
  r.mode = WorkerMode::memlimit;
  r.within_mib = 256;
  r.beyond_mib = 1L << 30;  // 1 PiB: no card has it
  const auto j = run(r);
  EXPECT_TRUE(j.at("within").at("ok").get<bool>());
  EXPECT_FALSE(j.at("beyond").at("ok").get<bool>());
}

}  // namespace
}  // namespace gpupack::bench
