#include "verify/verify_session.hpp"

#include <gtest/gtest.h>

#include "fakes/fake_proc_reader.hpp"
#include "fakes/temp_dir.hpp"
#include "verify/verify_result.hpp"
#include "verify_fakes.hpp"

namespace gpupack::verify {
namespace {

using testing::FakeChild;
using testing::Script;

class VerifySessionTest : public ::testing::Test {
 protected:
  VerifySessionTest() {
    options_.warmup_s = 1;
    options_.duration_s = 2;
    options_.ready_timeout_s = 10;
    options_.stop_grace_s = 1;
    options_.work_dir = dir_.path();
  }

  // One time-slicing slice with `names` replicas of workload "w" (w-0, w-1, ...).
  std::vector<SliceSetup> slices(int replicas, const std::vector<bool>& reports = {}) {
    SliceSetup s;
    s.gpu_id = "gpu0";
    s.slice_id = "s0";
    s.device_uuid = "GPU-0";
    s.sharing = "time-slicing";
    for (int i = 0; i < replicas; ++i) {
      ReplicaSetup r;
      r.workload = "w";
      r.replica = i;
      r.command = "./client";
      r.reports = reports.empty() ? true : reports[static_cast<size_t>(i)];
      r.env = {{"CUDA_VISIBLE_DEVICES", "GPU-0"}};
      r.memory_limit_bytes = 1u << 30;
      r.slo_ms = 5;
      s.replicas.push_back(r);
    }
    return {s};
  }

  SessionRun run(const std::vector<SliceSetup>& s) {
    SessionDeps deps{runner_, fs_, world_.clock, proc_, &gpu_, [this](const std::string& path) {
                       return std::make_unique<testing::FakeReport>(world_, path, dir_.path() + "/go");
                     }};
    return run_session(s, options_, deps);
  }

  void expect_all_stopped() {
    for (FakeChild* c : world_.children) EXPECT_FALSE(c->running()) << c->pid();
  }

