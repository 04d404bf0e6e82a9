// The whole experiment driver without a GPU: fake workers (fake-bench-worker.sh, shaped by their
// environment) and the fake MPS control program. Checks that each mode's workers got that mode's
// environment, that the MPS parts are skipped with the reason when the daemon cannot start, and that the
// daemon is always shut down and its temporary directory removed.
#include "bench/bench_runner.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "bench/metrics.hpp"
#include "bench/verdicts.hpp"
#include "fakes/temp_dir.hpp"

namespace gpupack::bench {
namespace {

class RunnerTest : public ::testing::Test {
 protected:
  SystemEnv system;  // the real files, clock and TMPDIR: the workers and fakes are real processes
  void SetUp() override {
    ::setenv("FAKE_WORKER_STATE", tmp.path().c_str(), 1);
    old_tmpdir_ = std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "";
    ::setenv("TMPDIR", tmp.path().c_str(), 1);  // where MpsSession puts its private directories
  }
  void TearDown() override {
    ::unsetenv("FAKE_MPS_FAIL");
    ::unsetenv("FAKE_WORKER_FAIL_UNDER_MPS");
    ::unsetenv("FAKE_WORKER_STATE");
    if (old_tmpdir_.empty()) {
      ::unsetenv("TMPDIR");
    } else {
      ::setenv("TMPDIR", old_tmpdir_.c_str(), 1);
    }
  }

  BenchResults run(const std::set<Part>& parts = {Part::streams, Part::time_slicing, Part::mps, Part::isolation,
                                                  Part::limits, Part::mig}) {
    BenchOptions o;
    o.quick = true;
    o.parts = parts;
    o.mps_control = FAKE_MPS_CONTROL;
    Progress progress(log, false);
    return run_bench(o, FAKE_BENCH_WORKER, progress, system.env());
  }

  // No private MPS directory is left behind: the daemon was told to quit and went.
  bool mps_directories_left() const {
    for (const auto& e : std::filesystem::directory_iterator(tmp.path())) {
      if (e.path().filename().string().rfind("gpupack-bench-mps-", 0) == 0) return true;
    }
    return false;
  }

  const Skip* skipped(const BenchResults& r, const std::string& part) const {
    for (const auto& s : r.skipped) {
      if (s.part == part) return &s;
    }
    return nullptr;
  }

  gpupack::testing::TempDir tmp;
  std::ostringstream log;
  std::string old_tmpdir_;
};

TEST_F(RunnerTest, EveryModeRunsInItsOwnEnvironment) {
  const BenchResults r = run();
  EXPECT_EQ(r.device.name, "Fake GPU");
  EXPECT_NEAR(*slowdown(r, "timeslicing", 2), 2.0, 1e-9);  // separate contexts, K-fold
  EXPECT_NEAR(*slowdown(r, "timeslicing", 8), 8.0, 1e-9);
  EXPECT_NEAR(*slowdown(r, "mps", 8), 1.0, 1e-9);  // the workers saw the private pipe directory
  // The fake's five samples {200 x4, tail}: p99 = 200 + 0.96 (tail - 200); tails 300 alone, 3000 beside
  // the neighbour without MPS, 900 with MPS.
  EXPECT_NEAR(*p99_inflation(r, "timeslicing"), 2888.0 / 296.0, 1e-9);
  EXPECT_NEAR(*p99_inflation(r, "mps"), 872.0 / 296.0, 1e-9);
  EXPECT_NEAR(*neighbour_fraction(r, "mps_cap25"), 0.25, 1e-9);  // the cap reached the neighbour only
  ASSERT_EQ(r.thread_limits.size(), 3u);
  EXPECT_EQ(r.thread_limits[0].sms_seen, 33);
  EXPECT_NEAR(measured_fraction(r.thread_limits[0]), 0.25, 1e-9);
  ASSERT_TRUE(r.memory_limit);
  EXPECT_TRUE(r.memory_limit->beyond_failed);  // the limit variable reached the worker
  ASSERT_TRUE(skipped(r, "mig"));
  for (const auto& v : verdicts(r)) EXPECT_EQ(v.outcome, Outcome::pass) << v.id << ": " << v.measured;
  EXPECT_FALSE(mps_directories_left());
  EXPECT_NE(log.str().find("stopping MPS"), std::string::npos);
}

TEST_F(RunnerTest, MpsThatCannotStartIsSkippedWithTheReason) {
  ::setenv("FAKE_MPS_FAIL", "-d", 1);
  const BenchResults r = run({Part::time_slicing, Part::mps, Part::limits});
  const Skip* s = skipped(r, "mps");
  ASSERT_TRUE(s);
  EXPECT_NE(s->reason.find("MPS could not start"), std::string::npos) << s->reason;
  EXPECT_NE(s->reason.find("-d' failed"), std::string::npos) << s->reason;
  EXPECT_TRUE(skipped(r, "limits"));
  EXPECT_TRUE(slowdown(r, "timeslicing", 2).has_value());  // the parts without MPS still ran
  EXPECT_FALSE(slowdown(r, "mps", 2).has_value());
  EXPECT_FALSE(mps_directories_left());
}

TEST_F(RunnerTest, DaemonQuitsWhenExperimentsFail) {
  ::setenv("FAKE_WORKER_FAIL_UNDER_MPS", "1", 1);
  const BenchResults r = run({Part::mps, Part::limits});
  const Skip* s = skipped(r, "mps K=2");
  ASSERT_TRUE(s);
  EXPECT_NE(s->reason.find("fake failure under MPS"), std::string::npos) << s->reason;
  EXPECT_TRUE(r.clients.empty());
  EXPECT_FALSE(mps_directories_left());
}

TEST_F(RunnerTest, WorkerSayingNoGpuMeansUnavailable) {
  const std::string script = tmp / "no-gpu-worker";
  {
    std::ofstream out(script);
    out << "#!/bin/sh\necho '{\"error\": \"no usable CUDA driver or GPU\", \"unavailable\": true}'\nexit 3\n";
  }
  std::filesystem::permissions(script, std::filesystem::perms::owner_all);
  BenchOptions o;
  Progress progress(log, false);
  EXPECT_THROW(run_bench(o, script, progress, system.env()), DeviceUnavailable);
}

}  // namespace
}  // namespace gpupack::bench
