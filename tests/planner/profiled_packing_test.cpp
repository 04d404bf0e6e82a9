// Packing from profiles (model/profiled_slice.hpp): profiled clients with SLOs share the SMs past their
// count under MPS until the profile model predicts an SLO breach, the host's cores or the MPS client
// limit; everything else keeps the summed-compute rule; and the plan checker holds both.
#include <gtest/gtest.h>

#include <memory>

#include "planner/plan_checker.hpp"
#include "planner/planner.hpp"
#include "model/prediction.hpp"
#include "model/profile_prediction.hpp"
#include "scenario_builder.hpp"

namespace gpupack {

namespace {

using test::fleet;
using test::workload;

// A launch-bound client measured on an H100: keeps 10% of the SMs busy, 2 ms p99 alone, 400 req/s.
std::shared_ptr<const ProfileFacts> launch_bound_profile(double host_cpu = 0.5) {
  auto p = test::h100_profile(0.1, 400, 2);
  p->dram_bw = 0.0;
  p->host_cpu_cores = host_cpu;
  p->compute_method = "gpm";
  return p;
}

Workload profiled(int replicas, std::optional<double> slo_ms, double host_cpu = 0.5) {
  Workload w = workload("cnn", 1, 0, replicas);
  w.profile = launch_bound_profile(host_cpu);
  w.compute = packing_compute(*w.profile, ModelParameters{});
  w.latency_slo_ms = slo_ms;
  if (slo_ms) w.p99_alone_ms = 2;
  return w;
}

Scenario one_h100(std::vector<Workload> workloads) {
  Scenario s;
  s.fleet = {fleet("H100-SXM5-80GB", 1)};
  s.workloads = std::move(workloads);
  return s;
}

int placed(const Plan& p) {
  int n = 0;
  for (const auto& g : p.gpus)
    for (const auto& sl : g.slices)
      for (const auto& c : sl.clients) n += static_cast<int>(c.replicas.size());
  return n;
}

Plan plan_checked(const Scenario& s) {
  Plan p = make_plan(s, PlanOptions{});
  add_predictions(s, p, ModelParameters{});
  for (const auto& e : check_plan(s, p, {})) ADD_FAILURE() << e;
  return p;
}

}  // namespace

// 10% SM activity each (no kernel-time share in the profile: its SM activity stands in), an SLO of 3x p99
// alone. N clients: pressure 0.1 N slows the tenth of each request its kernels run, the MPS launch path
// (1 + 0.10 (N - 1) 0.9) all of it: p99 x (0.9 + 0.1 max(1, 0.1 N)) x launch is 2.98 at 20 clients and 3.11
// at 21, so 20 share the GPU (summed compute 2.0) where summed compute would have stopped at 10.
TEST(ProfiledPacking, SlosBoundTheContentionNotSummedCompute) {
  const Plan p = plan_checked(one_h100({profiled(40, 6.0)}));
  EXPECT_EQ(placed(p), 20);
  ASSERT_EQ(p.gpus.size(), 1u);
  const PlanSlice& sl = p.gpus[0].slices[0];
  EXPECT_EQ(sl.sharing, Sharing::mps);
  for (const auto& c : sl.clients) {
    EXPECT_LE(c.predicted_p99_inflation, 3.0 + 1e-9);
    EXPECT_GT(c.predicted_p99_inflation, 2.9);  // the bound is what stopped the packing
    ASSERT_TRUE(c.prediction && c.prediction->p99_ms);
    EXPECT_NEAR(*c.prediction->p99_ms, 2 * c.predicted_p99_inflation,
                1e-6);  // the plan shows what it checked
  }
  EXPECT_EQ(p.summary.lower_bound_gpus, 1);
}

TEST(ProfiledPacking, ATighterSloPlacesFewer) {
  EXPECT_EQ(placed(plan_checked(one_h100({profiled(40, 4.0)}))), 11);  // 2x: 1.92 at 11, 2.03 at 12
}

TEST(ProfiledPacking, TheMpsClientLimitBindsALooseSlo) {
  EXPECT_EQ(placed(plan_checked(one_h100({profiled(60, 20.0)}))), 48);  // 10x: 6.05 at 48; H100: 48 clients
}

TEST(ProfiledPacking, WithoutProfilesSummedComputeStillBinds) {
  Workload w = workload("cnn", 1, 0.1, 40);
  w.latency_slo_ms = 6;
  w.p99_alone_ms = 2;
  EXPECT_LE(placed(plan_checked(one_h100({w}))), 10);
}

TEST(ProfiledPacking, ClientsWithoutAnSloDoNotOversubscribe) {
  EXPECT_EQ(placed(plan_checked(one_h100({profiled(40, std::nullopt)}))), 10);
}

// The scenario on a one-GPU node of `cores` host cores.
Scenario on_cores(Scenario s, double cores) {
  s.fleet[0].cpu_cores = cores;
  s.fleet[0].gpus_per_node = 1;
  return s;
}

// One core each alone (400 req/s); beside others each slows by the MPS launch path, but that wait is spent in
// its own CUDA calls and frees no core (issue 37: until then N clients counted N / (1 + 0.09 (N - 1)) cores
// and 4 cores drove 5). Without SM contention each counts its core: 4 cores drive 4, and the SLO (50x) is
// not what binds.
TEST(ProfiledPacking, HostCoresCountAtThePredictedRate) {
  const Plan p = plan_checked(on_cores(one_h100({profiled(40, 100.0, 1.0)}), 4));
  EXPECT_EQ(placed(p), 4);
  ASSERT_EQ(p.unplaced.size(), 36u);
  for (const auto& u : p.unplaced) EXPECT_EQ(u.code, "no_host_cores") << u.reason;  // the GPU had room
}

// More client processes than cores: each tail waits for a core (+4 ms), which the 6 ms SLO of a 2 ms client
// does not allow, so 12 cores hold 12 where the SLO alone held 20 (SlosBoundTheContentionNotSummedCompute).
TEST(ProfiledPacking, MoreClientsThanCoresWaitForACore) {
  const Scenario s = one_h100({profiled(40, 6.0, 0.5)});
  const Plan p = plan_checked(on_cores(s, 12));
  EXPECT_EQ(placed(p), 12);
  for (const auto& u : p.unplaced) EXPECT_EQ(u.code, "slo_not_reachable") << u.reason;
  EXPECT_EQ(placed(plan_checked(on_cores(s, 11))), 11);  // 12 clients on 11 cores: the wait
}

TEST(ProfiledPacking, AnUnprofiledNeighbourKeepsTheSummedComputeRule) {
  Workload batch = workload("batch", 2, 0.5, 1);
  const Plan p = plan_checked(one_h100({profiled(40, 6.0), batch}));
  double compute = 0;
  for (const auto& c : p.gpus.at(0).slices.at(0).clients) compute += c.compute;
  EXPECT_LE(compute, 1.0 + 1e-9);
}

TEST(ProfiledPacking, TheCheckerRefusesAnOversubscribedSliceWithoutProfiles) {
  Scenario s = one_h100({profiled(40, 6.0)});
  const Plan p = plan_checked(s);
  s.workloads[0].profile.reset();  // the same plan, judged as if the workload had no profile
  bool refused = false;
  for (const auto& e : check_plan(s, p, {}))
    refused = refused || e.find("summed compute") != std::string::npos;
  EXPECT_TRUE(refused);
}

TEST(ProfiledPacking, TheCheckerRefusesInflationsThatAreNotTheProfileModels) {
  const Scenario s = one_h100({profiled(12, 6.0)});
  Plan p = plan_checked(s);
  p.gpus.at(0).slices.at(0).clients.at(0).predicted_p99_inflation = 1.0;
  bool refused = false;
  for (const auto& e : check_plan(s, p, {}))
    refused = refused || e.find("profile's model") != std::string::npos;
  EXPECT_TRUE(refused);
}

}  // namespace gpupack

