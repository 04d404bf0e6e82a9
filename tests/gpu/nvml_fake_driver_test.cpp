// The NVML backend over a table of fake driver functions (no GPU needed): GPM sampling per GPU and MIG
// instance, per-process utilisation with both queries, and absent values where the driver lacks a
// function or says NOT_SUPPORTED. The structs the fakes receive are the nvml.h layouts of nvml_api.hpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <vector>

#include "fakes/fake_clock.hpp"
#include "gpu/nvml_gpu_backend.hpp"

namespace gpupack {
namespace {

using namespace nvml;

// The fake machine: GPU 0 time-sliced (processes 10, 11 and MPS client 12), GPU 1 MIG-enabled with the
// GPU instance 3. Each GPM sample records a per-source counter the test advances.
struct Driver {
  std::map<unsigned, unsigned> gpm_ticks;  // 0, 1: GPUs; 100 + gi: MIG GPU instances
  int samples_alive = 0;
  bool gpm_supported = true;
  std::vector<ProcessUtilizationInfoV1> rows;
  unsigned long long last_seen_asked = 0;
  int versioned_calls = 0, older_calls = 0;
};
Driver drv;
struct FakeSample {
  unsigned source = 0, tick = 0;
};

Device handle(unsigned i) { return reinterpret_cast<Device>(static_cast<std::uintptr_t>(0x1000 + i)); }
unsigned index_of(Device d) { return static_cast<unsigned>(reinterpret_cast<std::uintptr_t>(d) - 0x1000); }

Return ok() { return kSuccess; }
Return count(unsigned* n) { return *n = 2, kSuccess; }
Return by_index(unsigned i, Device* d) { return *d = handle(i), kSuccess; }
Return uuid(Device d, char* buf, unsigned size) {
  const unsigned i = index_of(d);
  std::snprintf(buf, size, i < 2 ? "GPU-%u" : "MIG-%u", i);
  return kSuccess;
}
Return name(Device, char* buf, unsigned size) { return std::snprintf(buf, size, "NVIDIA H100 80GB HBM3"), kSuccess; }
Return mig_mode(Device d, unsigned* current, unsigned* pending) { return *current = *pending = index_of(d) == 1, kSuccess; }
Return max_mig(Device, unsigned* n) { return *n = 1, kSuccess; }
Return mig_handle(Device, unsigned, Device* d) { return *d = handle(7), kSuccess; }
Return gi_id(Device, unsigned* id) { return *id = 3, kSuccess; }
Return processes(Device d, unsigned* n, ProcessInfo* infos) {
  if (index_of(d) != 0) return *n = 0, kSuccess;
  if (!infos || *n < 2) return *n = 2, kErrorInsufficientSize;
  infos[0] = {10, 1u << 30, 0xFFFFFFFFu, 0xFFFFFFFFu};
  infos[1] = {11, 1u << 30, 0xFFFFFFFFu, 0xFFFFFFFFu};
  return *n = 2, kSuccess;
}
Return mps_processes(Device d, unsigned* n, ProcessInfo* infos) {
  if (index_of(d) != 0) return *n = 0, kSuccess;
  if (!infos || *n < 1) return *n = 1, kErrorInsufficientSize;
  infos[0] = {12, 1u << 29, 0xFFFFFFFFu, 0xFFFFFFFFu};
  return *n = 1, kSuccess;
}
Return utilization_info(Device d, ProcessesUtilizationInfoV1* info) {
  ++drv.versioned_calls;
  if (index_of(d) != 0) return kErrorNotSupported;  // MIG-enabled GPUs: documented as unsupported
  if (info->version != ((24u) | (1u << 24))) return 25;  // NVML_ERROR_ARGUMENT_VERSION_MISMATCH
  drv.last_seen_asked = info->lastSeenTimeStamp;
  const auto n = static_cast<unsigned>(drv.rows.size());
  if (!info->procUtilArray || info->processSamplesCount < n) return info->processSamplesCount = n, kErrorInsufficientSize;
  std::copy(drv.rows.begin(), drv.rows.end(), info->procUtilArray);  // memcpy from an empty vector's null data() is UB
  return info->processSamplesCount = n, kSuccess;
}
Return older_utilization(Device d, ProcessUtilizationSample* out, unsigned* n, unsigned long long last_seen) {
  ++drv.older_calls;
  if (index_of(d) != 0) return kErrorNotSupported;
  drv.last_seen_asked = last_seen;
  if (!out || *n < drv.rows.size()) return *n = static_cast<unsigned>(drv.rows.size()), kErrorInsufficientSize;
  for (std::size_t i = 0; i < drv.rows.size(); ++i) {
    out[i] = {drv.rows[i].pid, drv.rows[i].timeStamp, drv.rows[i].smUtil, drv.rows[i].memUtil, 0, 0};
  }
  return *n = static_cast<unsigned>(drv.rows.size()), kSuccess;
}
Return gpm_support(Device, GpmSupport* s) {
  if (s->version != 1) return 25;
  return s->isSupportedDevice = drv.gpm_supported, kSuccess;
}
Return gpm_alloc(GpmSample* s) { return ++drv.samples_alive, *s = reinterpret_cast<GpmSample>(new FakeSample), kSuccess; }
Return gpm_free(GpmSample s) { return --drv.samples_alive, delete reinterpret_cast<FakeSample*>(s), kSuccess; }
Return record(GpmSample s, unsigned source) {
  *reinterpret_cast<FakeSample*>(s) = {source, drv.gpm_ticks[source]};
  return kSuccess;
}
Return gpm_get(Device d, GpmSample s) { return record(s, index_of(d)); }
Return gpm_mig_get(Device d, unsigned gi, GpmSample s) { return index_of(d) != 1 ? kErrorNotFound : record(s, 100 + gi); }
// Every metric is 10% per tick between the samples; DRAM bandwidth is not supported.
Return gpm_metrics(GpmMetricsGet* g) {
  if (g->version != 1 || g->numMetrics == 0) return 25;
  const auto* a = reinterpret_cast<FakeSample*>(g->sample1);
  const auto* b = reinterpret_cast<FakeSample*>(g->sample2);
  if (a->source != b->source) return kErrorNotFound;
  for (unsigned i = 0; i < g->numMetrics; ++i) {
    GpmMetric& m = g->metrics[i];
    m.nvmlReturn = m.metricId == kGpmDramBwUtil ? kErrorNotSupported : kSuccess;
    m.value = 10.0 * (b->tick - a->tick) + (m.metricId == kGpmSmOccupancy ? 1 : 0);
  }
  return kSuccess;
}

const GpuCatalog kCatalog = builtin_catalog();

Library library(bool with_gpm, bool with_versioned_utilization) {
  Library lib;
  lib.init = ok;
  lib.shutdown = ok;
  lib.device_get_count = count;
  lib.device_get_handle_by_index = by_index;
  lib.device_get_uuid = uuid;
  lib.device_get_name = name;
  lib.device_get_mig_mode = mig_mode;
  lib.device_get_max_mig_device_count = max_mig;
  lib.device_get_mig_device_handle_by_index = mig_handle;
  lib.device_get_gpu_instance_id = gi_id;
  lib.device_get_compute_processes = processes;
  lib.device_get_mps_processes = mps_processes;
  if (with_versioned_utilization) lib.device_get_processes_utilization_info = utilization_info;
  lib.device_get_process_utilization = older_utilization;
  if (with_gpm) {
    lib.gpm_query_device_support = gpm_support;
    lib.gpm_sample_alloc = gpm_alloc;
    lib.gpm_sample_free = gpm_free;
    lib.gpm_sample_get = gpm_get;
    lib.gpm_mig_sample_get = gpm_mig_get;
    lib.gpm_metrics_get = gpm_metrics;
  }
  return lib;
}

class NvmlFakeDriver : public ::testing::Test {
 protected:
  void SetUp() override { drv = Driver{}; }
  std::shared_ptr<testing::FakeClock> clock = std::make_shared<testing::FakeClock>();
};

TEST_F(NvmlFakeDriver, GpmIsAbsentFirstThenCoversTheIntervalSinceThePreviousCall) {
  {
    NvmlGpuBackend b(library(true, true), clock, kCatalog);
    auto devs = b.devices();
    ASSERT_EQ(devs.size(), 2u);
    EXPECT_FALSE(devs[0].gpm);  // one sample only
    ASSERT_EQ(devs[1].mig_instances.size(), 1u);
    EXPECT_FALSE(devs[1].mig_instances[0].gpm);
    drv.gpm_ticks[0] = 9;    // GPU 0: 90% busy
    drv.gpm_ticks[103] = 2;  // MIG GPU instance 3: 20%
    clock->sleep_for(std::chrono::seconds(5));
    devs = b.devices();
    ASSERT_TRUE(devs[0].gpm);
    EXPECT_DOUBLE_EQ(*devs[0].gpm->sm_active, 0.9);
    EXPECT_DOUBLE_EQ(*devs[0].gpm->sm_occupancy, 0.91);
    EXPECT_DOUBLE_EQ(*devs[0].gpm->tensor_active, 0.9);
    EXPECT_FALSE(devs[0].gpm->dram_bw);  // NOT_SUPPORTED for that metric: absent, the others stay
    EXPECT_DOUBLE_EQ(devs[0].gpm->interval_seconds, 5.0);
    ASSERT_TRUE(devs[1].mig_instances[0].gpm);
    EXPECT_DOUBLE_EQ(*devs[1].mig_instances[0].gpm->sm_active, 0.2);
    // Next interval: from the previous sample on, not from the first.
    drv.gpm_ticks[0] = 10;
    clock->sleep_for(std::chrono::seconds(1));
    devs = b.devices();
    EXPECT_DOUBLE_EQ(*devs[0].gpm->sm_active, 0.1);
    EXPECT_DOUBLE_EQ(devs[0].gpm->interval_seconds, 1.0);
    // Within NVML's 100 ms refresh: absent, and the older sample stays the start.
    drv.gpm_ticks[0] = 13;
    clock->sleep_for(std::chrono::milliseconds(50));
    EXPECT_FALSE(b.devices()[0].gpm);
    clock->sleep_for(std::chrono::milliseconds(100));
    devs = b.devices();
    EXPECT_NEAR(*devs[0].gpm->sm_active, 0.3, 1e-9);
    EXPECT_NEAR(devs[0].gpm->interval_seconds, 0.15, 1e-9);
    EXPECT_EQ(drv.samples_alive, 6);  // two per source: GPU 0, GPU 1 and its MIG instance
  }
  EXPECT_EQ(drv.samples_alive, 0);  // freed with the backend
}

TEST_F(NvmlFakeDriver, NoGpmFunctionsOrAnUnsupportedGpuGiveAbsentValuesNotErrors) {
  NvmlGpuBackend without(library(false, true), clock, kCatalog);
  clock->sleep_for(std::chrono::seconds(1));
  without.devices();
  clock->sleep_for(std::chrono::seconds(1));
  EXPECT_FALSE(without.devices()[0].gpm);
  drv.gpm_supported = false;
  NvmlGpuBackend unsupported(library(true, true), clock, kCatalog);
  unsupported.devices();
  clock->sleep_for(std::chrono::seconds(1));
  const auto devs = unsupported.devices();
  EXPECT_FALSE(devs[0].gpm);
  EXPECT_FALSE(devs[1].mig_instances[0].gpm);
  EXPECT_EQ(drv.samples_alive, 0);
}

TEST_F(NvmlFakeDriver, PerProcessUtilisationTakesTheNewestRowAndLeavesMpsClientsAbsent) {
  drv.rows = {{100, 10, 5, 1, 0, 0, 0, 0}, {300, 10, 80, 30, 0, 0, 0, 0}, {200, 10, 7, 2, 0, 0, 0, 0}};
  NvmlGpuBackend b(library(true, true), clock, kCatalog);
  auto devs = b.devices();
  ASSERT_EQ(devs[0].processes.size(), 3u);
  EXPECT_DOUBLE_EQ(*devs[0].processes[0].sm_utilization, 0.8);  // pid 10: the row of time 300
  EXPECT_DOUBLE_EQ(*devs[0].processes[0].memory_utilization, 0.3);
  EXPECT_DOUBLE_EQ(*devs[0].processes[1].sm_utilization, 0.0);  // pid 11: no row, no kernel ran
  EXPECT_TRUE(devs[0].processes[2].mps_client);
  EXPECT_FALSE(devs[0].processes[2].sm_utilization);  // MPS client: its work is the server's row
  EXPECT_EQ(drv.last_seen_asked, 0u);
  b.devices();
  EXPECT_EQ(drv.last_seen_asked, 300u);  // the next query asks only for newer samples
  EXPECT_EQ(drv.older_calls, 0);
}

TEST_F(NvmlFakeDriver, TheOlderProcessQueryIsTheFallbackAndMigGpusReportNone) {
  drv.rows = {{400, 11, 55, 12, 0, 0, 0, 0}};
  NvmlGpuBackend b(library(true, false), clock, kCatalog);
  const auto devs = b.devices();
  EXPECT_GT(drv.older_calls, 0);
  EXPECT_DOUBLE_EQ(*devs[0].processes[1].sm_utilization, 0.55);
  EXPECT_DOUBLE_EQ(*devs[0].processes[1].memory_utilization, 0.12);
  EXPECT_DOUBLE_EQ(*devs[0].processes[0].sm_utilization, 0.0);
}

}  // namespace
}  // namespace gpupack
