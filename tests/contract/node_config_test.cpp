// node.yaml: one parser and one writer, tied by round trips; the device plugin's section comes from the
// same parse as the agent's (the file is read once).
#include <gtest/gtest.h>

#include "contract/node_config.hpp"
#include "core/errors.hpp"

namespace gpupack {
namespace {

DevicePluginSettings plugin(const std::string& section) {
  return parse_node_config("gpus: [{gpu: '0'}]\n" + section, "node.yaml").device_plugin;
}

constexpr std::uint64_t kMiB = std::uint64_t{1024} * 1024;

NodeConfig every_field() {
  NodeConfig c;
  c.mps_root = "/srv/mps";
  c.uid = 1000;
  c.metrics_address = "0.0.0.0:9410";
  c.control_binary = "/opt/cuda/bin/nvidia-cuda-mps-control";
  c.check_interval_seconds = 0.5;
  GpuConfig whole;
  whole.ref = "GPU-11111111-2222-3333-4444-555555555555";
  whole.mode = Sharing::mps;
  whole.clients = 4;
  whole.tenant = "ads";
  whole.limits = {25, 8192 * kMiB};
  whole.predicted_sm_active = 0.8460395784188576;  // a plan's, as it wrote it
  GpuConfig mig;
  mig.ref = "1";
  SharingTarget a;
  a.ref = "1g.10gb+me@0";
  a.mode = Sharing::time_slicing;
  a.clients = 3;
  a.limits.memory_bytes = 3000 * kMiB;
  a.predicted_sm_active = 0.79;
  SharingTarget b;
  b.ref = "MIG-aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa";
  mig.mig = {a, b};
  c.gpus = {whole, mig};
  DevicePluginSettings& d = c.device_plugin;
  d.enabled = true;
  d.plugin_dir = "/tmp/dp";
  d.pod_resources_socket = "/tmp/pr.sock";
  d.cdi = true;
  d.cdi_dir = "/tmp/cdi";
  d.policy = AllocationPolicy::distributed;
  d.gpupack_resources_only = true;
  d.features_file = "";
  d.cast_ai_labels = true;
  d.mps_slices[whole.ref] = {{50, 40960 * kMiB, 1, std::nullopt}, {25, std::nullopt, 2, std::nullopt}};
  return c;
}

TEST(NodeConfigRoundTrip, EveryFieldReadsBackAsWritten) {
  const NodeConfig c = every_field();
  const std::string text = write_node_config(c);
  EXPECT_EQ(parse_node_config(text, "written.yaml"), c) << text;
  EXPECT_EQ(write_node_config(parse_node_config(text, "written.yaml")), text);
}

TEST(NodeConfigRoundTrip, DefaultsAreLeftOut) {
  NodeConfig c;
  GpuConfig g;
  g.ref = "0";
  c.gpus = {g};
  const std::string text = write_node_config(c);
  EXPECT_EQ(text, "version: 1\ngpus:\n  - gpu: \"0\"\n    mode: exclusive\n    clients: 1\n");
  EXPECT_EQ(parse_node_config(text, "written.yaml"), c);
}

TEST(NodeConfigRoundTrip, DevicePluginSectionOnlyWhenSet) {
  NodeConfig c = every_field();
  c.device_plugin = {};
  EXPECT_EQ(write_node_config(c).find("device_plugin"), std::string::npos);
  c.device_plugin.enabled = true;  // a bare section turns the plugin on
  EXPECT_EQ(parse_node_config(write_node_config(c), "w").device_plugin, c.device_plugin);
}

TEST(NodeConfigRoundTrip, MemoryIsWrittenInWholeMebibytesRoundedUp) {
  NodeConfig c = every_field();
  c.gpus[0].limits.memory_bytes = 8192 * kMiB + 1;
  EXPECT_EQ(parse_node_config(write_node_config(c), "w").gpus[0].limits.memory_bytes, 8193 * kMiB);
}

TEST(NodeConfigParse, RefusesStreams) {
  EXPECT_THROW(parse_node_config("gpus: [{gpu: '0', mode: streams}]\n", "node.yaml"), InputError);
}

TEST(NodeConfigParse, ThePredictedSmActivityIsAShare) {
  EXPECT_EQ(parse_node_config("gpus: [{gpu: '0', mode: mps, clients: 2, predicted_sm_active: 0.5}]\n", "node.yaml")
                .gpus[0]
                .predicted_sm_active,
            0.5);
  for (const char* bad : {"1.5", "-0.1", ".nan", "lots"}) {
    try {
      parse_node_config(std::string("gpus: [{gpu: '0', mode: mps, clients: 2, predicted_sm_active: ") + bad + "}]\n", "node.yaml");
      ADD_FAILURE() << bad;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("gpus[0].predicted_sm_active"), std::string::npos) << e.what();
    }
  }
}

TEST(DevicePluginSection, DefaultsWithoutTheSection) {
  const auto s = plugin("");
  EXPECT_EQ(s.plugin_dir, "/var/lib/kubelet/device-plugins");
  EXPECT_EQ(s.cdi_dir, "/var/run/cdi");
  EXPECT_FALSE(s.cdi);
  EXPECT_EQ(s.policy, AllocationPolicy::packed);
  EXPECT_FALSE(s.enabled);  // no section: no kubelet expected
  EXPECT_TRUE(plugin("device_plugin: {cdi: false}\n").enabled);
  EXPECT_FALSE(plugin("device_plugin: {enabled: false}\n").enabled);
}

TEST(DevicePluginSection, EveryField) {
  const auto s = plugin(R"(
device_plugin:
  directory: /tmp/dp
  pod_resources_socket: /tmp/pr.sock
  cdi: true
  cdi_directory: /tmp/cdi
  allocation_policy: distributed
  resources: gpupack-only
  features_file: ""
  cast_ai_labels: true
  mps_slices:
    "0": [{sm_percent: 50, memory: 40GiB}, {sm_percent: 25, count: 2}]
)");
  EXPECT_EQ(s.plugin_dir, "/tmp/dp");
  EXPECT_EQ(s.pod_resources_socket, "/tmp/pr.sock");
  EXPECT_TRUE(s.cdi);
  EXPECT_EQ(s.cdi_dir, "/tmp/cdi");
  EXPECT_EQ(s.policy, AllocationPolicy::distributed);
  EXPECT_TRUE(s.gpupack_resources_only);
  EXPECT_TRUE(s.features_file.empty());
  EXPECT_TRUE(s.cast_ai_labels);
  ASSERT_EQ(s.mps_slices.at("0").size(), 2u);
  EXPECT_EQ(s.mps_slices.at("0")[0].memory_bytes, 40ull << 30);
  EXPECT_EQ(s.mps_slices.at("0")[1].count, 2);
}

TEST(DevicePluginSection, ErrorsNameTheField) {
  const auto error = [](const std::string& yaml) {
    try {
      plugin(yaml);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(error("device_plugin: {directry: /x}"),
            "node.yaml: device_plugin.directry: unknown field (accepted: allocation_policy, cast_ai_labels, cdi, "
            "cdi_directory, directory, enabled, features_file, mps_slices, pod_resources_socket, resources)");
  EXPECT_EQ(error("device_plugin: {directory: relative}"), "node.yaml: device_plugin.directory: must be an absolute path");
  EXPECT_NE(error("device_plugin: {allocation_policy: random}").find("accepted: packed, distributed"), std::string::npos);
  EXPECT_NE(error("device_plugin: {mps_slices: {'0': [{memory: 1GiB}]}}").find("mps_slices.0[0].sm_percent: is required"),
            std::string::npos);
  EXPECT_NE(error("device_plugin: {mps_slices: {'0': [{sm_percent: 101}]}}").find("out of range 1..100"), std::string::npos);
  EXPECT_NE(error("device_plugin: {cdi: maybe}").find("device_plugin.cdi: has the wrong type"), std::string::npos);
  // A sequence as a key (found by fuzz_node_config: it used to escape as a yaml-cpp conversion error).
  EXPECT_EQ(error("device_plugin:\n  mps_slices:\n    ? - {sm_percent: 25}\n    : [{sm_percent: 25}]\n"),
            "node.yaml: device_plugin.mps_slices: '- {sm_percent: 25}' is not a GPU or MIG instance (keys as in gpus[])");
  EXPECT_EQ(error("device_plugin: {mps_slices: {'0': [{sm_percent: 50}], '0': [{sm_percent: 25}]}}"),
            "node.yaml: device_plugin.mps_slices.0: is given twice");
}


}  // namespace
}  // namespace gpupack