namespace gpupack {

// A batch job without an SLO left off a GPU whose latency clients' SLOs it would break: the reason names
// their SLOs, not one of its own ("exceeds 0.00x alone" before, run40 on an H100).
TEST(ProfiledPacking, ABatchJobKeptOffForItsNeighboursSlosSaysSo) {
  Workload batch = profiled(1, std::nullopt);
  batch.name = "triad";
  const Plan p = plan_checked(one_h100({profiled(20, 6.0), batch}));
  bool batch_unplaced = false;
  for (const auto& u : p.unplaced) {
    if (u.replica.workload != 1) continue;
    batch_unplaced = true;
    EXPECT_EQ(u.code, "slo_not_reachable");
    EXPECT_EQ(u.reason, "SLO not reachable: placed beside the clients of the used slices it would push cnn past its "
                        "SLO, and none of the 1 GPUs is left for it");
  }
  EXPECT_TRUE(batch_unplaced) << placed(p);
}

// A client whose own SLO would hold, left off for its neighbours': the reason names them, not its own SLO
// (run61: bert "exceeds 30.71x alone" with an SLO of 200 ms, where the three dlrm's SLO was what broke).
TEST(ProfiledPacking, AClientKeptOffForItsNeighboursSlosNamesThem) {
  Workload loose = profiled(1, 1000.0);
  loose.name = "loose";
  const Plan p = plan_checked(one_h100({profiled(20, 6.0), loose}));
  bool unplaced = false;
  for (const auto& u : p.unplaced) {
    if (u.replica.workload != 1) continue;
    unplaced = true;
    EXPECT_EQ(u.code, "slo_not_reachable");
    EXPECT_EQ(u.reason, "SLO not reachable: placed beside the clients of the used slices it would push cnn past its "
                        "SLO, and none of the 1 GPUs is left for it");
  }
  EXPECT_TRUE(unplaced) << placed(p);
}

}  // namespace gpupack
