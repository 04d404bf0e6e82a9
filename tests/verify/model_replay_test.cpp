// What `gpupack model replay` reads of a recorded run (verify/recorded_run.hpp) and how it sums the errors
// (verify/model_replay.hpp); tests/cli/recorded_verify_runs_test.cpp replays the recorded runs themselves.
#include <gtest/gtest.h>

#include "core/errors.hpp"
#include "verify/model_replay.hpp"
#include "verify/recorded_run.hpp"

namespace gpupack::verify {
namespace {

std::string replica(const std::string& workload, double req, double p99, const std::string& stalls = "") {
  return R"({"workload": ")" + workload + R"(", "req_per_s": {"mean": )" + std::to_string(req) +
         R"(}, "p99_ms": {"mean": )" + std::to_string(p99) + ", \"runs\": [" + std::to_string(p99) + "]}" + stalls + "}";
}

TEST(RecordedRun, AReplicasTailIsItsOwnBelowTwiceItsMeanWithoutNamedStalls) {
  const std::string stalls =
      R"(, "stall_hit_fraction": {"runs": [0.2]}, "p99_without_stalls_ms": {"mean": 3.0, "runs": [3.0]})";
  const auto r = recorded_replicas(R"({"replicas": [)" + replica("a", 250, 3.9) + ", " + replica("a", 250, 8.1) + ", " +
                                       replica("b", 100, 5, stalls) + "]}",
                                   "v.json");
  ASSERT_EQ(r.size(), 3u);
  EXPECT_TRUE(r[0].stall_free);   // 3.9 ms < 2 x 4 ms
  EXPECT_FALSE(r[1].stall_free);  // 8.1 ms >= 2 x 4 ms: a long tail all the same
  EXPECT_FALSE(r[2].stall_free);  // a fifth of its requests met shared stalls
  EXPECT_EQ(r[2].p99_without_stalls_ms, 3.0);
  EXPECT_THROW(recorded_replicas(R"({"replicas": [)" + replica("a", 0, 3) + "]}", "v.json"), InputError);
}

TEST(RecordedRun, ReadsTheSlicesClients) {
  const auto c = recorded_slice_clients(
      R"({"gpus": [{"slices": [{"clients": [{"replicas": [{"workload": "r"}, {"workload": "r"}], "compute": 0.2,
          "mps_active_thread_percentage": 40}]}]}]})",
      "p.json");
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].workload, "r");
  EXPECT_EQ(c[0].replicas, 2);
  EXPECT_EQ(c[0].compute, 0.2);
  EXPECT_EQ(c[0].cap_pct, 40);
  try {
    recorded_slice_clients(R"({"gpus": [{"slices": [{"clients": [{"replicas": [{"workload": "r"}]}]}]}]})", "p.json");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "p.json: gpus[0].slices[0].clients[0] has no \"mps_active_thread_percentage\"");
  }
  // A run whose plan put its replica alone on an exclusive GPU (run66's second round of the inference scenario).
  try {
    recorded_slice_clients(R"({"gpus": [{"slices": [{"sharing": "exclusive", "clients": [{"replicas": [{"workload": "r"}],
        "compute": 0.4, "mps_active_thread_percentage": null}]}]}]})",
                           "p.json");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(),
                 "p.json: gpus[0].slices[0] is exclusive; the replay predicts slices shared under MPS (leave this run out "
                 "of the manifest)");
  }
}

TEST(ModelReplay, SumsPerSetAndWorkloadAgainstIssueFifteensTargets) {
  RunReplay in{{"d1", "s", "g", "m", RunSet::in_sample, ""}, {{"w", 10, 1, {{0.10, 0.30, true, {}}, {-0.20, 0.5, false, 0.1}}}}};
  RunReplay out{{"d2", "s", "g", "m", RunSet::held_out, ""}, {{"w", 10, 1, {{0.05, -0.20, true, {}}}}}};
  RunReplay corpus{{"d3", "s", "g", "m", RunSet::corpus, "p"}, {{"v", 10, 1, {{0.40, 0.10, true, {}}}}}};
  const auto summary = summarise({corpus, in, out});
  ASSERT_EQ(summary.size(), 5u);  // by set, then workload: "all" last
  EXPECT_EQ(summary[0].set, "in-sample");
  EXPECT_EQ(summary[1].set, "held-out");
  EXPECT_EQ(summary[2].set, "corpus");
  EXPECT_EQ(summary[2].workload, "v");
  EXPECT_DOUBLE_EQ(summary[2].req_per_s.worst, 0.40);
  EXPECT_EQ(summary[3].set, "all");
  EXPECT_EQ(summary[3].workload, "v");
  const WorkloadSummary& all = summary[4];
  EXPECT_EQ(all.set, "all");
  EXPECT_EQ(all.replicas, 3);
  EXPECT_EQ(all.stalled, 1);
  EXPECT_DOUBLE_EQ(all.req_per_s.worst, 0.20);
  EXPECT_DOUBLE_EQ(all.req_per_s.mean_abs(), 0.35 / 3);
  EXPECT_EQ(all.req_per_s.within, 2);  // 0.20 is past 15%
  EXPECT_EQ(all.p99.count, 2);         // the stall-free ones only
  EXPECT_DOUBLE_EQ(all.p99.worst, 0.30);
  EXPECT_DOUBLE_EQ(all.p99.within_share(), 0.5);
  EXPECT_EQ(all.p99_without_stalls.count, 1);
  EXPECT_DOUBLE_EQ(all.p99_without_stalls.worst, 0.1);
  EXPECT_EQ(summary[0].p99.count, 1);
  // Within both at once (p99 as measured, stalled or not): only held-out's (+5%, -20%).
  EXPECT_EQ(summary[0].within_both, 0);
  EXPECT_EQ(summary[1].within_both, 1);
  EXPECT_EQ(summary[2].within_both, 0);  // req/s +40%
  EXPECT_EQ(all.within_both, 1);
  EXPECT_TRUE(within_both_targets(-0.15, 0.25));  // the bounds are within
  EXPECT_FALSE(within_both_targets(0.0, -0.26));
}