  testing::TempDir dir_;
  testing::World world_;
  testing::FakeRunner runner_{world_};
  testing::FakeGpu gpu_{world_};
  testing::FakeProcReader proc_;
  PosixFilesystem fs_;
  SessionOptions options_;
};

// The GPU's GPM activity over the window reaches the run, per slice, from the reads made in the window.
TEST_F(VerifySessionTest, TheGpusActivityInTheWindowIsMeasuredPerSlice) {
  gpu_.gpm = GpmActivity{0.5, 0.1, 0.25, 0.75, 0.5};
  options_.sample_s = 0.25;
  const SessionRun r = run(slices(1));
  ASSERT_EQ(r.activity.size(), 1u);
  ASSERT_TRUE(r.activity[0].has_value());
  EXPECT_DOUBLE_EQ(*r.activity[0]->sm_active, 0.5);
  EXPECT_DOUBLE_EQ(*r.activity[0]->dram_bw, 0.75);
  EXPECT_DOUBLE_EQ(*r.activity[0]->tensor_active, 0.25);
  EXPECT_GE(r.activity[0]->samples, 6);  // a 2 s window read every 0.25 s, less the reads across its edges
  EXPECT_LE(r.activity[0]->seconds, 2.0 + 1e-9);
}

// A slice on a device whose reads carry no GPM (before Hopper) has none.
TEST_F(VerifySessionTest, NoGpmNoActivity) {
  const SessionRun r = run(slices(1));
  ASSERT_EQ(r.activity.size(), 1u);
  EXPECT_FALSE(r.activity[0].has_value());
}

TEST_F(VerifySessionTest, ReleasesEveryReplicaTogetherMeasuresTheWindowAndStopsThem) {
  world_.scripts["w-1"].ready_after_s = 3;  // the slowest sets the release
  world_.scripts["w-1"].latency_ms = 4;
  const SessionRun r = run(slices(2));
  ASSERT_EQ(r.slices.size(), 1u);
  ASSERT_EQ(r.slices[0].size(), 2u);
  EXPECT_NEAR(r.window_s, 2.0, 1e-9);
  for (const auto& rep : r.slices[0]) {
    EXPECT_TRUE(rep.reported);
    ASSERT_TRUE(rep.figures.has_value()) << rep.name;
    EXPECT_NEAR(rep.figures->req_per_s, 100, 5) << rep.name;  // one request per 10 ms, in the window only
    EXPECT_FALSE(rep.ended_early);
  }
  EXPECT_DOUBLE_EQ(*r.slices[0][0].figures->p99_ms, 2);
  EXPECT_DOUBLE_EQ(*r.slices[0][1].figures->p99_ms, 4);
  // The release happened after the last ready line (3 s), the window after the warm-up: about 3+1+2 s.
  EXPECT_GE(world_.clock.seconds(), 6.0);
  EXPECT_LT(world_.clock.seconds(), 6.2);
  // Each replica got its report, go file and the rendered environment, and SIGTERM at the end.
  ASSERT_EQ(world_.spawned.size(), 2u);
  EXPECT_EQ(world_.spawned[0].env.at("CUDA_VISIBLE_DEVICES"), "GPU-0");
  EXPECT_EQ(world_.spawned[0].env.at("GPUPACK_GO"), dir_.path() + "/go");
  EXPECT_NE(world_.spawned[0].env.at("GPUPACK_REPORT"), world_.spawned[1].env.at("GPUPACK_REPORT"));
  for (FakeChild* c : world_.children) EXPECT_EQ(c->signals, std::vector<int>{SIGTERM});
  expect_all_stopped();
}

TEST_F(VerifySessionTest, AReplicaThatNeverGetsReadyFailsNamingItAndEverythingStops) {
  world_.scripts["w-1"].never_ready = true;
  try {
    run(slices(2));
    FAIL() << "no VerifyFailure";
  } catch (const VerifyFailure& e) {
    EXPECT_NE(std::string(e.what()).find("w-1 wrote no ready line"), std::string::npos) << e.what();
  }
  EXPECT_NEAR(world_.clock.seconds(), 10.0, 0.1);
  expect_all_stopped();
}

TEST_F(VerifySessionTest, AReplicaThatDiesBeforeReadyFailsWithItsExitCode) {
  world_.scripts["w-0"].exit_after_s = 0.2;
  world_.scripts["w-0"].exit_code = 3;
  try {
    run(slices(2));
    FAIL() << "no VerifyFailure";
  } catch (const VerifyFailure& e) {
    EXPECT_NE(std::string(e.what()).find("w-0 exited with code 3 before it wrote its ready line"), std::string::npos) << e.what();
  }
  expect_all_stopped();
}

TEST_F(VerifySessionTest, ACrashInTheWindowIsRecordedAndReportedAsAProblem) {
  world_.scripts["w-1"].exit_after_s = 2.0;  // ready at 0.5, released at 0.5, crashes in the window
  world_.scripts["w-1"].exit_code = 4;
  const auto s = slices(2);
  const SessionRun r = run(s);
  EXPECT_EQ(r.slices[0][1].exit_code, 4);
  EXPECT_TRUE(r.slices[0][1].ended_early);
  const VerifyReport report = compare({"n", s, {}, {}, {}, {}}, {r}, {}, 0.25);
  EXPECT_FALSE(report.ok());
  ASSERT_FALSE(report.replicas[1].failures.empty());
  EXPECT_NE(report.replicas[1].failures[0].find("crashed (exit code 4)"), std::string::npos);
  std::string why;
  EXPECT_FALSE(run_fits(s, r, why));
  EXPECT_NE(why.find("w-1"), std::string::npos);
  expect_all_stopped();
}

TEST_F(VerifySessionTest, CtrlCStopsEverything) {
  int polls = 0;
  options_.interrupted = [&] { return ++polls > 60; };  // about 1.2 s in: during the warm-up
  EXPECT_THROW(run(slices(3)), VerifyInterrupted);
  expect_all_stopped();
  for (FakeChild* c : world_.children) EXPECT_EQ(c->signals, std::vector<int>{SIGTERM});
}

TEST_F(VerifySessionTest, AReplicaIgnoringSigtermIsKilledAfterTheGrace) {
  world_.scripts["w-0"].ignores_sigterm = true;
  run(slices(1));
  EXPECT_EQ(world_.children[0]->signals, (std::vector<int>{SIGTERM, SIGKILL}));
  expect_all_stopped();
}

TEST_F(VerifySessionTest, PlainProgramsDoNotHoldTheReleaseAndAreCheckedForMemory) {
  world_.scripts["w-1"].gpu_memory = 3ull << 30;  // over its 1 GiB limit
  const auto s = slices(2, {true, false});
  const SessionRun r = run(s);
  EXPECT_FALSE(r.slices[0][1].reported);
  EXPECT_FALSE(r.slices[0][1].figures.has_value());
  EXPECT_TRUE(r.slices[0][1].gpu_seen);
  EXPECT_EQ(r.slices[0][1].peak_memory_bytes, 3ull << 30);
  EXPECT_EQ(world_.spawned[1].env.count("GPUPACK_REPORT"), 0u);
  const VerifyReport report = compare({"n", s, {}, {}, {}, {}}, {r}, {}, 0.25);
  ASSERT_EQ(report.replicas[1].failures.size(), 1u);
  EXPECT_NE(report.replicas[1].failures[0].find("used 3072 MiB of GPU memory, over its limit of 1024 MiB"), std::string::npos);
  EXPECT_TRUE(report.replicas[0].problems().empty());
}

}  // namespace
}  // namespace gpupack::verify
