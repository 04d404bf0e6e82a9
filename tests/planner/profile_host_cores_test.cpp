// A slice's host cores in the profile model (model/profile_prediction.cpp): a client uses its profile's
// host CPU at its predicted request rate, and more client processes than cores add a wait for a core to
// its p99, one per full set of cores they take.
#include <gtest/gtest.h>

#include <memory>

#include "model/predict_clients.hpp"
#include "model/profile_prediction.hpp"
#include "scenario_builder.hpp"

namespace gpupack {
namespace {

// A launch-bound client measured on an H100: 10% of the SMs busy, 400 req/s, p99 3 ms alone, one host core.
Workload launch_bound() {
  Workload w = test::workload("cnn", 1, 0, 1);
  auto p = test::h100_profile(0.1, 400, 3);
  p->dram_bw = 0.0;
  p->host_cpu_cores = 1.0;
  w.profile = std::move(p);
  return w;
}

std::vector<ClientPrediction> copies(const Workload& w, int n, double host_cores) {
  const std::vector<PredictionInput> in(static_cast<size_t>(n), PredictionInput{&w, 1, 0.1, 20, 1.0});
  return test::predict_clients(Sharing::mps, {132, 3350, host_cores}, in);
}

TEST(ProfileHostCores, AClientUsesItsCoreAtItsPredictedRate) {
  const Workload w = launch_bound();
  for (const ClientPrediction& p : copies(w, 6, 16)) {
    ASSERT_TRUE(p.host_cores && p.req_per_s);
    EXPECT_LT(*p.req_per_s, 400);  // slowed by its neighbours
    // Its cores at its rate before the MPS launch path's wait, spent in its own CUDA calls (issue 37): here
    // no SM contention, so its core alone.
    EXPECT_NEAR(*p.host_cores, 1.0, 1e-12);
  }
}

TEST(ProfileHostCores, EachFullSetOfCoresTakenAddsAWait) {
  const Workload w = launch_bound();
  // The same six clients with the cores stated (no wait: 6 <= 8), on 5 cores (one wait), on 3 (two).
  const double none = *copies(w, 6, 8)[0].p99_ms;
  EXPECT_NEAR(*copies(w, 6, 5)[0].p99_ms, none + 4.0, 1e-9);
  EXPECT_NEAR(*copies(w, 6, 3)[0].p99_ms, none + 8.0, 1e-9);
  EXPECT_NEAR(*copies(w, 6, 6)[0].p99_ms, none, 1e-9);  // as many processes as cores: no wait
  const ClientPrediction waited = copies(w, 6, 5)[0];
  EXPECT_NE(waited.notes.back().find("6 client processes on 5.00 host cores: +4.00 ms"), std::string::npos)
      << ::testing::PrintToString(waited.notes);
}

TEST(ProfileHostCores, WithoutStatedCoresNoWaitIsAdded) {
  const Workload w = launch_bound();
  EXPECT_NEAR(*copies(w, 6, 0)[0].p99_ms, *copies(w, 6, 8)[0].p99_ms, 1e-9);
}

}  // namespace
}  // namespace gpupack
