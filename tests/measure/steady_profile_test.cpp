#include "measure/steady_profile.hpp"

#include <gtest/gtest.h>

#include "fakes/fake_proc_reader.hpp"
#include "measure/fake_program.hpp"
#include "gpu/fake_gpu_backend.hpp"

namespace gpupack::measure {
namespace {

using testing::FakeClock;
using testing::FakeProgramBehaviour;
using testing::FakeProgramWorld;
using namespace std::chrono_literals;

constexpr std::uint64_t GiB = 1ull << 30;

// An H100 whose memory is 1 GiB (someone else's) until sample `first_use`, then 3 GiB; each sample is
// one 100 ms tick of the profiler. GPM SM activity 0.25 while it runs.
nlohmann::json machine(int first_use, bool gpm = true) {
  std::vector<std::uint64_t> memory(static_cast<std::size_t>(first_use), GiB);
  memory.push_back(3 * GiB);
  nlohmann::json d = {{"uuid", "GPU-1"}, {"name", "NVIDIA H100 80GB HBM3"}, {"memory_total_bytes", 80 * GiB},
                      {"memory_used_samples", memory}, {"utilization_gpu", 0.75}};
  if (gpm) d["gpm"] = {{"sm_active", 0.25}, {"sm_occupancy", 0.125}, {"tensor_active", 0.5}, {"dram_bw", 0.375}, {"interval_seconds", 0.1}};
  return {{"devices", nlohmann::json::array({d})}};
}

struct Harness {
  const GpuCatalog catalog = builtin_catalog();
  FakeClock clock;
  FakeProgramWorld world{clock};
  FakeProgramWorld::Report report{world};
  testing::FakeProcReader proc;
  FakeGpuBackend gpu;
  SteadyOptions options;
  explicit Harness(const nlohmann::json& m) : gpu(m) {
    options.command = {"/usr/bin/infer", "--model", "r18"};
    options.interval = 100ms;
    options.warmup = 1000ms;
    options.duration = 2000ms;
    options.report_path = "/tmp/report.jsonl";
  }
  SteadyRun measure() { return measure_steady(options, {world, gpu, proc, clock, report, catalog}); }
};

TEST(SteadyProfile, WithoutAReportTheWindowStartsAtFirstGpuUsePlusWarmup) {
  Harness h(machine(4));
  h.world.behaviour = [](const ProcessSpec&) { FakeProgramBehaviour b; b.reports = false; return b; };
  const auto run = h.measure();
  EXPECT_NEAR(run.window_start_seconds, 0.4 + 1.0, 1e-9);
  EXPECT_TRUE(run.stopped_by_gpupack);
  EXPECT_EQ(h.world.signals, std::vector<int>{SIGTERM});
  EXPECT_NEAR(h.clock.seconds(), 3.4, 0.11);  // stopped at the window's end, not later
  const auto& p = run.profile;
  EXPECT_EQ(p.name, "infer");
  EXPECT_EQ(p.window.start, "warmup");
  EXPECT_DOUBLE_EQ(p.window.seconds, 2.0);
  EXPECT_NEAR(*p.window.first_gpu_seconds, 0.4, 1e-9);
  EXPECT_EQ(p.memory.peak_bytes, 2 * GiB);
  EXPECT_EQ(p.memory.source, "device-delta");
  EXPECT_EQ(p.memory.with_headroom_bytes, 2 * GiB + 2 * GiB * 15 / 100 + (1ull << 20) - (2 * GiB * 15 / 100) % (1ull << 20));
  EXPECT_EQ(p.device.model, "H100-SXM5-80GB");
  EXPECT_EQ(p.activity.source, "gpm");
  EXPECT_DOUBLE_EQ(*p.activity.sm_active, 0.25);
  EXPECT_EQ(p.compute_demand.method, "gpm");
  EXPECT_DOUBLE_EQ(p.compute_demand.share, 0.25);
  EXPECT_FALSE(p.requests);
  EXPECT_FALSE(p.report.any_line);
  // The program learnt where to report.
  EXPECT_EQ(h.world.spawned.at(0).env.at("GPUPACK_REPORT"), "/tmp/report.jsonl");
}

TEST(SteadyProfile, TheReadyLineStartsTheWindowAndWarmUpRequestsDoNotCount) {
  Harness h(machine(2));
  h.world.behaviour = [](const ProcessSpec&) {
    FakeProgramBehaviour b;
    b.ready_after = 2.0;  // later than first GPU use (0.2 s) + warm-up (1 s)
    return b;
  };
  const auto run = h.measure();
  const auto& p = run.profile;
  EXPECT_EQ(p.window.start, "ready-line");
  EXPECT_NEAR(run.window_start_seconds, 2.0, 0.11);
  ASSERT_TRUE(p.requests);
  EXPECT_DOUBLE_EQ(*p.requests->p99_ms, 2.0);  // the 50 ms warm-up requests are outside the window
  EXPECT_NEAR(p.requests->req_per_s, 100, 1);
  EXPECT_NEAR(static_cast<double>(p.requests->count), 200, 2);
}

TEST(SteadyProfile, ASlowStartUpIsWaitedForAndNeverCounted) {
  Harness h(machine(150));  // first GPU memory after 15 s of imports
  h.world.behaviour = [](const ProcessSpec&) { FakeProgramBehaviour b; b.ready_after = 16; return b; };
  const auto run = h.measure();
  EXPECT_NEAR(run.window_start_seconds, 16, 0.11);
  EXPECT_NEAR(h.clock.seconds(), 18, 0.2);
  EXPECT_DOUBLE_EQ(*run.profile.requests->p99_ms, 2.0);
}

TEST(SteadyProfile, AReadyLineAfterTheWarmUpRestartsTheWindow) {
  Harness h(machine(1));
  h.options.warmup = 300ms;
  h.world.behaviour = [](const ProcessSpec&) { FakeProgramBehaviour b; b.ready_after = 1.5; return b; };
  const auto run = h.measure();
  EXPECT_EQ(run.profile.window.start, "ready-line");
  EXPECT_NEAR(run.window_start_seconds, 1.5, 0.11);
  EXPECT_DOUBLE_EQ(*run.profile.requests->p99_ms, 2.0);
}

TEST(SteadyProfile, AProgramThatNeverUsesTheGpuGetsOneClearError) {
  Harness h(machine(1000));
  h.world.behaviour = [](const ProcessSpec&) { FakeProgramBehaviour b; b.exit_after = 2; return b; };
  testing::expect_profile_error([&h] { h.measure(); }, "never used the GPU (no GPU memory seen for its processes or on any device) and exited with 0 after 2.0 s");
}

TEST(SteadyProfile, AProgramThatNeverUsesTheGpuNorExitsIsStoppedAtTheStartUpTimeout) {
  Harness h(machine(100000));
  h.options.startup_timeout = 5000ms;
  h.world.behaviour = [](const ProcessSpec&) { FakeProgramBehaviour b; b.reports = false; return b; };
  EXPECT_THROW(h.measure(), ProfileError);
  EXPECT_EQ(h.world.signals, std::vector<int>{SIGTERM});
  EXPECT_NEAR(h.clock.seconds(), 5, 0.2);
}

TEST(SteadyProfile, AProgramThatExitsDuringTheWarmUpIsNotProfiled) {
  Harness h(machine(3));
  h.world.behaviour = [](const ProcessSpec&) {
    FakeProgramBehaviour b;
    b.reports = false;
    b.exit_after = 0.8;  // GPU at 0.3 s, window would start at 1.3 s
    return b;
  };
  testing::expect_profile_error([&h] { h.measure(); }, "before the measurement window began");
}

TEST(SteadyProfile, AProgramThatEndsInsideTheWindowGivesAPartialWindow) {
  Harness h(machine(1));
  h.world.behaviour = [](const ProcessSpec&) { FakeProgramBehaviour b; b.exit_after = 2.0; return b; };
  const auto run = h.measure();
  EXPECT_FALSE(run.profile.window.complete);
  EXPECT_FALSE(run.stopped_by_gpupack);
  EXPECT_NEAR(run.profile.window.seconds, 1.0, 0.11);
  EXPECT_TRUE(h.world.signals.empty());
}

TEST(SteadyProfile, GarbageReportsAreCountedAndTheProfileStillComes) {
  Harness h(machine(1));
  h.world.behaviour = [](const ProcessSpec&) { FakeProgramBehaviour b; b.garbage = true; return b; };
  const auto run = h.measure();
  EXPECT_FALSE(run.profile.requests);
  EXPECT_TRUE(run.profile.report.any_line);
  EXPECT_GT(run.profile.report.malformed_lines, 100);
  EXPECT_EQ(run.profile.window.start, "warmup");  // no valid ready line
}

TEST(SteadyProfile, WithoutGpmUtilisationIsTheLabelledFallback) {
  Harness h(machine(1, /*gpm=*/false));
  const auto run = h.measure();
  EXPECT_EQ(run.profile.activity.source, "nvml-utilization");
  EXPECT_FALSE(run.profile.activity.sm_active);
  EXPECT_EQ(run.profile.compute_demand.method, "utilization");
  EXPECT_DOUBLE_EQ(run.profile.compute_demand.share, 0.75);
}

TEST(SteadyProfile, HostCpuCoresFromTheProcessTreeOverTheWindow) {
  struct BusyTree : testing::FakeProcReader {
    const FakeClock* clock = nullptr;
    std::optional<double> cpu_seconds(int pid) const override {
      return pid == 4242 ? clock->seconds() * 1.5 : clock->seconds() * 0.25;  // the program and one child
    }
  };
  Harness h(machine(1));
  BusyTree tree;
  tree.clock = &h.clock;
  tree.processes[4242].children = {4243};
  tree.processes[4243] = {};
  const auto run = measure_steady(h.options, {h.world, h.gpu, tree, h.clock, h.report, h.catalog});
  ASSERT_TRUE(run.profile.host_cpu_cores);
  EXPECT_NEAR(*run.profile.host_cpu_cores, 1.75, 1e-9);
}

// The whole host over the window (/proc/stat): 16 CPUs, 6 of them busy and 1 stolen by the hypervisor at
// every instant, whatever happened before the window (a busy start-up is not counted).
TEST(SteadyProfile, TheHostsBusyCoresAndStolenShareOverTheWindow) {
  struct BusyHost : testing::FakeProcReader {
    const FakeClock* clock = nullptr;
    std::optional<HostCpuTimes> host_cpu_times() const override {
      const double t = clock->seconds();
      return HostCpuTimes{1000 + 6 * t, 5000 + 9 * t, 10 + 1 * t};
    }
  };
  Harness h(machine(1));
  BusyHost host;
  host.clock = &h.clock;
  host.processes[4242] = {};
  const auto run = measure_steady(h.options, {h.world, h.gpu, host, h.clock, h.report, h.catalog});
  ASSERT_TRUE(run.profile.host_busy_cores && run.profile.host_steal_share);
  EXPECT_NEAR(*run.profile.host_busy_cores, 6.0, 1e-9);
  EXPECT_NEAR(*run.profile.host_steal_share, 1.0 / 16, 1e-9);
  // Where /proc/stat cannot be read: none.
  Harness plain(machine(1));
  EXPECT_FALSE(plain.measure().profile.host_busy_cores);
}

// The host's cores timed once a sample in the window: the fastest, median and slowest of the probe's times.
TEST(SteadyProfile, TheHostsCoresTimedInTheWindow) {
  struct Alternating : CpuWorkProbe {
    int calls = 0;
    std::optional<double> time_next_core() override { return ++calls % 2 ? 1.5 : 3.0; }
  };
  Harness h(machine(1));
  Alternating probe;
  const auto run = measure_steady(h.options, {h.world, h.gpu, h.proc, h.clock, h.report, h.catalog, &probe});
  ASSERT_TRUE(run.profile.host_core_work);
  EXPECT_DOUBLE_EQ(run.profile.host_core_work->low_ms, 1.5);
  EXPECT_DOUBLE_EQ(run.profile.host_core_work->high_ms, 3.0);
  EXPECT_GT(run.profile.host_core_work->samples, 5);
  Harness plain(machine(1));
  EXPECT_FALSE(plain.measure().profile.host_core_work);
}

// A child that had used 100 s of CPU before the window exits halfway through it: its CPU leaves the tree's
// sum, which went negative (-0.016 cores was measured on a loaded machine); per process, the program's
// 1 core plus what the child used while it was there.
TEST(SteadyProfile, HostCpuStaysTrueWhenAChildLeavesTheTree) {
  struct ExitingChild : testing::FakeProcReader {
    const FakeClock* clock = nullptr;
    bool child_alive() const { return clock->seconds() < 2.4; }  // the window runs from about 1.4 s to 3.4 s
    std::optional<double> cpu_seconds(int pid) const override {
      if (pid == 4242) return clock->seconds();
      if (pid == 4243 && child_alive()) return 100 + clock->seconds() * 0.5;
      return std::nullopt;
    }
    std::vector<int> children(int pid) const override {
      return pid == 4242 && child_alive() ? std::vector<int>{4243} : std::vector<int>{};
    }
  };
  Harness h(machine(1));
  ExitingChild tree;
  tree.clock = &h.clock;
  tree.processes[4242] = {};
  const auto run = measure_steady(h.options, {h.world, h.gpu, tree, h.clock, h.report, h.catalog});
  ASSERT_TRUE(run.profile.host_cpu_cores);
  EXPECT_GT(*run.profile.host_cpu_cores, 1.1);   // the child's half core counted while it ran
  EXPECT_LT(*run.profile.host_cpu_cores, 1.35);  // and nothing after it left
}

TEST(SteadyProfile, MemoryOfItsOwnProcessesWhenTheDriverListsThem) {
  auto m = machine(1);
  m["devices"][0]["processes"] = {{{"pid", 4243}, {"used_memory_bytes", 512 << 20}}, {{"pid", 9999}, {"used_memory_bytes", GiB}}};
  Harness h(m);
  h.proc.processes[4242].children = {4243};
  const auto run = h.measure();
  EXPECT_EQ(run.profile.memory.source, "processes");
  EXPECT_EQ(run.profile.memory.peak_bytes, 512u << 20);
}

TEST(SteadyProfile, AProgramIgnoringSigtermIsKilledAfterTheGrace) {
  Harness h(machine(1));
  h.options.stop_grace = 1000ms;
  h.world.behaviour = [](const ProcessSpec&) { FakeProgramBehaviour b; b.ignores_sigterm = true; return b; };
  const auto run = h.measure();
  EXPECT_EQ(h.world.signals, (std::vector<int>{SIGTERM, SIGKILL}));
  EXPECT_EQ(run.exit_code, 128 + SIGKILL);
}

TEST(SteadyProfile, AnInterruptStopsTheProgramAndThrows) {
  Harness h(machine(1));
  h.options.interrupted = [&h] { return h.clock.seconds() >= 1.0; };
  EXPECT_THROW(h.measure(), ProfileInterrupted);
  EXPECT_EQ(h.world.signals, std::vector<int>{SIGTERM});
}

}  // namespace
}  // namespace gpupack::measure
