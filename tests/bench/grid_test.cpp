// The --client-cmd co-location grid without a GPU: fake-grid-client.sh copies (real processes speaking the
// client report, their latency shaped by the mode they run in) and the fake MPS control program. Windows
// are a few tenths of a second; the fake's request times are synthetic, so figures do not depend on load.
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "bench/bench_json.hpp"
#include "bench/bench_runner.hpp"
#include "bench/interrupt.hpp"
#include "core/errors.hpp"
#include "fakes/temp_dir.hpp"
#include "gpu/gpu_backend.hpp"
#include "measure/gpu_use_watch.hpp"
#include "os/proc_reader.hpp"

namespace gpupack::bench {
namespace {

class GridTest : public ::testing::Test {
 protected:
  SystemEnv system;  // the real files, clock and TMPDIR: the workers and fakes are real processes
  void SetUp() override {
    ::setenv("FAKE_CLIENT_STATE", state.path().c_str(), 1);
    ::setenv("FAKE_CLIENT_PIDS", pids.path().c_str(), 1);
    ::setenv("FAKE_WORKER_STATE", state.path().c_str(), 1);
    const char* old = std::getenv("TMPDIR");
    old_tmpdir_ = old ? old : "";
    ::setenv("TMPDIR", tmp.path().c_str(), 1);  // MPS private directories and the cells' report files
  }
  void TearDown() override {
    for (const char* v : {"FAKE_CLIENT_STATE", "FAKE_CLIENT_PIDS", "FAKE_WORKER_STATE", "FAKE_CLIENT_FAIL",
                          "FAKE_CLIENT_NEVER_READY", "FAKE_CLIENT_SILENT", "FAKE_CLIENT_GARBAGE", "FAKE_CLIENT_REQUESTS",
                          "FAKE_CLIENT_INTERRUPT", "FAKE_CLIENT_GPU_DIR", "FAKE_CLIENT_STARTUP_S", "FAKE_CLIENT_GPU_S"}) {
      ::unsetenv(v);
    }
    if (old_tmpdir_.empty()) {
      ::unsetenv("TMPDIR");
    } else {
      ::setenv("TMPDIR", old_tmpdir_.c_str(), 1);
    }
  }

  BenchOptions options(std::vector<int> ks) const {
    BenchOptions o;
    o.parts = {Part::client};
    o.client_cmd = FAKE_GRID_CLIENT;
    o.client_ks = std::move(ks);
    o.window_s = 0.3;
    o.settle_s = 0.05;
    o.ready_timeout_s = 10;
    o.stop_grace_s = 2;
    o.mps_control = FAKE_MPS_CONTROL;
    return o;
  }

  BenchResults run(const BenchOptions& o, measure::GpuUseWatch* gpu_use = nullptr) {
    Progress progress(log, false);
    return run_bench(o, FAKE_BENCH_WORKER, progress, system.env(), gpu_use);
  }

  // Nothing left in TMPDIR: every cell's report directory and the MPS daemon's directory were removed.
  std::vector<std::string> leftovers() const {
    std::vector<std::string> out;
    for (const auto& e : std::filesystem::directory_iterator(tmp.path())) out.push_back(e.path().filename().string());
    return out;
  }

  // Every copy that ever ran has ended (their pids were written by the fake). A copy whose shell gpupack
  // reaped is reaped by init a moment later: a zombie counts as ended, and init gets a second at most.
  int copies_alive() const {
    int alive = 0;
    for (int attempt = 0; attempt < 100; ++attempt) {
      alive = 0;
      for (const auto& e : std::filesystem::directory_iterator(pids.path())) {
        const std::string name = e.path().filename().string();
        std::ifstream stat("/proc/" + name.substr(name.find('-') + 1) + "/stat");
        std::string pid, comm, run_state;
        if (stat >> pid >> comm >> run_state && run_state != "Z") ++alive;
      }
      if (alive == 0) break;
      ::usleep(10000);
    }
    return alive;
  }

  static const measure::GridCell& cell(const BenchResults& r, const std::string& label) {
    for (const auto& c : r.colocation->cells) {
      if (measure::cell_label(c) == label) return c;
    }
    throw std::runtime_error("no cell " + label);
  }

  static double at(const std::vector<measure::CurvePoint>& curve, int k) {
    for (const auto& p : curve) {
      if (p.k == k) return p.value;
    }
    return -1;
  }

