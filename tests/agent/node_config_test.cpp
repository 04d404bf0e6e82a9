#include "agent/node_config.hpp"

#include <gtest/gtest.h>

#include "core/errors.hpp"
#include "gpu/fake_gpu_backend.hpp"
#include "os/filesystem.hpp"

namespace gpupack {
namespace {

const GpuCatalog kCatalog = builtin_catalog();

std::string error_of(const std::string& yaml) {
  try {
    parse_node_config(yaml, "node.yaml");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

std::vector<GpuDeviceInfo> two_gpus() { return FakeGpuBackend::from_file(PosixFilesystem{}, FAKE_MACHINES "/two-gpus.json")->devices(); }

// What check_against_devices says of `yaml` on the fake two-GPU machine ("" when it passes).
std::string check(const std::string& yaml) {
  try {
    check_against_devices(parse_node_config(yaml, "node.yaml"), two_gpus(), kCatalog);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(NodeConfig, ParsesTheDocumentedExample) {
  const NodeConfig c = parse_node_config(R"(
version: 1
mps_root: /tmp/mps
uid: 1000
metrics_address: 0.0.0.0:9500
check_interval_seconds: 2
gpus:
  - gpu: "0"
    mode: mps
    clients: 4
    tenant: search
    limits: {sm_percent: 25, memory: 16GiB}
  - gpu: GPU-aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee
    mig:
      - instance: "3g.40gb@0"
        mode: mps
        clients: 2
        limits: {sm_percent: 50, memory: 1024MiB}
      - instance: MIG-00000000-0000-0000-0000-000000000002
        mode: time-slicing
        clients: 3
)",
                                         "node.yaml");
  EXPECT_EQ(c.mps_root, "/tmp/mps");
  EXPECT_EQ(c.uid, 1000u);
  EXPECT_EQ(c.metrics_address, "0.0.0.0:9500");
  ASSERT_EQ(c.gpus.size(), 2u);
  EXPECT_EQ(c.gpus[0].mode, Sharing::mps);
  EXPECT_EQ(c.gpus[0].clients, 4);
  EXPECT_EQ(c.gpus[0].tenant, "search");
  EXPECT_EQ(c.gpus[0].limits.sm_percent, 25);
  EXPECT_EQ(c.gpus[0].limits.memory_bytes, 16ull << 30);
  ASSERT_EQ(c.gpus[1].mig.size(), 2u);
  EXPECT_EQ(c.gpus[1].mig[1].mode, Sharing::time_slicing);
  EXPECT_NO_THROW(check_against_devices(c, two_gpus(), kCatalog));
}

TEST(NodeConfig, BadInputNamesTheFieldAndTheProblem) {
  EXPECT_NE(error_of("gpus: [").find("not valid YAML"), std::string::npos);
  EXPECT_NE(error_of("").find("empty"), std::string::npos);
  EXPECT_NE(error_of("gpus: []").find("gpus: must list at least one GPU"), std::string::npos);
  EXPECT_NE(error_of("gpus: [{gpu: '0', mode: mps, clients: 0}]").find("gpus[0].clients: 0 is out of range 1..60"), std::string::npos);
  EXPECT_NE(error_of("gpus: [{gpu: '0', mode: shared}]").find("gpus[0].mode: 'shared' is not a sharing mode"), std::string::npos);
  EXPECT_NE(error_of("gpus: [{gpu: '0', mode: mps, limits: {sm_percent: 101}}]").find("out of range 1..100"), std::string::npos);
  EXPECT_NE(error_of("gpus: [{gpu: '0', mode: mps, limits: {memory: 12}}]").find("gpus[0].limits.memory"), std::string::npos);
  EXPECT_NE(error_of("gpus: [{gpu: '0', mode: mps, limit: {}}]").find("gpus[0].limit: unknown field"), std::string::npos);
  EXPECT_NE(error_of("gpus: [{gpu: '0'}, {gpu: '0'}]").find("listed twice"), std::string::npos);
  EXPECT_NE(error_of("gpus: [{gpu: '0', mode: exclusive, clients: 2}]").find("must be 1 in mode exclusive"), std::string::npos);
  EXPECT_NE(error_of("gpus: [{gpu: '0', mode: time-slicing, limits: {sm_percent: 50}}]").find("need mode mps"), std::string::npos);
  EXPECT_NE(error_of("metrics_address: nope\ngpus: [{gpu: '0'}]").find("metrics_address"), std::string::npos);
  EXPECT_NE(error_of("mps_root: relative\ngpus: [{gpu: '0'}]").find("absolute"), std::string::npos);
  EXPECT_NE(error_of("gpus: [{gpu: '0', clients: many}]").find("wrong type"), std::string::npos);
}

// Issue 38 item 4: `check_interval_seconds: .nan` passed the range check (NaN compares false) and the agent
// then spun in its loop deaf to SIGTERM; every spelling of NaN and the infinities is refused.
TEST(NodeConfig, RefusesNanAndInfinities) {
  for (const std::string v : {".nan", ".NaN", "nan", ".inf", "-.inf", "+.inf", "inf", "1e999", "-1e999"}) {
    EXPECT_NE(error_of("check_interval_seconds: " + v + "\ngpus: [{gpu: '0'}]")
                  .find("node.yaml: check_interval_seconds: must be a finite number"),
              std::string::npos)
        << v << ": " << error_of("check_interval_seconds: " + v + "\ngpus: [{gpu: '0'}]");
  }
  EXPECT_NE(error_of("check_interval_seconds: [1]\ngpus: [{gpu: '0'}]").find("must be a finite number"), std::string::npos);
  EXPECT_EQ(parse_node_config("check_interval_seconds: 1.5e0\ngpus: [{gpu: '0'}]", "n").check_interval_seconds, 1.5);
  // The integer and size fields refuse them too (as a wrong type, or as no size).
  EXPECT_NE(error_of("gpus: [{gpu: '0', mode: mps, clients: .nan}]").find("gpus[0].clients: has the wrong type"), std::string::npos);
  EXPECT_NE(error_of("gpus: [{gpu: '0', mode: mps, limits: {sm_percent: .inf}}]").find("gpus[0].limits.sm_percent"), std::string::npos);
  EXPECT_NE(error_of("gpus: [{gpu: '0', mode: mps, limits: {memory: .infGiB}}]").find("gpus[0].limits.memory"), std::string::npos);
  EXPECT_NE(error_of("uid: .nan\ngpus: [{gpu: '0'}]").find("uid: has the wrong type"), std::string::npos);
}

TEST(NodeConfig, ChecksReferencesAndLimitsAgainstTheMachine) {
  EXPECT_NE(check("gpus: [{gpu: GPU-nope}]").find("GPU 'GPU-nope' is not on this machine (GPUs here: 0 (GPU-1111"), std::string::npos);
  EXPECT_NE(check("gpus: [{gpu: '2'}]").find("is not on this machine"), std::string::npos);
  EXPECT_NE(check("gpus: [{gpu: '0', mode: mps, clients: 49}]").find("clients 49 exceeds the MPS client limit of H100-SXM5-80GB (48)"), std::string::npos);
  EXPECT_NE(check("gpus: [{gpu: '0', mode: mps, limits: {memory: 100GiB}}]").find("exceeds the GPU's memory"), std::string::npos);
  EXPECT_NE(check("gpus: [{gpu: '0', mig: [{instance: '1g.10gb@0'}]}]").find("MIG is not enabled"), std::string::npos);
  EXPECT_NE(check("gpus: [{gpu: '1', mig: [{instance: '1g.10gb@0'}]}]").find("MIG instance '1g.10gb@0' is not on GPU '1'"), std::string::npos);
  EXPECT_EQ(check("gpus: [{gpu: '1', mig: [{instance: '2g.20gb@4', mode: mps, clients: 2}]}]"), "");
}

// Issue 38 item 13: every admitted client is promised limits.memory, so clients x limits.memory must fit
// the GPU or MIG instance, with or without a device_plugin section.
TEST(NodeConfig, RefusesClientsTimesMemoryAboveTheGpuOrInstance) {
  EXPECT_EQ(check("gpus: [{gpu: '0', mode: mps, clients: 12, limits: {memory: 8GiB}}]"),
            "node config: GPU '0': clients 12 x limits.memory 8GiB = 96GiB exceeds the GPU's memory (79.65GiB); "
            "lower clients or limits.memory");
  EXPECT_EQ(check("gpus: [{gpu: '0', mode: mps, clients: 9, limits: {memory: 8GiB}}]"), "");
  // A 2g.20gb instance (19.5 GiB in the fake machine): 3 x 8 GiB does not fit, 2 x 8 GiB does.
  EXPECT_NE(check("gpus: [{gpu: '1', mig: [{instance: '2g.20gb@4', mode: mps, clients: 3, limits: {memory: 8GiB}}]}]")
                .find("MIG instance '2g.20gb@4': clients 3 x limits.memory 8GiB = 24GiB exceeds the instance's memory"),
            std::string::npos);
  EXPECT_EQ(check("gpus: [{gpu: '1', mig: [{instance: '2g.20gb@4', mode: mps, clients: 2, limits: {memory: 8GiB}}]}]"), "");
  // A device_plugin section does not change it.
  EXPECT_NE(check("gpus: [{gpu: '0', mode: mps, clients: 12, limits: {memory: 8GiB}}]\ndevice_plugin: {features_file: ''}")
                .find("exceeds the GPU's memory"),
            std::string::npos);
}

}  // namespace
}  // namespace gpupack
