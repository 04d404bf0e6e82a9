#include "gpu/fake_gpu_backend.hpp"
#include "os/filesystem.hpp"

#include <gtest/gtest.h>

#include "core/errors.hpp"

namespace gpupack {
namespace {

std::unique_ptr<FakeGpuBackend> machine() { return FakeGpuBackend::from_file(PosixFilesystem{}, FAKE_MACHINES "/two-gpus.json"); }

TEST(FakeGpuBackend, ReplaysDevicesMigInstancesAndProcesses) {
  auto b = machine();
  EXPECT_EQ(b->name(), "fake");
  EXPECT_EQ(b->driver_version(), "580.159.04");
  const auto devs = b->devices();
  ASSERT_EQ(devs.size(), 2u);
  EXPECT_EQ(devs[0].index, 0u);
  EXPECT_EQ(devs[0].name, "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(devs[0].memory_total_bytes, 85520809984u);
  ASSERT_EQ(devs[0].processes.size(), 2u);
  EXPECT_TRUE(devs[0].processes[0].mps_client);
  EXPECT_EQ(devs[0].processes[0].used_memory_bytes, 2147483648u);
  EXPECT_EQ(devs[1].mig_enabled, true);
  ASSERT_EQ(devs[1].mig_instances.size(), 2u);
  EXPECT_EQ(devs[1].mig_instances[0].profile, "3g.40gb");
  EXPECT_EQ(devs[1].mig_instances[1].placement_start, 4u);
  EXPECT_EQ(devs[1].processes[0].gpu_instance_id, 1u);
  EXPECT_FALSE(devs[1].utilization_gpu);  // not given: absent, not zero
}

TEST(FakeGpuBackend, EachSnapshotTakesTheNextSampleAndTheLastRepeats) {
  auto b = machine();
  EXPECT_DOUBLE_EQ(*b->devices()[0].utilization_gpu, 0.25);
  EXPECT_DOUBLE_EQ(*b->devices()[0].utilization_gpu, 0.5);
  EXPECT_DOUBLE_EQ(*b->devices()[0].utilization_gpu, 0.75);
  EXPECT_DOUBLE_EQ(*b->devices()[0].utilization_gpu, 0.75);
}

TEST(FakeGpuBackend, GpmIsAbsentInTheFirstSnapshotThenReplaysItsSeriesPerGpuAndMigInstance) {
  auto b = machine();
  auto devs = b->devices();
  EXPECT_FALSE(devs[0].gpm);  // NVML needs two samples
  EXPECT_FALSE(devs[1].mig_instances[0].gpm);
  devs = b->devices();
  ASSERT_TRUE(devs[0].gpm);
  EXPECT_DOUBLE_EQ(*devs[0].gpm->sm_active, 0.5);
  EXPECT_DOUBLE_EQ(*devs[0].gpm->sm_occupancy, 0.25);
  EXPECT_DOUBLE_EQ(*devs[0].gpm->tensor_active, 0.125);
  EXPECT_DOUBLE_EQ(*devs[0].gpm->dram_bw, 0.375);
  EXPECT_DOUBLE_EQ(devs[0].gpm->interval_seconds, 5.0);
  ASSERT_TRUE(devs[1].mig_instances[0].gpm);
  EXPECT_DOUBLE_EQ(*devs[1].mig_instances[0].gpm->sm_active, 0.625);
  EXPECT_DOUBLE_EQ(devs[1].mig_instances[0].gpm->interval_seconds, 1.0);  // default
  EXPECT_FALSE(devs[1].mig_instances[1].gpm);  // not described: absent
  EXPECT_FALSE(devs[1].gpm);
  EXPECT_DOUBLE_EQ(*b->devices()[0].gpm->sm_active, 0.875);
  EXPECT_DOUBLE_EQ(*b->devices()[0].gpm->sm_active, 0.875);  // the last sample repeats
}

TEST(FakeGpuBackend, ProcessesCarryTheirSmAndMemoryUtilisationWhereDescribed) {
  const auto devs = FakeGpuBackend::from_file(PosixFilesystem{}, FAKE_MACHINES "/time-sliced-h100.json")->devices();
  ASSERT_EQ(devs[0].processes.size(), 2u);
  EXPECT_DOUBLE_EQ(*devs[0].processes[0].sm_utilization, 0.62);
  EXPECT_DOUBLE_EQ(*devs[0].processes[1].memory_utilization, 0.1);
  EXPECT_FALSE(machine()->devices()[0].processes[0].sm_utilization);  // MPS clients: none described
}

TEST(FakeGpuBackend, GpmAndUtilisationOutsideZeroToOneAreInputErrors) {
  using nlohmann::json;
  const json dev = {{"uuid", "GPU-x"}, {"name", "n"}};
  auto with = [&](const json& extra) {
    json d = dev;
    d.update(extra);
    return json{{"devices", json::array({d})}};
  };
  try {
    FakeGpuBackend(with({{"gpm", {{"sm_active", json::array({0.5, 1.5})}}}}));
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("devices[0].gpm.sm_active"), std::string::npos) << e.what();
  }
  EXPECT_THROW(FakeGpuBackend(with({{"gpm", 0.5}})), InputError);
  EXPECT_THROW(FakeGpuBackend(with({{"gpm", {{"interval_seconds", 0}}}})), InputError);
  EXPECT_THROW(FakeGpuBackend(with({{"processes", json::array({json{{"pid", 1}, {"sm_utilization", 80}}})}})), InputError);
}

TEST(FakeGpuBackend, XidEventsAppearFromTheirSnapshotOnce) {
  auto b = machine();
  EXPECT_TRUE(b->poll_xid_events().empty());
  b->devices();
  b->devices();
  const auto events = b->poll_xid_events();
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].xid, 79u);
  EXPECT_TRUE(b->poll_xid_events().empty());
}

TEST(FakeGpuBackend, MalformedMachinesAreInputErrorsNamingTheField) {
  using nlohmann::json;
  EXPECT_THROW((void)FakeGpuBackend(json::array()), InputError);
  try {
    FakeGpuBackend(json{{"devices", json::array({json{{"uuid", "GPU-x"}, {"name", "n"}, {"memory_total_bytes", "lots"}}})}});
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("devices[0].memory_total_bytes"), std::string::npos) << e.what();
  }
  EXPECT_THROW(FakeGpuBackend(json{{"devices", json::array({json{{"name", "n"}}})}}), InputError);
  EXPECT_THROW(FakeGpuBackend::from_file(PosixFilesystem{}, "/nonexistent.json"), InputError);
}

TEST(GpuBackend, FindsDevicesByUuidOrIndex) {
  const auto devs = machine()->devices();
  EXPECT_EQ(find_device(devs, "1"), &devs[1]);
  EXPECT_EQ(find_device(devs, "GPU-11111111-2222-3333-4444-555555555555"), &devs[0]);
  EXPECT_EQ(find_device(devs, "GPU-nope"), nullptr);
  EXPECT_EQ(find_device(devs, "2"), nullptr);
}

}  // namespace
}  // namespace gpupack