  gpupack::testing::TempDir tmp, state, pids;
  std::ostringstream log;
  std::string old_tmpdir_;
};

TEST_F(GridTest, EveryKRunsUnderBothModesFromTheCopiesReports) {
  const BenchResults r = run(options({1, 2, 4}));
  ASSERT_TRUE(r.colocation);
  const measure::ColocationGrid& g = *r.colocation;
  ASSERT_EQ(g.cells.size(), 6u) << log.str();
  for (const auto& c : g.cells) {
    EXPECT_EQ(c.error, "") << measure::cell_label(c);
    EXPECT_TRUE(measure::latency_reported(c)) << measure::cell_label(c);
    EXPECT_NEAR(c.window_s, 0.3, 1e-9);
    for (const auto& copy : c.copies) {
      EXPECT_TRUE(copy.stopped);  // still serving at the end of the window: gpupack stopped it
      EXPECT_EQ(copy.malformed_lines, 0);
    }
  }
  // Alone 2 ms per request: 500 req/s. Time-slicing: K copies share, the aggregate stays flat and p99 grows
  // K-fold; MPS: latency x (K+3)/4, so the aggregate grows to 4K/(K+3) of one copy.
  EXPECT_NEAR(*measure::aggregate_req_per_s(cell(r, "timeslicing K=1")), 500, 25);
  EXPECT_NEAR(at(measure::aggregate_curve(g, "timeslicing"), 4), 1.0, 0.08);
  EXPECT_NEAR(at(measure::aggregate_curve(g, "mps"), 2), 8.0 / 5, 0.1);
  EXPECT_NEAR(at(measure::aggregate_curve(g, "mps"), 4), 16.0 / 7, 0.15);
  EXPECT_NEAR(at(measure::p99_curve(g, "timeslicing"), 4), 8.0, 1e-6);
  EXPECT_NEAR(at(measure::p99_curve(g, "mps"), 4), 3.5, 1e-6);
  EXPECT_TRUE(leftovers().empty()) << leftovers().front();
  EXPECT_EQ(copies_alive(), 0);
  const auto j = to_json(r);
  EXPECT_EQ(j.at("schema_version"), 2);
  EXPECT_EQ(j.at("colocation").at("cells").size(), 6u);
  EXPECT_NEAR(j.at("colocation").at("curves").at("mps").at("p99_ms").at("4").get<double>(), 3.5, 1e-6);
}

TEST_F(GridTest, ACopyThatFailsFailsItsCellOnly) {
  ::setenv("FAKE_CLIENT_FAIL", "1", 1);  // the second copy: there is none at K=1
  const BenchResults r = run(options({1, 2}));
  EXPECT_EQ(cell(r, "timeslicing K=1").error, "");
  EXPECT_TRUE(measure::latency_reported(cell(r, "mps K=1")));
  const std::string& e = cell(r, "timeslicing K=2").error;
  EXPECT_NE(e.find("copy 2 of 2 (GPUPACK_BENCH_CLIENT=1) exited with code 3"), std::string::npos) << e;
  EXPECT_NE(e.find("fake failure of copy 1"), std::string::npos) << e;
  EXPECT_NE(cell(r, "mps K=2").error, "");
  EXPECT_FALSE(measure::aggregate_req_per_s(cell(r, "mps K=2")));
  EXPECT_TRUE(leftovers().empty());
  EXPECT_EQ(copies_alive(), 0);
}

TEST_F(GridTest, ReadyTimeoutNamesTheCopy) {
  ::setenv("FAKE_CLIENT_NEVER_READY", "1", 1);
  BenchOptions o = options({2});
  o.ready_timeout_s = 0.3;
  const BenchResults r = run(o);
  const std::string& e = cell(r, "timeslicing K=2").error;
  EXPECT_NE(e.find("copy 2 of 2 (GPUPACK_BENCH_CLIENT=1) wrote no ready line"), std::string::npos) << e;
  EXPECT_NE(e.find("within 0.3 s (--ready-timeout)"), std::string::npos) << e;
  EXPECT_EQ(copies_alive(), 0);
  EXPECT_TRUE(leftovers().empty());
}

TEST_F(GridTest, ProgramThatReportsNothingIsMeasuredByWallTime) {
  ::setenv("FAKE_CLIENT_SILENT", "1", 1);
  BenchOptions o = options({1, 2});
  // The copies exit by themselves after 0.1 s. With a 0.3 s window this test failed twice in full ctest -j2 runs
  // on a loaded 2-core machine (passing alone): a copy whose shell starts late is stopped by the window. The
  // longer window costs nothing: the cell ends when the copies exit.
  o.window_s = 5;
  const BenchResults r = run(o);
  for (const auto& c : r.colocation->cells) {
    EXPECT_EQ(c.error, "") << measure::cell_label(c);
    EXPECT_FALSE(measure::latency_reported(c));
    for (const auto& copy : c.copies) {
      EXPECT_FALSE(copy.reported);
      EXPECT_FALSE(copy.stopped);
      EXPECT_EQ(copy.exit_code, 0);
      // It runs 0.1 s; gpupack's clock starts once the copy is spawned, so a copy can be seen a little short
      // (0.0986 s in a full ctest -j2 run on 2 cores).
      EXPECT_GE(copy.wall_s, 0.09);
    }
  }
  EXPECT_EQ(measure::wall_curve(*r.colocation, "mps").size(), 2u);
}

// A GPU whose process list is the pids named by files in a directory: fake-grid-client.sh creates its
// file when it "first uses the GPU", after its start-up, and removes it before it exits.
class MarkerDirGpu : public GpuBackend {
 public:
  explicit MarkerDirGpu(std::string dir, std::optional<GpmActivity> gpm = std::nullopt)
      : dir_(std::move(dir)), gpm_(gpm) {}
  std::string name() const override { return "fake"; }
  std::optional<std::string> driver_version() const override { return std::nullopt; }
  std::vector<GpuDeviceInfo> devices() override {
    GpuDeviceInfo d;
    for (const auto& f : std::filesystem::directory_iterator(dir_)) {
      GpuProcessInfo p;
      p.pid = static_cast<unsigned>(std::stoul(f.path().filename().string()));
      p.used_memory_bytes = 512ull << 20;
      d.processes.push_back(p);
    }
    d.gpm = gpm_;
    return {d};
  }
  std::vector<XidEvent> poll_xid_events() override { return {}; }

