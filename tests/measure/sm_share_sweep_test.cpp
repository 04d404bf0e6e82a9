#include "measure/sm_share_sweep.hpp"

#include <gtest/gtest.h>

#include "core/errors.hpp"
#include "fakes/fake_proc_reader.hpp"
#include "gpu/fake_gpu_backend.hpp"
#include "measure/fake_program.hpp"

namespace gpupack::measure {
namespace {

using testing::FakeClock;
using testing::FakeProgramBehaviour;
using testing::FakeProgramWorld;
using namespace std::chrono_literals;

SmSharePoint point(int pct, double rps, double p99) { return {pct, rps, p99 / 2, p99}; }

TEST(SmShareSweep, DemandIsTheSmallestShareThatKeepsUpWithTheLargest) {
  const std::vector<SmSharePoint> curve = {point(100, 1000, 5.0), point(50, 990, 5.2), point(25, 950, 5.4), point(12, 600, 9)};
  const auto d = demand_from_sweep(curve, 0.10);
  EXPECT_DOUBLE_EQ(d.share, 0.25);
  EXPECT_EQ(d.method, "sweep");
  EXPECT_DOUBLE_EQ(*d.tolerance, 0.10);
  // A tighter tolerance: 25% is 8% worse in p99.
  EXPECT_DOUBLE_EQ(demand_from_sweep(curve, 0.05).share, 0.50);
  // Throughput counts too: 25% keeps p99 but loses 20% of req/s.
  EXPECT_DOUBLE_EQ(demand_from_sweep({point(100, 1000, 5), point(25, 800, 5)}, 0.10).share, 1.0);
  // The order of the points does not matter; the largest share is the reference.
  EXPECT_DOUBLE_EQ(demand_from_sweep({point(12, 990, 5), point(100, 1000, 5)}, 0.10).share, 0.12);
}

TEST(SmShareSweep, ParsesPercentageLists) {
  EXPECT_EQ(parse_sweep_percentages("100,50,25,12"), (std::vector<int>{100, 50, 25, 12}));
  EXPECT_EQ(parse_sweep_percentages("30"), std::vector<int>{30});
  for (const char* bad : {"", "100,", "0,50", "101", "50,50", "a", "50;25", " 50", "100,-5"}) {
    EXPECT_THROW(parse_sweep_percentages(bad), InputError) << bad;
  }
}

// A program whose latency is 2 ms with at least 25% of the SMs and grows below (like fake_client.cpp).
FakeProgramBehaviour needs_a_quarter(const ProcessSpec& spec) {
  FakeProgramBehaviour b;
  const int pct = std::stoi(spec.env.at("CUDA_MPS_ACTIVE_THREAD_PERCENTAGE"));
  b.latency_ms = pct >= 25 ? 2.0 : 2.0 * 25 / pct;
  b.request_every = b.latency_ms / 1000;
  return b;
}

struct SweepHarness {
  FakeClock clock;
  FakeProgramWorld world{clock};
  testing::FakeProcReader proc;
  FakeGpuBackend gpu{nlohmann::json{{"devices", nlohmann::json::array()}}};  // under MPS no memory is seen
  SteadyOptions base;
  SweepOptions sweep;
  std::vector<int> started;
  SweepHarness() {
    base.command = {"infer"};
    base.interval = 100ms;
    base.duration = 2000ms;
    sweep.mps_env = {{"CUDA_MPS_PIPE_DIRECTORY", "/tmp/p/pipe"}, {"CUDA_MPS_LOG_DIRECTORY", "/tmp/p/log"}};
    sweep.report_dir = "/tmp/p";
  }
  std::vector<SmSharePoint> run() {
    auto open = [this](const std::string&) { return std::make_unique<FakeProgramWorld::Report>(world); };
    return run_sweep(base, sweep, {world, gpu, proc, clock, open, [this](int pct) { started.push_back(pct); }});
  }
};

TEST(SmShareSweep, RunsTheProgramAloneAtEachShareUnderTheDaemon) {
  SweepHarness h;
  h.world.behaviour = needs_a_quarter;
  h.sweep.percentages = {12, 100, 25, 50};
  const auto curve = h.run();
  EXPECT_EQ(h.started, (std::vector<int>{100, 50, 25, 12}));  // largest first
  ASSERT_EQ(curve.size(), 4u);
  ASSERT_EQ(h.world.spawned.size(), 4u);
  EXPECT_EQ(h.world.spawned[1].env.at("CUDA_MPS_ACTIVE_THREAD_PERCENTAGE"), "50");
  EXPECT_EQ(h.world.spawned[1].env.at("CUDA_MPS_PIPE_DIRECTORY"), "/tmp/p/pipe");
  EXPECT_EQ(h.world.spawned[3].env.at("GPUPACK_REPORT"), "/tmp/p/report-12.jsonl");
  EXPECT_NEAR(curve[0].req_per_s, 500, 5);
  EXPECT_NEAR(*curve[0].p99_ms, 2.0, 1e-9);
  EXPECT_NEAR(*curve[3].p99_ms, 2.0 * 25 / 12, 1e-6);
  EXPECT_DOUBLE_EQ(demand_from_sweep(curve, 0.10).share, 0.25);
}

TEST(SmShareSweep, AProgramWithoutARequestReportCannotBeSwept) {
  SweepHarness h;
  h.world.behaviour = [](const ProcessSpec&) { FakeProgramBehaviour b; b.reports = false; return b; };
  h.base.startup_timeout = 3000ms;
  testing::expect_profile_error([&h] { h.run(); }, "sweep at 100% threads");
}

TEST(SmShareSweep, AProgramReportingNoRequestsSaysWhatTheSweepNeeds) {
  SweepHarness h;
  h.world.behaviour = [](const ProcessSpec&) {
    FakeProgramBehaviour b;
    b.request_every = 100;  // says ready, then no request finishes in the window
    b.ready_after = 0.5;
    return b;
  };
  testing::expect_profile_error([&h] { h.run(); }, "client report");
}

}  // namespace
}  // namespace gpupack::measure
