// GpuUseWatch: which programs (process trees) hold GPU memory, since when, how much; snapshots no more
// often than asked; a backend failure stops the watch, not the programs. TreeGpuUse: the rule it shares
// with `gpupack profile` (a process listed without memory is not yet using the GPU; the device fallback).
#include "measure/gpu_use_watch.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

#include "fakes/fake_proc_reader.hpp"

namespace gpupack::measure {
namespace {

class ScriptedGpu : public GpuBackend {
 public:
  std::vector<GpuProcessInfo> processes;
  std::optional<GpmActivity> gpm;  // the program's GPU's activity since the last snapshot
  int snapshots = 0;
  bool fail = false;
  std::string name() const override { return "fake"; }
  std::optional<std::string> driver_version() const override { return std::nullopt; }
  std::vector<GpuDeviceInfo> devices() override {
    ++snapshots;
    if (fail) throw std::runtime_error("NVML: GPU is lost");
    GpuDeviceInfo d;
    d.processes = processes;
    d.gpm = gpm;
    GpuDeviceInfo other;
    other.gpm = GpmActivity{0.0, 0.0, 0.0, 0.0, 1};  // an idle GPU: never averaged in
    return {other, d};  // the program's GPU is the second
  }
  std::vector<XidEvent> poll_xid_events() override { return {}; }
};

GpuProcessInfo process(unsigned pid, std::uint64_t mib, bool mps_client = false) {
  GpuProcessInfo p;
  p.pid = pid;
  p.used_memory_bytes = mib << 20;
  p.mps_client = mps_client;
  return p;
}

struct GpuUseWatchTest : ::testing::Test {
  ScriptedGpu gpu;
  gpupack::testing::FakeProcReader proc;
  GpuUseWatch watch{gpu, proc, 0.5};
  void SetUp() override {
    proc.processes[100].children = {101};  // program 0: sh -> python
    proc.processes[101] = {};
    proc.processes[200] = {};  // program 1
  }
};

TEST_F(GpuUseWatchTest, ProgramsAreSeenFromTheirFirstGpuMemoryThroughTheirProcessTree) {
  watch.reset(2);
  gpu.processes = {process(101, 0, true)};  // listed, its context being made: not yet GPU use
  watch.sample(0.0, {100, 200});
  gpu.processes = {process(101, 300, true)};  // the child of program 0, an MPS client
  watch.sample(0.6, {100, 200});
  gpu.processes = {process(101, 900, true), process(200, 100), process(999, 5000)};  // 999: someone else
  watch.sample(1.2, {100, 200});
  gpu.processes = {process(101, 400, true)};
  watch.sample(1.8, {100, -1});  // program 1 exited
  EXPECT_EQ(watch.first_use_s(0), 0.6);
  EXPECT_EQ(watch.peak_bytes(0), 900ull << 20);
  EXPECT_EQ(watch.first_use_s(1), 1.2);
  EXPECT_EQ(watch.peak_bytes(1), 100ull << 20);
  EXPECT_EQ(watch.first_use_s(2), std::nullopt);
}

TEST_F(GpuUseWatchTest, SnapshotsNoMoreOftenThanTheInterval) {
  watch.reset(1);
  for (double t = 0; t < 2.0; t += 0.1) watch.sample(t, {100});
  EXPECT_EQ(gpu.snapshots, 4);  // 0, 0.5, 1.0, 1.5
}

TEST_F(GpuUseWatchTest, AResetForgetsTheLastCell) {
  watch.reset(1);
  gpu.processes = {process(100, 10)};
  watch.sample(0, {100});
  ASSERT_TRUE(watch.first_use_s(0));
  watch.reset(1);
  EXPECT_EQ(watch.first_use_s(0), std::nullopt);
  watch.sample(0.1, {100});  // a reset cell samples at once
  EXPECT_EQ(watch.first_use_s(0), 0.1);
}

TEST_F(GpuUseWatchTest, ABackendFailureStopsTheWatchWithItsMessage) {
  watch.reset(1);
  gpu.fail = true;
  watch.sample(0, {100});
  ASSERT_TRUE(watch.error());
  EXPECT_EQ(*watch.error(), "NVML: GPU is lost");
  gpu.fail = false;
  gpu.processes = {process(100, 10)};
  watch.sample(5, {100});
  EXPECT_EQ(gpu.snapshots, 1);
  EXPECT_EQ(watch.first_use_s(0), std::nullopt);
}

TEST_F(GpuUseWatchTest, AWindowAveragesTheActivityOfTheProgramsGpuFromItsStart) {
  watch.reset(1);
  gpu.processes = {process(101, 300, true)};
  gpu.gpm = GpmActivity{0.9, 0.5, 0.0, 0.95, 0.5};  // before the window: dropped
  watch.sample(0.0, {100});
  EXPECT_FALSE(watch.window_dram_bw());
  watch.begin_window(0.2, {100});  // snapshots at once: its counts since 0.0 are not the window's
  EXPECT_EQ(gpu.snapshots, 2);
  EXPECT_FALSE(watch.window_dram_bw());
  gpu.gpm = GpmActivity{0.4, 0.3, 0.0, 0.8, 0.5};
  watch.sample(0.8, {100});
  gpu.gpm = GpmActivity{0.6, 0.5, 0.0, 0.6, 0.5};
  watch.sample(1.4, {100});
  EXPECT_DOUBLE_EQ(*watch.window_sm_active(), 0.5);
  EXPECT_DOUBLE_EQ(*watch.window_sm_occupancy(), 0.4);
  EXPECT_DOUBLE_EQ(*watch.window_dram_bw(), 0.7);
  watch.reset(1);  // a new cell
  EXPECT_FALSE(watch.window_dram_bw());
  EXPECT_FALSE(watch.window_sm_occupancy());
}

TEST_F(GpuUseWatchTest, WithoutGpmTheWindowHasNoActivity) {
  watch.reset(1);
  gpu.processes = {process(101, 300, true)};
  watch.begin_window(0.0, {100});
  watch.sample(0.6, {100});
  EXPECT_FALSE(watch.window_sm_active());
  EXPECT_FALSE(watch.window_dram_bw());
  EXPECT_FALSE(watch.window_sm_occupancy());
}

TEST(TreeGpuUse, SumsTheTreesMemoryAndNamesItsDevice) {
  GpuDeviceInfo a, b;
  b.processes = {process(7, 100), process(8, 50), process(9, 1000)};
  const TreeGpuUse use = tree_gpu_use({a, b}, {7, 8});
  EXPECT_TRUE(use.listed);
  EXPECT_TRUE(use.uses_gpu());
  EXPECT_EQ(use.bytes, 150ull << 20);
  EXPECT_EQ(use.device, 1u);
  EXPECT_FALSE(tree_gpu_use({a, b}, {1}).listed);
}

TEST(TreeGpuUse, AListedProcessUsesTheGpuOnlyOnceItHoldsMemory) {
  GpuDeviceInfo d;
  d.processes = {process(7, 0), process(8, 0)};
  d.processes[1].used_memory_bytes.reset();  // NVML does not give its memory
  const TreeGpuUse use = tree_gpu_use({d}, {7, 8});
  EXPECT_TRUE(use.listed);
  EXPECT_EQ(use.bytes, 0u);
  EXPECT_FALSE(use.uses_gpu());
  EXPECT_EQ(use.device, 0u);
}

TEST(TreeGpuUse, WhereNoneOfItsProcessesIsListedTheDevicesIncreaseStandsIn) {
  GpuDeviceInfo a, b;
  a.memory_used_bytes = 1ull << 30;  // someone else's, as before the program started
  b.memory_used_bytes = 3ull << 30;
  const std::vector<std::uint64_t> baseline = {1ull << 30, 1ull << 30};
  TreeGpuUse use = tree_gpu_use({a, b}, {7}, baseline);
  EXPECT_FALSE(use.listed);
  EXPECT_EQ(use.bytes, 2ull << 30);
  EXPECT_EQ(use.device, 1u);
  EXPECT_FALSE(tree_gpu_use({a, a}, {7}, baseline).uses_gpu());  // nothing grew
  // Once listed, its processes' memory counts, even none; the device is the first listing it or grown.
  a.memory_used_bytes = 2ull << 30;
  b.processes = {process(7, 0)};
  use = tree_gpu_use({a, b}, {7}, baseline);
  EXPECT_TRUE(use.listed);
  EXPECT_FALSE(use.uses_gpu());
  EXPECT_EQ(use.device, 0u);
}

}  // namespace
}  // namespace gpupack::measure
