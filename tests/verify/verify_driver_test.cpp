#include "verify/verify_driver.hpp"

#include <algorithm>

#include <gtest/gtest.h>

#include "fakes/fake_proc_reader.hpp"
#include "fakes/temp_dir.hpp"
#include "verify/host_speed_note.hpp"
#include "verify_fakes.hpp"

namespace gpupack::verify {
namespace {

class VerifyDriverTest : public ::testing::Test {
 protected:
  VerifyDriverTest() {
    options_.session.warmup_s = 0.5;
    options_.session.duration_s = 1;
    options_.session.stop_grace_s = 0.5;
    options_.scratch_dir = dir_.path();
    options_.repeat = 2;
  }

  // One time-slicing slice: `fast` x n (SLO 5 ms, predicted inflation 1.5) and one `batch`.
  VerifySetup setup(int fast) {
    SliceSetup s;
    s.gpu_id = "gpu0";
    s.slice_id = "s0";
    s.device_uuid = "GPU-0";
    s.sharing = "time-slicing";
    s.predicted_throughput = 1;
    for (int i = 0; i < fast; ++i) {
      ReplicaSetup r;
      r.workload = "fast";
      r.replica = i;
      r.command = "./fast";
      r.env = {{"CUDA_VISIBLE_DEVICES", "GPU-0"}};
      r.predicted_p99_inflation = 1.5;
      r.slo_ms = 5;
      s.replicas.push_back(r);
    }
    ReplicaSetup b;
    b.workload = "batch";
    b.command = "./batch";
    b.env = {{"CUDA_VISIBLE_DEVICES", "GPU-0"}};
    s.replicas.push_back(b);
    return {"node-0", {s}, {}, {}, {}, {}};
  }

  VerifyReport verify(const VerifySetup& s) {
    SessionDeps deps{runner_, fs_, world_.clock, proc_, nullptr,
                     [this](const std::string& path) {
                       const std::string dir = path.substr(0, path.rfind('/'));
                       return std::make_unique<testing::FakeReport>(world_, path, dir + "/go");
                     },
                     probe_};
    return run_verify(s, options_, deps);
  }

  // A replica off its profile's prediction beyond the tolerance is checked against how far apart its
  // profile's baseline runs alone were: fast measures 4 ms beside batch where its profile predicted 2.8 (+43%).
  VerifyReport verify_fast_beside_batch(RunRange runs) {
    world_.latency_scales = true;  // 2 ms x the clients running
    VerifySetup s = setup(1);
    ReplicaSetup& fast = s.slices[0].replicas[0];
    fast.profile_p99_ms = 2.8;
    fast.profile_req_per_s = 100;
    s.profile_alone["fast"] = {1.4, 200, "", runs};
    return verify(s);
  }

