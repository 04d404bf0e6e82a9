#include <gtest/gtest.h>

#include <map>
#include <set>
#include <sstream>

#include "gpu/fake_gpu_backend.hpp"
#include "os/filesystem.hpp"
#include "core/build_info.hpp"
#include "metrics/node_snapshot.hpp"

namespace gpupack {
namespace {

const GpuCatalog kCatalog = builtin_catalog();

NodeSnapshot snapshot() {
  NodeSnapshot s;
  s.version = "0.1.0";
  s.backend = "fake";
  auto machine = FakeGpuBackend::from_file(PosixFilesystem{}, FAKE_MACHINES "/two-gpus.json");
  machine->devices();  // GPM needs a previous sample: the agent's second read onwards
  s.devices = machine->devices();
  const std::string gpu0 = s.devices[0].uuid;
  SharingSnapshot sh;
  sh.gpu_uuid = sh.target_uuid = gpu0;
  sh.mode = "mps";
  sh.clients_limit = 4;
  sh.sm_percent = 25;
  sh.memory_limit_bytes = 4ull << 30;
  sh.tenant = "search";
  s.sharing.push_back(sh);
  MpsSnapshot m;
  m.target_uuid = gpu0;
  m.pipe_dir = "/run/gpupack/mps/" + gpu0 + "/pipe";
  m.status.daemon_up = true;
  m.status.servers.push_back({777, MpsServerState::active, {4242, 4343}});
  m.status.daemon_restarts = 1;
  s.mps.push_back(m);
  s.processes[4242] = {1000, "0f6b1e0e-4f0a-4a34-9f0b-2d6c7a1e9c11", "abc", "", "", "", 4ull << 30, 0.25};
  // 4343 is an MPS client whose pod the agent named through kubelet's PodResources.
  s.processes[4343] = {1000, "", "", "infer-0", "search", "model", 512ull << 20, 0.5};  // uses 1 GiB of 512 MiB allotted: no negative waste
  s.xid_errors[s.devices[1].uuid] = 2;
  return s;
}

// The value of the first sample whose line starts with `prefix`.
std::optional<std::string> value_of(const std::string& text, const std::string& prefix) {
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(prefix, 0) == 0) return line.substr(line.rfind(' ') + 1);
  }
  return std::nullopt;
}

TEST(NodeMetrics, ExposesGpuMigProcessMpsAndWasteSeries) {
  const std::string t = render_node_metrics(snapshot(), kCatalog);
  EXPECT_EQ(value_of(t, "gpupack_build_info{version=\"0.1.0\",commit=\"" + std::string(build_commit()) + "\",backend=\"fake\"}"), "1");
  EXPECT_EQ(value_of(t, "gpupack_gpu_memory_total_bytes{gpu=\"0\""), "85520809984");
  EXPECT_EQ(value_of(t, "gpupack_gpu_utilization_ratio{gpu=\"0\""), "0.5");
  EXPECT_FALSE(value_of(t, "gpupack_gpu_utilization_ratio{gpu=\"1\""));  // not reported: no sample
  EXPECT_EQ(value_of(t, "gpupack_gpu_xid_errors_total{gpu=\"1\""), "2");
  EXPECT_EQ(value_of(t, "gpupack_sharing_info{uuid=\"GPU-1111"), "1");
  EXPECT_EQ(value_of(t, "gpupack_sharing_client_sm_limit_ratio{"), "0.25");
  EXPECT_NE(t.find("gpupack_mig_instance_info{gpu=\"1\",uuid=\"GPU-aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee\",mig_uuid=\"MIG-00000000-0000-0000-0000-000000000001\",profile=\"3g.40gb\",gpu_instance_id=\"1\",compute_instance_id=\"0\",placement=\"0:4\"} 1"),
            std::string::npos);
  EXPECT_NE(t.find("pid=\"4343\",uid=\"1000\",mps_client=\"true\",gpu_instance_id=\"\",pod_uid=\"\",container_id=\"\","
                   "pod=\"infer-0\",namespace=\"search\",container=\"model\"}"),
            std::string::npos)
      << t;
  EXPECT_NE(t.find("gpupack_process_memory_used_bytes{gpu=\"0\",uuid=\"GPU-11111111-2222-3333-4444-555555555555\",pid=\"4242\",uid=\"1000\",mps_client=\"true\",gpu_instance_id=\"\",pod_uid=\"0f6b1e0e-4f0a-4a34-9f0b-2d6c7a1e9c11\",container_id=\"abc\",pod=\"\",namespace=\"\",container=\"\"} 2147483648"),
            std::string::npos);
  // Allotted 4 GiB + 512 MiB; unused: 4 GiB - 2 GiB (the second client is over its allotment: 0).
  EXPECT_EQ(value_of(t, "gpupack_gpu_memory_allocated_bytes{gpu=\"0\""), std::to_string((4ull << 30) + (512ull << 20)));
  EXPECT_EQ(value_of(t, "gpupack_gpu_memory_allocated_unused_bytes{gpu=\"0\""), std::to_string(2ull << 30));
  EXPECT_EQ(value_of(t, "gpupack_mps_daemon_up{"), "1");
  EXPECT_EQ(value_of(t, "gpupack_mps_server_state{target=\"GPU-11111111-2222-3333-4444-555555555555\",server_pid=\"777\",state=\"ACTIVE\"}"), "1");
  EXPECT_EQ(value_of(t, "gpupack_mps_server_state{target=\"GPU-11111111-2222-3333-4444-555555555555\",server_pid=\"777\",state=\"FAULT\"}"), "0");
  EXPECT_EQ(value_of(t, "gpupack_mps_clients{"), "2");
  EXPECT_EQ(value_of(t, "gpupack_mps_daemon_restarts_total{"), "1");
}