TEST(ModelReplay, CountsTheReplicasWithinBothOnceEachRunsLevelIsDividedOut) {
  // Three replicas of one workload in one run, all 40-50% fast (a level the run shares) and one of them
  // scattered: divided by the median replica's (+45%, +10%), two are within both and the scattered one is not.
  RunReplay level{{"d1", "s", "g", "m", RunSet::corpus, "p"},
                  {{"w", 10, 1, {{0.40, 0.10, true, {}}, {0.45, 0.12, true, {}}, {0.45, 0.60, false, {}}}}}};
  // Another run of it whose one replica is within: its own median, so within either way.
  RunReplay near{{"d2", "s", "g", "m", RunSet::corpus, "p"}, {{"w", 10, 1, {{0.05, -0.10, true, {}}}}}};
  const auto summary = summarise({level, near});
  ASSERT_EQ(summary.size(), 2u);
  const WorkloadSummary& corpus = summary[0];
  EXPECT_EQ(corpus.replicas, 4);
  EXPECT_EQ(corpus.within_both, 1);
  // (1.40 / 1.45 - 1 = -3%, 1.10 / 1.12 - 1 = -2%), (0, 0), (0, 1.60 / 1.12 - 1 = +43%) and the other run's (0, 0).
  EXPECT_EQ(corpus.within_both_level_removed, 3);
  EXPECT_EQ(summary[1].within_both_level_removed, 3);  // "all"
}

TEST(ModelReplay, CountsTheReplicasWithinBothOrTheirBaselinesRunRange) {
  // Summed per workload beside within_both: a replica counts where each figure is within its target or its range.
  ReplicaError in_range{0.40, 0.10, true, {}};
  in_range.within_both_or_run_range = true;
  RunReplay run{{"d", "s", "g", "m", RunSet::corpus, "p"}, {{"w", 10, 1, {in_range, {0.05, 0.05, true, {}}, {0.60, 0.0, true, {}}}}}};
  run.workloads[0].replicas[1].within_both_or_run_range = true;
  const auto summary = summarise({run});
  EXPECT_EQ(summary[0].within_both, 1);
  EXPECT_EQ(summary[0].within_both_or_run_range, 2);
}

TEST(RecordedRun, ReadsTheSlicesMeasuredSmActivityWhereVerifyRecordedIt) {
  EXPECT_EQ(recorded_sm_active(R"({"slices": [{"gpu_activity": {"sm_active": {"mean": 0.885, "runs": [0.885]}}}]})", "v.json"),
            0.885);
  // A GPU without GPM, or a report from before gpu_activity: none.
  EXPECT_FALSE(recorded_sm_active(R"({"slices": [{"gpu_activity": null}]})", "v.json"));
  EXPECT_FALSE(recorded_sm_active(R"({"replicas": []})", "v.json"));
  try {
    recorded_sm_active(R"({"slices": [{"gpu_activity": {"sm_active": {"mean": 1.7}}}]})", "v.json");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "v.json: slices[0].gpu_activity.sm_active.mean must be a share from 0 to 1");
  }
}

TEST(ModelReplay, SumsThePredictedSmActivityAgainstTheMeasuredOverTheRunsWithBoth) {
  auto run = [](std::optional<double> predicted, std::optional<double> measured) {
    RunReplay r{{"d", "s", "g", "m", RunSet::corpus, "p"}, {}};
    r.predicted_sm_active = predicted;
    r.measured_sm_active = measured;
    return r;
  };
  const ActivitySummary a = summarise_activity(
      {run(0.79, 0.75), run(0.99, 0.98), run(0.72, 0.47), run(0.80, 0.88), run(0.5, std::nullopt), run(std::nullopt, 0.5)});
  EXPECT_EQ(a.runs, 4);
  EXPECT_EQ(a.within_005, 2);
  EXPECT_EQ(a.within_010, 3);
  EXPECT_NEAR(a.median_abs, (0.04 + 0.08) / 2, 1e-12);
  EXPECT_NEAR(a.worst, -0.25, 1e-12);  // keeps its sign: measured under predicted
  EXPECT_EQ(summarise_activity({run(0.5, std::nullopt)}).runs, 0);
}

}  // namespace
}  // namespace gpupack::verify