  CpuWorkProbe* probe_ = nullptr;
  testing::TempDir dir_;
  testing::World world_;
  testing::FakeRunner runner_{world_};
  testing::FakeProcReader proc_;
  PosixFilesystem fs_;
  DriverOptions options_;
};

TEST_F(VerifyDriverTest, SoloRunsThenRepeatsOfThePlanPredictFromWhatEachWorkloadDoesAlone) {
  world_.latency_scales = true;  // 1 ms x the clients running
  world_.scripts["fast-0"].latency_ms = 1;
  const VerifyReport r = verify(setup(1));
  // 2 workloads x 2 solo runs (one process each), then 2 repeats of 2 processes.
  EXPECT_EQ(world_.spawned.size(), 2u * 2 + 2u * 2);
  ASSERT_EQ(r.alone.size(), 2u);
  EXPECT_EQ(r.alone[0].workload, "fast");
  EXPECT_EQ(r.alone[0].p99_ms.runs, (std::vector<double>{1, 1}));
  // Solo runs have only the device, not the slice's limits.
  EXPECT_EQ(world_.spawned[0].env.count("CUDA_MPS_ACTIVE_THREAD_PERCENTAGE"), 0u);
  const ReplicaVerdict& fast = r.replicas[0];
  EXPECT_DOUBLE_EQ(*fast.predicted_p99_ms, 1.5);
  EXPECT_DOUBLE_EQ(*fast.p99_ms.mean(), 2);  // two clients running
  EXPECT_NEAR(*fast.p99_error, 1.0 / 3, 1e-9);
  EXPECT_EQ(fast.slo_met, true);
  EXPECT_EQ(fast.warnings.size(), 1u);  // +33% p99 is over the 25% tolerance
  EXPECT_FALSE(r.ok());
  // Each run in its own directory under the scratch directory.
  EXPECT_NE(world_.spawned.back().env.at("GPUPACK_REPORT").find(dir_.path() + "/run-6/"), std::string::npos);
}

TEST_F(VerifyDriverTest, ProfilePredictionsAreTheReplicasPredictionsAndSkipTheSoloRunsOfTheirWorkload) {
  world_.latency_scales = true;  // 2 ms x the clients running: fast-0 and batch together measure 4 ms
  VerifySetup s = setup(1);
  ReplicaSetup& fast = s.slices[0].replicas[0];
  fast.profile_p99_ms = 4.2;      // the plan's profile: 4.2 ms beside batch, 100 req/s (one every 10 ms)
  fast.profile_req_per_s = 100;
  fast.extrapolated = true;
  fast.slo_ms = 4.1;              // the profile predicted a breach; the measured 4 ms keeps the SLO
  const VerifyReport r = verify(s);
  // Only batch runs alone (2 solo runs), then 2 repeats of 2 processes.
  EXPECT_EQ(world_.spawned.size(), 2u + 2u * 2);
  ASSERT_EQ(r.alone.size(), 2u);
  EXPECT_EQ(r.alone[0].source, "profile");
  EXPECT_TRUE(r.alone[0].p99_ms.runs.empty());
  EXPECT_EQ(r.alone[1].source, "solo run");
  const ReplicaVerdict& f = r.replicas[0];
  EXPECT_EQ(f.prediction_source, "profile");
  EXPECT_TRUE(f.extrapolated);
  EXPECT_DOUBLE_EQ(*f.predicted_p99_ms, 4.2);
  EXPECT_DOUBLE_EQ(*f.predicted_req_per_s, 100);
  EXPECT_DOUBLE_EQ(*f.p99_ms.mean(), 4);
  EXPECT_NEAR(*f.p99_error, -0.2 / 4.2, 1e-9);
  EXPECT_EQ(f.slo_met, true);
  EXPECT_TRUE(f.problems().empty()) << f.problems().front();
  // batch has no profile: inflation x its solo p99 (2 ms alone, inflation 1).
  const ReplicaVerdict& b = r.replicas[1];
  EXPECT_EQ(b.prediction_source, "inflation x solo");
  EXPECT_FALSE(b.extrapolated);
  EXPECT_DOUBLE_EQ(*b.predicted_p99_ms, 2);
  const auto j = to_json(r);
  EXPECT_EQ(j["replicas"][0]["prediction_source"], "profile");
  EXPECT_EQ(j["replicas"][0]["extrapolated"], true);
  EXPECT_EQ(j["replicas"][1]["prediction_source"], "inflation x solo");
  EXPECT_EQ(j["alone"][0]["source"], "profile");
}

TEST_F(VerifyDriverTest, MeasureAloneReportsTheMachinesDriftAndRebasesTheProfilePredictions) {
  world_.latency_scales = true;  // 2 ms x the clients running: 2 ms alone, 4 ms beside batch
  VerifySetup s = setup(1);
  ReplicaSetup& fast = s.slices[0].replicas[0];
  fast.profile_p99_ms = 3.0;  // the plan's profile prediction beside batch
  fast.profile_req_per_s = 100;
  s.profile_alone["fast"] = {1.6, 400, "", {}};  // what the profile measured alone, on its machine
  options_.measure_alone = true;
  const VerifyReport r = verify(s);
  EXPECT_EQ(world_.spawned.size(), 2u + 2u + 2u * 2);  // both workloads alone twice, then the plan twice
  ASSERT_EQ(r.alone.size(), 2u);
  const AloneFigures& a = r.alone[0];
  EXPECT_EQ(a.source, "solo run");
  ASSERT_TRUE(a.p99_ms.mean() && a.req_per_s.mean());
  EXPECT_DOUBLE_EQ(*a.p99_ms.mean(), 2);
  EXPECT_NEAR(*a.p99_drift(), 2 / 1.6 - 1, 1e-9);  // this machine: +25% p99 alone
  EXPECT_NEAR(*a.req_per_s_drift(), *a.req_per_s.mean() / 400 - 1, 1e-9);
  const ReplicaVerdict& f = r.replicas[0];
  EXPECT_EQ(f.prediction_source, "profile");
  EXPECT_DOUBLE_EQ(*f.predicted_p99_ms, 3.0);  // the plan's prediction stays what is checked
  EXPECT_NEAR(*f.p99_error, 4 / 3.0 - 1, 1e-9);
  EXPECT_NEAR(*f.rebased_p99_error, 4 / (3.0 * 1.25) - 1, 1e-9);
  EXPECT_NEAR(*f.rebased_throughput_error, *f.req_per_s.mean() / (100 * (1 + *a.req_per_s_drift())) - 1, 1e-9);
  EXPECT_FALSE(r.replicas[1].rebased_p99_error);  // batch has no profile
  const auto j = to_json(r);
  EXPECT_NEAR(j["alone"][0]["p99_drift"].get<double>(), 0.25, 1e-9);
  EXPECT_NEAR(j["replicas"][0]["rebased_p99_error"].get<double>(), 4 / 3.75 - 1, 1e-9);
  EXPECT_TRUE(j["alone"][1]["p99_drift"].is_null());
}

TEST_F(VerifyDriverTest, AMissWithinTheProfilesBaselineRunsIsNamedAsSuch) {
  // Its p99 alone from 0.6 to 1.4 of the median: measured / predicted up to 1.4 / 0.75 = 1.87 is within.
  const VerifyReport r = verify_fast_beside_batch({0.7, 1.4, 0.6, 1.4});
  const ReplicaVerdict& f = r.replicas[0];
  ASSERT_TRUE(f.p99_error);
  EXPECT_NEAR(*f.p99_error, 4 / 2.8 - 1, 1e-9);
  ASSERT_TRUE(f.miss_within_profile_runs);
  EXPECT_TRUE(*f.miss_within_profile_runs);
  EXPECT_FALSE(r.replicas[1].miss_within_profile_runs);  // batch has no profile
  EXPECT_EQ(to_json(r)["replicas"][0]["miss_within_profile_runs"], true);
  bool noted = false;
  for (const auto& n : r.notes) noted = noted || n.rfind("1 of the 1 replicas off their profile's prediction", 0) == 0;
  EXPECT_TRUE(noted);
}

TEST_F(VerifyDriverTest, AMissBeyondTheProfilesBaselineRunsIsTheModels) {
  // Its p99 alone within 5%: measured / predicted up to 1.05 / 0.75 = 1.40, and it measured 1.43.
  const VerifyReport r = verify_fast_beside_batch({0.97, 1.02, 0.95, 1.05});
  ASSERT_TRUE(r.replicas[0].miss_within_profile_runs);
  EXPECT_FALSE(*r.replicas[0].miss_within_profile_runs);
}

TEST_F(VerifyDriverTest, AMissOfAProfileWithOneBaselineRunIsNotJudged) {
  const VerifyReport r = verify_fast_beside_batch({});
  EXPECT_FALSE(r.replicas[0].miss_within_profile_runs);
  EXPECT_TRUE(to_json(r)["replicas"][0]["miss_within_profile_runs"].is_null());
}

// The node's host speed is timed before any replica starts (a client spinning on a core would be timed
// instead), reported beside each profile's host in the JSON and a note.
TEST_F(VerifyDriverTest, TheNodesHostSpeedIsTimedBeforeTheRunsAndSetBesideTheProfilesHosts) {
  struct CountingProbe : CpuWorkProbe {
    explicit CountingProbe(testing::World& w) : world(w) {}
    std::optional<double> time_next_core() override {
      spawned_before.push_back(world.spawned.size());
      return 3.0;
    }
    testing::World& world;
    std::vector<std::size_t> spawned_before;
  } probe(world_);
  probe_ = &probe;
  VerifySetup s = setup(1);
  s.profile_alone["fast"] = {1.4, 200, "", {}, 1.5};
  const VerifyReport r = verify(s);
  ASSERT_EQ(probe.spawned_before.size(), static_cast<size_t>(kHostWorkSamples));
  for (const std::size_t n : probe.spawned_before) EXPECT_EQ(n, 0u);
  ASSERT_TRUE(r.host_core_work);
  EXPECT_DOUBLE_EQ(r.host_core_work->median_ms, 3.0);
  const auto j = to_json(r);
  EXPECT_EQ(j["host_core_work"]["samples"], kHostWorkSamples);
  EXPECT_EQ(j["alone"][0]["workload"], "fast");
  EXPECT_DOUBLE_EQ(j["alone"][0]["profile_host_core_work_ms"].get<double>(), 1.5);
  EXPECT_TRUE(j["alone"][1]["profile_host_core_work_ms"].is_null());
  const bool noted = std::any_of(r.notes.begin(), r.notes.end(), [](const std::string& n) {
    return n.find("fast 1.50 ms (x2.00)") != std::string::npos;
  });
  EXPECT_TRUE(noted) << ::testing::PrintToString(r.notes);
}

TEST_F(VerifyDriverTest, WithoutAProbeTheHostIsNotTimed) {
  const VerifyReport r = verify(setup(1));
  EXPECT_FALSE(r.host_core_work);
  EXPECT_TRUE(to_json(r)["host_core_work"].is_null());
}

TEST_F(VerifyDriverTest, AProfiledReplicaMeasuredOverItsSloBreaksIt) {
  world_.latency_scales = true;
  world_.scripts["fast-0"].latency_ms = 3;  // 6 ms beside batch
  VerifySetup s = setup(1);
  ReplicaSetup& fast = s.slices[0].replicas[0];
  fast.profile_p99_ms = 4.2;
  fast.profile_req_per_s = 100;
  fast.slo_ms = 5;
  const VerifyReport broken = verify(s);
  EXPECT_EQ(world_.spawned.size(), 2u + 2u * 2);  // batch alone twice, then the plan twice
  EXPECT_EQ(broken.replicas[0].slo_met, false);
  EXPECT_NEAR(*broken.replicas[0].p99_error, 6 / 4.2 - 1, 1e-9);
  EXPECT_FALSE(broken.ok());
}

TEST_F(VerifyDriverTest, AProfileThatLeavesOutAFigureStillGetsTheSoloRunForIt) {
  VerifySetup s = setup(1);
  s.slices[0].replicas[0].profile_p99_ms = 3;  // no req/s from the profile
  options_.repeat = 1;
  const VerifyReport r = verify(s);
  EXPECT_EQ(r.alone[0].source, "solo run");
  EXPECT_EQ(r.replicas[0].prediction_source, "profile");
  EXPECT_DOUBLE_EQ(*r.replicas[0].predicted_p99_ms, 3);
  ASSERT_TRUE(r.replicas[0].predicted_req_per_s.has_value());
  EXPECT_DOUBLE_EQ(*r.replicas[0].predicted_req_per_s, *r.alone[0].req_per_s.mean());  // slice throughput 1
}

TEST_F(VerifyDriverTest, TheDensitySearchFindsTheMostReplicasThatKeepTheSlo) {
  world_.latency_scales = true;  // every fast replica: 1.2 ms x the clients running; SLO 5 ms: 4 clients fit
  for (int i = 0; i < 8; ++i) world_.scripts["fast-" + std::to_string(i)].latency_ms = 1.2;
  options_.solo = false;
  options_.repeat = 1;
  options_.search = "fast";
  options_.tolerance = 100;
  const VerifyReport r = verify(setup(2));
  ASSERT_TRUE(r.search.has_value());
  EXPECT_EQ(r.search->planned, 2);
  EXPECT_EQ(r.search->most_that_fit, 3);  // 3 fast + batch = 4 clients: 4.8 ms; 4 + batch: 6 ms
  ASSERT_EQ(r.search->steps.size(), 3u);
  EXPECT_EQ(r.search->steps[0].replicas, 2);
  EXPECT_TRUE(r.search->steps[1].fits);
  EXPECT_FALSE(r.search->steps[2].fits);
  EXPECT_NE(r.search->steps[2].why.find("> SLO 5.00 ms"), std::string::npos) << r.search->steps[2].why;
  EXPECT_FALSE(r.search->capped);
  EXPECT_DOUBLE_EQ(*r.search->planned_share(), 2.0 / 3);  // issue 15's target is 0.9
  // Each fast replica makes a request every 10 ms: the steps' req/s together are 100 per replica.
  for (const auto& st : r.search->steps) {
    ASSERT_TRUE(st.aggregate_req_per_s) << st.replicas;
    EXPECT_NEAR(*st.aggregate_req_per_s, 100.0 * st.replicas, 100.0 * st.replicas * 0.05) << st.replicas;
  }
  ASSERT_TRUE(r.search->knee());
  EXPECT_EQ(r.search->knee()->at->replicas, 3);  // the most that fit: the requests grew with every fitting step
  EXPECT_EQ(r.search->knee()->next, nullptr);
  const auto j = to_json(r)["search"];
  EXPECT_EQ(j["knee"]["replicas"], 3);
  EXPECT_TRUE(j["knee"]["next_replicas"].is_null());
  EXPECT_TRUE(j["steps"][0]["aggregate_req_per_s"].is_number());
}

// The plan's reason for the replicas it left out is what the user compares with the density found (a plan
// bound by the fleet's host cores where more would keep the SLO): counted for the searched workload only.
TEST_F(VerifyDriverTest, TheDensitySearchSaysWhyThePlanPlacedNoMore) {
  options_.solo = false;
  options_.repeat = 1;
  options_.search = "fast";
  options_.search_max = 2;
  VerifySetup s = setup(1);
  s.unplaced = {{"fast", 1, "no_host_cores", "no host cores left"}, {"batch", 1, "no_capacity", "no GPU left"},
                {"fast", 2, "no_host_cores", "no host cores left"}};
  const VerifyReport r = verify(s);
  ASSERT_TRUE(r.search.has_value());
  EXPECT_EQ(r.search->unplaced, 2);
  EXPECT_EQ(r.search->unplaced_text(), "the plan left 2 more of fast unplaced (no_host_cores): no host cores left");
  EXPECT_EQ(to_json(r)["search"]["unplaced"]["count"], 2);
  EXPECT_EQ(SearchResult{}.unplaced_text(), "");  // all placed: nothing to say
}

TEST_F(VerifyDriverTest, LargerSearchStepsBisectTheBreakToOneReplica) {
  world_.latency_scales = true;  // as above: 1.2 ms x clients, SLO 5 ms: 3 fast + batch fit, 4 do not
  for (int i = 0; i < 8; ++i) world_.scripts["fast-" + std::to_string(i)].latency_ms = 1.2;
  options_.solo = false;
  options_.repeat = 1;
  options_.search = "fast";
  options_.search_step = 4;
  options_.tolerance = 100;
  const VerifyReport r = verify(setup(1));
  ASSERT_TRUE(r.search.has_value());
  EXPECT_EQ(r.search->most_that_fit, 3);
  std::vector<int> tried;
  for (const auto& st : r.search->steps) tried.push_back(st.replicas);
  EXPECT_EQ(tried, (std::vector<int>{1, 5, 3, 4}));  // up by 4 to a break at 5, then bisected
  EXPECT_FALSE(r.search->capped);
}

TEST_F(VerifyDriverTest, TheSearchGoesDownWhenThePlanAlreadyBreaksTheSlo) {
  world_.latency_scales = true;
  for (int i = 0; i < 8; ++i) world_.scripts["fast-" + std::to_string(i)].latency_ms = 2;  // 2 ms x clients
  options_.solo = false;
  options_.repeat = 1;
  options_.search = "fast";
  const VerifyReport r = verify(setup(3));  // 4 clients: 8 ms; 2 clients (1 fast + batch): 4 ms
  EXPECT_EQ(r.search->most_that_fit, 1);
  EXPECT_EQ(r.search->steps.size(), 3u);
  EXPECT_DOUBLE_EQ(*r.search->planned_share(), 3);  // the plan put 3 where 1 fits
}

// Past the host's cores more copies may keep the SLO and add no requests (issue 37's decode loop: 556 req/s
// at 16 copies, 546 at 24; run44's mobilenet 2547 at 15, 2498-2677 up to 30): the knee is read from the
// fitting steps in order of replicas by the profile grid's rule, the first after which the next grew by less
// than half of what its added replicas would add at its rate a replica; the highest sum of a flat run is noise.
TEST(SearchResult, TheKneeIsWhereTheRequestsTogetherStoppedGrowing) {
  SearchResult s;
  s.workload = "mobilenet";
  s.planned = 15;
  EXPECT_FALSE(s.knee());
  EXPECT_EQ(s.knee_text(), "");
  // run44's steps (H200, 16 cores), in the order the search ran them.
  s.steps = {{15, true, 14.5, 2547.0, ""}, {19, true, 29.2, 2653.0, ""}, {23, true, 22.2, 2498.0, ""},
             {27, true, 34.6, 2677.0, ""}, {31, false, 34.5, 2469.0, "p99 34.48 ms > SLO 27.00 ms"},
             {29, true, 24.3, 2524.0, ""}, {30, true, 27.5, 2532.0, ""}};
  s.most_that_fit = 30;
  ASSERT_TRUE(s.knee());
  EXPECT_EQ(s.knee()->at->replicas, 15);  // 19 would have had to reach 2547 x (1 + 0.5 x 4/15) = 2887
  EXPECT_EQ(s.knee()->next->replicas, 19);
  EXPECT_EQ(s.knee_text(), "; its req/s together stopped growing after 15 replicas (2547 req/s, 2653 at 19): plan / knee 1.00");
  EXPECT_DOUBLE_EQ(*s.planned_share(), 0.5);
  // Growing steps: the knee is the next one that did not grow enough, wherever the search ran it.
  s.steps = {{8, true, 10.0, 1000.0, ""}, {16, true, 12.0, 1900.0, ""}, {12, true, 11.0, 1450.0, ""},
             {20, true, 20.0, 1950.0, ""}};
  EXPECT_EQ(s.knee()->at->replicas, 16);  // 12: +45% for +50% copies; 16: +31% for +33%; 20: +3% for +25%
  // A step that measured no requests, or broke the SLO, is left out; all growing: the most that fit.
  s.steps = {{8, true, 10.0, 1000.0, ""}, {10, true, 10.0, std::nullopt, ""}, {12, true, 11.0, 1450.0, ""},
             {16, false, 90.0, 100.0, "broke"}};
  EXPECT_EQ(s.knee()->at->replicas, 12);
  EXPECT_EQ(s.knee()->next, nullptr);
  EXPECT_EQ(s.knee_text(), "; its req/s together grew to 12 replicas (1450 req/s): plan / knee 1.25");
}

TEST(SearchResult, PlannedShareIsNoneWhenNothingFits) {
  SearchResult s;
  s.planned = 2;
  EXPECT_FALSE(s.planned_share());
  s.most_that_fit = 4;
  EXPECT_DOUBLE_EQ(*s.planned_share(), 0.5);
}

}  // namespace
}  // namespace gpupack::verify