TEST(NodeMetrics, GpmActivityPerGpuAndMigInstanceAndNvmlUtilisationSaysWhatItIs) {
  const std::string t = render_node_metrics(snapshot(), kCatalog);
  EXPECT_EQ(value_of(t, "gpupack_gpu_sm_active_ratio{gpu=\"0\""), "0.5");
  EXPECT_EQ(value_of(t, "gpupack_gpu_sm_occupancy_ratio{gpu=\"0\""), "0.25");
  EXPECT_EQ(value_of(t, "gpupack_gpu_tensor_active_ratio{gpu=\"0\""), "0.125");
  EXPECT_EQ(value_of(t, "gpupack_gpu_dram_bandwidth_ratio{gpu=\"0\""), "0.375");
  EXPECT_FALSE(value_of(t, "gpupack_gpu_sm_active_ratio{gpu=\"1\""));  // no GPM on that GPU: no sample
  EXPECT_EQ(value_of(t, "gpupack_mig_instance_sm_active_ratio{gpu=\"1\",uuid=\"GPU-aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee\",mig_uuid=\"MIG-00000000-0000-0000-0000-000000000001\"}"), "0.625");
  EXPECT_EQ(value_of(t, "gpupack_mig_instance_dram_bandwidth_ratio{"), "0.125");
  EXPECT_FALSE(value_of(t, "gpupack_mig_instance_sm_active_ratio{gpu=\"1\",uuid=\"GPU-aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee\",mig_uuid=\"MIG-00000000-0000-0000-0000-000000000002\""));
  EXPECT_EQ(value_of(t, "gpupack_gpm_interval_seconds{gpu=\"0\""), "5");
  EXPECT_NE(t.find("# HELP gpupack_gpu_utilization_ratio NVML utilisation: fraction of the driver's last sample period in which any kernel ran"),
            std::string::npos);
}

TEST(NodeMetrics, MpsSliceWasteCountsTheClientsCapsNotTheServer) {
  NodeSnapshot s = snapshot();
  // The MPS server 777 also shows as a compute process: it is not a client and allots nothing.
  s.devices[0].processes.push_back({777, std::nullopt, std::nullopt, 268435456, false, std::nullopt, std::nullopt});
  const std::string t = render_node_metrics(s, kCatalog);
  const std::string slice = "{uuid=\"GPU-11111111-2222-3333-4444-555555555555\",target=\"GPU-11111111-2222-3333-4444-555555555555\"}";
  EXPECT_EQ(value_of(t, "gpupack_slice_clients" + slice), "2");
  EXPECT_EQ(value_of(t, "gpupack_slice_sm_allotted_ratio" + slice), "0.75");  // caps 25% + 50%
  EXPECT_EQ(value_of(t, "gpupack_slice_sm_active_ratio" + slice), "0.5");
  EXPECT_FALSE(value_of(t, "gpupack_slice_sm_active_predicted_ratio" + slice));  // node.yaml states none
  EXPECT_EQ(value_of(t, "gpupack_slice_sm_allotted_unused_ratio" + slice), "0.25");
  EXPECT_EQ(value_of(t, "gpupack_slice_memory_allotted_bytes" + slice), std::to_string((4ull << 30) + (512ull << 20)));
  // 4 GiB allotted, 2 GiB used by one client; the other uses more than its allotment (0, not negative).
  EXPECT_DOUBLE_EQ(std::stod(*value_of(t, "gpupack_slice_memory_allotted_unused_ratio" + slice)), 2147483648.0 / 85520809984.0);
  EXPECT_EQ(value_of(t, "gpupack_process_sm_allocated_ratio{gpu=\"0\",uuid=\"GPU-11111111-2222-3333-4444-555555555555\",pid=\"4242\""), "0.25");
  EXPECT_FALSE(value_of(t, "gpupack_process_sm_utilization_ratio{"));  // MPS clients: NVML has no row
}

