#include <gtest/gtest.h>

#include <map>
#include <set>
#include <sstream>

#include "gpu/fake_gpu_backend.hpp"
#include "metrics/node_snapshot.hpp"

namespace gpupack {
namespace {

NodeSnapshot snapshot() {
  NodeSnapshot s;
  s.version = "0.1.0";
  s.backend = "fake";
  s.devices = FakeGpuBackend::from_file(FAKE_MACHINES "/two-gpus.json")->devices();
  const std::string gpu0 = s.devices[0].uuid;
  s.sharing.push_back({gpu0, gpu0, "mps", 4, 25, 4ull << 30, "search"});
  MpsSnapshot m;
  m.target_uuid = gpu0;
  m.pipe_dir = "/run/gpupack/mps/" + gpu0 + "/pipe";
  m.status.daemon_up = true;
  m.status.servers.push_back({777, MpsServerState::active, {4242, 4343}});
  m.status.daemon_restarts = 1;
  s.mps.push_back(m);
  s.processes[4242] = {1000, "0f6b1e0e-4f0a-4a34-9f0b-2d6c7a1e9c11", "abc", "", "", "", 4ull << 30};
  // 4343 is an MPS client whose pod the agent named through kubelet's PodResources.
  s.processes[4343] = {1000, "", "", "infer-0", "search", "model", 512ull << 20};  // uses 1 GiB of 512 MiB allotted: no negative waste
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
  const std::string t = render_node_metrics(snapshot());
  EXPECT_EQ(value_of(t, "gpupack_build_info{version=\"0.1.0\",backend=\"fake\"}"), "1");
  EXPECT_EQ(value_of(t, "gpupack_gpu_memory_total_bytes{gpu=\"0\""), "85520809984");
  EXPECT_EQ(value_of(t, "gpupack_gpu_utilization_ratio{gpu=\"0\""), "0.25");
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

TEST(NodeMetrics, EveryFamilyHasHelpAndTypeOnceAndItsSamplesTogether) {
  const std::string t = render_node_metrics(snapshot());
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
