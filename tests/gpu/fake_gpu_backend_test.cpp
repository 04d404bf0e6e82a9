#include "gpu/fake_gpu_backend.hpp"
#include "os/filesystem.hpp"

#include <gtest/gtest.h>

#include "core/errors.hpp"
#include "fakes/memory_filesystem.hpp"

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

// Issue 38, items 8 and 14: the fake machine under the rules of every input file, with its reproducers.
std::string error_of_file(const std::string& text) {
  testing::MemoryFilesystem mem;
  mem.write_file("/m.json", text);
  try {
    FakeGpuBackend::from_file(mem, "/m.json");
  } catch (const InputError& e) {
    return e.what();
  }
  return "accepted";
}

std::string device_with(const std::string& fields) {
  return R"({"devices": [{"uuid": "GPU-1", "name": "NVIDIA H100 80GB HBM3")" + fields + "}]}";
}

TEST(FakeGpuBackend, TheMachineFileFollowsTheInputFileRules) {
  // 1e999 was exit 70 (nlohmann's out_of_range escaped); now the strict reader's exit 2 naming the file.
  EXPECT_NE(error_of_file(device_with(R"(, "memory_total_bytes": 1e999)")).find("fake GPU machine '/m.json': JSON value out of range"),
            std::string::npos);
  EXPECT_NE(error_of_file(R"({"devices": [], "devices": []})").find("key \"devices\" given twice"), std::string::npos);
  // /dev/zero was read without bound: a file over 4 MiB is refused after reading 4 MiB.
  EXPECT_NE(error_of_file(std::string(5 << 20, ' ')).find("larger than 4MiB"), std::string::npos);
  // A negative memory wrapped to 2^64-5; a float is not a byte count; 1e30 does not fit.
  for (const char* bad : {R"(, "memory_total_bytes": -5)", R"(, "memory_used_bytes": 1.5)", R"(, "memory_total_bytes": 1e30)"}) {
    EXPECT_NE(error_of_file(device_with(bad)).find("devices[0].memory_"), std::string::npos) << bad;
  }
  EXPECT_NE(error_of_file(device_with(R"(, "memory_used_samples": [1e9, -1])")).find("memory_used_samples must be byte counts"),
            std::string::npos);
  EXPECT_NE(error_of_file(device_with(R"(, "utilization_gpu": 7)")).find("utilization_gpu must be a ratio"), std::string::npos);
  EXPECT_NE(error_of_file(device_with(R"(, "processes": [{"pid": -1}])")).find("processes.pid"), std::string::npos);
  EXPECT_EQ(error_of_file(device_with(R"(, "memory_total_bytes": 85520809984, "memory_used_samples": [1e9])")), "accepted");
}

TEST(FakeGpuBackend, DeviceAndMigUuidsCannotEscapeAPath) {
  // The UUID names <mps_root>/<uuid>/pipe: "../" escaped mps_root.
  for (const char* uuid : {"../../etc", "GPU-1/pipe", "GPU-1\n", ".", "GPU 1"}) {
    const std::string machine = R"({"devices": [{"uuid": )" + nlohmann::json(uuid).dump() + R"(, "name": "n"}]})";
    EXPECT_NE(error_of_file(machine).find("devices[0].uuid must be a GPU or MIG UUID"), std::string::npos) << uuid;
  }
  EXPECT_NE(error_of_file(device_with(R"(, "mig_instances": [{"uuid": "MIG-../x"}])")).find("mig_instances.uuid must be"),
            std::string::npos);
  const std::string long_uuid = R"({"devices": [{"uuid": "GPU-)" + std::string(92, 'a') + R"(", "name": "n"}]})";
  EXPECT_NE(error_of_file(long_uuid).find("uuid must be"), std::string::npos);  // 96 bytes: over NVML's buffer
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