TEST(NodeMetrics, TheSlicesPredictedSmActivityIsExportedBesideTheMeasured) {
  NodeSnapshot s = snapshot();
  s.sharing[0].predicted_sm_active = 0.79;  // node.yaml's, from the plan (model/slice_activity.hpp)
  const std::string t = render_node_metrics(s, kCatalog);
  const std::string slice = "{uuid=\"GPU-11111111-2222-3333-4444-555555555555\",target=\"GPU-11111111-2222-3333-4444-555555555555\"}";
  EXPECT_EQ(value_of(t, "gpupack_slice_sm_active_predicted_ratio" + slice), "0.79");
  EXPECT_EQ(value_of(t, "gpupack_slice_sm_active_ratio" + slice), "0.5");
}

TEST(NodeMetrics, TimeSlicedProcessesCarryTheirUtilisationAndMigSlicesTheirOwnActivity) {
  NodeSnapshot s;
  auto machine = FakeGpuBackend::from_file(PosixFilesystem{}, FAKE_MACHINES "/time-sliced-h100.json");
  machine->devices();
  s.devices = machine->devices();
  const std::string gpu = s.devices[0].uuid;
  SharingSnapshot ts;
  ts.gpu_uuid = ts.target_uuid = gpu;
  ts.mode = "time-slicing";
  s.sharing.push_back(ts);
  s.processes[6001].pod = "train-0";
  std::string t = render_node_metrics(s, kCatalog);
  EXPECT_EQ(value_of(t, "gpupack_process_sm_utilization_ratio{gpu=\"0\",uuid=\"" + gpu + "\",pid=\"6001\",uid=\"\",mps_client=\"false\",gpu_instance_id=\"\",pod_uid=\"\",container_id=\"\",pod=\"train-0\""), "0.62");
  EXPECT_EQ(value_of(t, "gpupack_process_memory_utilization_ratio{gpu=\"0\",uuid=\"" + gpu + "\",pid=\"6002\""), "0.1");
  const std::string slice = "{uuid=\"" + gpu + "\",target=\"" + gpu + "\"}";
  EXPECT_EQ(value_of(t, "gpupack_slice_sm_allotted_ratio" + slice), "1");  // uncapped: the whole GPU
  EXPECT_EQ(value_of(t, "gpupack_slice_sm_allotted_unused_ratio" + slice), "0.7");
  EXPECT_EQ(value_of(t, "gpupack_slice_memory_allotted_unused_ratio" + slice), "0");  // no memory allotments

  // MIG: each instance is its own slice with its own GPM activity; an instance without clients allots nothing.
  s = snapshot();
  s.sharing.clear();
  for (const auto& m : s.devices[1].mig_instances) {
    SharingSnapshot sh;
    sh.gpu_uuid = s.devices[1].uuid;
    sh.target_uuid = m.uuid;
    sh.mode = "time-slicing";
    s.sharing.push_back(sh);
  }
  t = render_node_metrics(s, kCatalog);
  const std::string mig1 = "{uuid=\"" + s.devices[1].uuid + "\",target=\"MIG-00000000-0000-0000-0000-000000000001\"}";
  const std::string mig2 = "{uuid=\"" + s.devices[1].uuid + "\",target=\"MIG-00000000-0000-0000-0000-000000000002\"}";
  EXPECT_EQ(value_of(t, "gpupack_slice_clients" + mig1), "1");
  EXPECT_EQ(value_of(t, "gpupack_slice_sm_allotted_unused_ratio" + mig1), "0.375");
  EXPECT_EQ(value_of(t, "gpupack_slice_clients" + mig2), "0");
  EXPECT_EQ(value_of(t, "gpupack_slice_sm_allotted_ratio" + mig2), "0");
  EXPECT_FALSE(value_of(t, "gpupack_slice_sm_allotted_unused_ratio" + mig2));  // no GPM for it: unknown
}

TEST(NodeMetrics, EveryFamilyHasHelpAndTypeOnceAndItsSamplesTogether) {
  const std::string t = render_node_metrics(snapshot(), kCatalog);
  ASSERT_FALSE(t.empty());
  EXPECT_EQ(t.back(), '\n');
  std::istringstream in(t);
  std::set<std::string> finished, helped, typed;
  std::set<std::string> series;
  std::string current;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("# HELP ", 0) == 0) {
      const std::string name = line.substr(7, line.find(' ', 7) - 7);
      EXPECT_TRUE(helped.insert(name).second) << name;
      if (!current.empty()) finished.insert(current);
      current = name;
      EXPECT_EQ(name.rfind("gpupack_", 0), 0u) << name;
      continue;
    }
    if (line.rfind("# TYPE ", 0) == 0) {
      typed.insert(line.substr(7, line.find(' ', 7) - 7));
      continue;
    }
    const std::string name = line.substr(0, line.find_first_of("{ "));
    EXPECT_EQ(name, current) << "sample outside its family: " << line;
    EXPECT_FALSE(finished.count(name)) << line;
    EXPECT_TRUE(series.insert(line.substr(0, line.rfind(' '))).second) << "duplicate series: " << line;
  }
  EXPECT_EQ(helped, typed);
}

}  // namespace
}  // namespace gpupack