 private:
  std::string dir_;
  std::optional<GpmActivity> gpm_;
};

TEST_F(GridTest, ACellRecordsTheGpusActivityOverItsWindow) {
  // The GPU's GPM shares while the copies (and a neighbour) run: what `profile --neighbour-cmd` reads the
  // others' DRAM draw from (issue 36).
  gpupack::testing::TempDir gpu_dir;
  ::setenv("FAKE_CLIENT_GPU_DIR", gpu_dir.path().c_str(), 1);
  MarkerDirGpu gpu(gpu_dir.path(), GpmActivity{0.45, 0.3, 0.0, 0.82, 0.05});
  LinuxProcReader proc;
  measure::GpuUseWatch gpu_use(gpu, proc, 0.05);
  BenchOptions o = options({1, 2});
  o.neighbour_cmd = FAKE_GRID_CLIENT;
  const BenchResults r = run(o, &gpu_use);
  int measured = 0;
  for (const auto& c : r.colocation->cells) {
    ASSERT_EQ(c.error, "") << measure::cell_label(c);
    ASSERT_TRUE(c.gpu_dram_bw && c.gpu_sm_active) << measure::cell_label(c);
    EXPECT_DOUBLE_EQ(*c.gpu_dram_bw, 0.82);
    EXPECT_DOUBLE_EQ(*c.gpu_sm_active, 0.45);
    ++measured;
  }
  EXPECT_GE(measured, 4);
  // Without a GPU backend: none.
  const BenchResults blind = run(options({1}));
  EXPECT_FALSE(blind.colocation->cells.front().gpu_dram_bw);
}

TEST_F(GridTest, ProgramThatReportsNothingIsMeasuredFromItsFirstGpuUseToItsExit) {
  gpupack::testing::TempDir gpu_dir;
  ::setenv("FAKE_CLIENT_SILENT", "1", 1);
  ::setenv("FAKE_CLIENT_GPU_DIR", gpu_dir.path().c_str(), 1);
  ::setenv("FAKE_CLIENT_STARTUP_S", "0.8", 1);  // start-up: no GPU yet
  ::setenv("FAKE_CLIENT_GPU_S", "0.5", 1);
  MarkerDirGpu gpu(gpu_dir.path());
  LinuxProcReader proc;
  measure::GpuUseWatch gpu_use(gpu, proc, 0.05);
  BenchOptions o = options({1, 2});
  o.parts = {Part::client};
  const BenchResults r = run(o, &gpu_use);
  for (const auto& c : r.colocation->cells) {
    ASSERT_EQ(c.error, "") << measure::cell_label(c);
    for (const auto& copy : c.copies) {
      ASSERT_TRUE(copy.gpu_s && copy.first_gpu_s) << measure::cell_label(c);
      EXPECT_GE(*copy.first_gpu_s, 0.75);  // its start-up is not GPU time
      EXPECT_GE(*copy.gpu_s, 0.35);
      EXPECT_LT(*copy.gpu_s, copy.wall_s - 0.6);
      EXPECT_EQ(copy.gpu_memory_bytes, 512ull << 20);
    }
    ASSERT_TRUE(measure::mean_gpu_s(c));
  }
  EXPECT_EQ(measure::gpu_time_curve(*r.colocation, "mps").size(), 2u);
  // The fields survive the JSON round trip (bench --json and the workload profile).
  const auto back = measure::colocation_grid_from_json(nlohmann::json::parse(measure::to_json(*r.colocation).dump()));
  EXPECT_EQ(back.cells.front().copies.front().gpu_s, r.colocation->cells.front().copies.front().gpu_s);
  EXPECT_EQ(back.cells.front().copies.front().gpu_memory_bytes, 512ull << 20);
}

TEST_F(GridTest, MalformedLinesAreCountedNeverFatal) {
  ::setenv("FAKE_CLIENT_GARBAGE", "1", 1);  // also writes every line in two pieces
  const BenchResults r = run(options({2}));
  const measure::GridCell& c = cell(r, "mps K=2");
  EXPECT_EQ(c.error, "");
  ASSERT_TRUE(measure::latency_reported(c));
  for (const auto& copy : c.copies) {
    EXPECT_GT(copy.malformed_lines, 5);
    EXPECT_NEAR(*copy.req_per_s, 400, 40);  // every request line was read, even those split across reads
  }
}

// Robustness (issue 14): a slow start-up, and a program whose report is nothing but garbage.
TEST_F(GridTest, ASlowStartUpIsWaitedForAndNeverCounted) {
  BenchOptions o = options({1});
  o.client_cmd = std::string("sleep 1; exec ") + FAKE_GRID_CLIENT;  // 1 s of start-up, 3x the window
  const BenchResults r = run(o);
  for (const char* label : {"timeslicing K=1", "mps K=1"}) {
    const measure::GridCell& c = cell(r, label);
    EXPECT_EQ(c.error, "") << label;
    ASSERT_EQ(c.copies.size(), 1u) << label;
    EXPECT_GE(c.copies[0].wall_s, 1.0) << label;                      // the wall time holds the start-up,
    EXPECT_NEAR(*measure::aggregate_req_per_s(c), 500, 25) << label;  // the rate does not
  }
}

TEST_F(GridTest, GarbageOnlyReportsFailTheCellWithAClearMessage) {
  BenchOptions o = options({1});
  o.ready_timeout_s = 1;
  // Exits after writing garbage: no valid ready line, so no window; the message names the first bad line.
  o.client_cmd = "printf 'warming up\\n{\"event\": 7}\\n' >>\"$GPUPACK_REPORT\"; sleep 0.2";
  const BenchResults exits = run(o);
  for (const auto& c : exits.colocation->cells) {
    EXPECT_NE(c.error.find("copy 1 of 1 (GPUPACK_BENCH_CLIENT=0) exited before it wrote a valid ready line (2 malformed "
                           "line(s); first: not a JSON object"),
              std::string::npos)
        << c.error;
    EXPECT_FALSE(measure::aggregate_req_per_s(c));
  }
  // Keeps writing garbage and never exits: stopped at --ready-timeout, the message says the same.
  o.client_cmd = "while :; do echo garbage >>\"$GPUPACK_REPORT\"; sleep 0.05; done";
  const BenchResults hangs = run(o);
  for (const auto& c : hangs.colocation->cells) {
    EXPECT_NE(c.error.find("wrote no ready line to its GPUPACK_REPORT file within 1 s (--ready-timeout) ("), std::string::npos) << c.error;
    EXPECT_NE(c.error.find("malformed line(s); first: not a JSON object"), std::string::npos) << c.error;
  }
  EXPECT_TRUE(leftovers().empty());
}

TEST_F(GridTest, ACopyEndingByItselfCutsTheWindow) {
  ::setenv("FAKE_CLIENT_REQUESTS", "300", 1);  // 0.6 s of requests alone, then exit 0
  BenchOptions o = options({1});
  o.window_s = 30;
  o.parts = {Part::client};
  const BenchResults r = run(o);
  const measure::GridCell& c = cell(r, "timeslicing K=1");
  EXPECT_EQ(c.error, "");
  EXPECT_LT(c.window_s, 5);
  ASSERT_EQ(c.copies.size(), 1u);
  EXPECT_FALSE(c.copies[0].stopped);
  // The window ends when gpupack sees the exit, which a loaded machine (sanitizers, -j) delays by up to a
  // tenth of a second or so: the rate is at most the copy's 500 req/s and not far below it.
  EXPECT_LT(*c.copies[0].req_per_s, 560);
  EXPECT_GT(*c.copies[0].req_per_s, 300);
}

TEST_F(GridTest, NeighbourUncappedAndCapped) {
  BenchOptions o = options({1});
  o.neighbour_cmd = FAKE_GRID_CLIENT;
  const BenchResults r = run(o);
  const measure::ColocationGrid& g = *r.colocation;
  EXPECT_NEAR(*cell(r, "timeslicing neighbour alone").neighbour->req_per_s, 100, 10);
  EXPECT_NEAR(*measure::worst_p99_ms(cell(r, "timeslicing K=1 + neighbour")), 6.0, 1e-6);
  EXPECT_NEAR(*measure::worst_p99_ms(cell(r, "mps K=1 + neighbour")), 4.0, 1e-6);
  EXPECT_NEAR(*measure::worst_p99_ms(cell(r, "mps K=1 + neighbour at 25%")), 2.5, 1e-6);
  EXPECT_NEAR(*measure::worst_p99_ms(cell(r, "mps K=1 + neighbour at 75%")), 3.5, 1e-6);
  EXPECT_NEAR(*measure::neighbour_fraction(g, cell(r, "mps K=1 + neighbour at 25%")), 0.25, 0.1);
  EXPECT_NEAR(*measure::neighbour_fraction(g, cell(r, "mps K=1 + neighbour at 50%")), 0.5, 0.1);
  EXPECT_NEAR(*measure::neighbour_fraction(g, cell(r, "mps K=1 + neighbour at 75%")), 0.75, 0.1);
  EXPECT_NEAR(*measure::neighbour_fraction(g, cell(r, "mps K=1 + neighbour")), 1.0, 0.1);
  // The neighbour alone (its baseline), beside one copy uncapped under time-slicing and MPS, then capped
  // at 25/50/75%: no other neighbour cells.
  std::vector<std::string> with_neighbour;
  for (const auto& c : g.cells) {
    if (c.with_neighbour) with_neighbour.push_back(measure::cell_label(c));
  }
  EXPECT_EQ(with_neighbour, (std::vector<std::string>{"timeslicing neighbour alone", "timeslicing K=1 + neighbour", "mps K=1 + neighbour",
                                                      "mps K=1 + neighbour at 25%", "mps K=1 + neighbour at 50%",
                                                      "mps K=1 + neighbour at 75%"}));
  EXPECT_TRUE(leftovers().empty());
}

TEST_F(GridTest, SweepGivesTheSmShareCurveAndComputeDemand) {
  BenchOptions o = options({1});
  o.sweep_pcts = {100, 50, 25};
  const BenchResults r = run(o);
  ASSERT_EQ(r.sm_share_curve.size(), 3u) << log.str();
  EXPECT_EQ(r.sm_share_curve[2].pct, 25);
  EXPECT_NEAR(*r.sm_share_curve[0].p99_ms, 2.0, 1e-6);
  EXPECT_NEAR(*r.sm_share_curve[1].p99_ms, 2.0, 1e-6);
  EXPECT_NEAR(*r.sm_share_curve[2].p99_ms, 4.0, 1e-6);  // the fake needs half the SMs
  EXPECT_NEAR(r.sm_share_curve[2].req_per_s, 250, 25);
  const auto j = to_json(r).at("sm_share");
  EXPECT_EQ(j.at("points").size(), 3u);
  EXPECT_NEAR(j.at("compute_demand").at("share").get<double>(), 0.5, 1e-9);
  EXPECT_TRUE(leftovers().empty());
}

TEST_F(GridTest, CtrlCEndsTheCopiesAndQuitsTheDaemon) {
  const InterruptGuard guard;
  ::setenv("FAKE_CLIENT_INTERRUPT", std::to_string(::getpid()).c_str(), 1);  // under MPS, after the release
  EXPECT_THROW(run(options({2})), Interrupted);
  clear_interrupt();
  EXPECT_EQ(copies_alive(), 0);
  EXPECT_TRUE(leftovers().empty()) << leftovers().front();  // the MPS directory too: the daemon quit
  EXPECT_NE(log.str().find("client: mps K=2"), std::string::npos);
}

TEST(GridOptions, KsAreParsedAndChecked) {
  EXPECT_EQ(parse_ks("8,1,2,2"), (std::vector<int>{1, 2, 8}));
  EXPECT_THROW(parse_ks("1,x"), InputError);
  EXPECT_THROW(parse_ks("0"), InputError);
  EXPECT_THROW(parse_ks("1,,2"), InputError);
  EXPECT_THROW(parse_ks("49"), InputError);
}

}  // namespace
}  // namespace gpupack::bench
