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

TEST(NodeConfig, ChecksReferencesAndLimitsAgainstTheMachine) {
  auto check = [](const std::string& yaml) -> std::string {
    try {
      check_against_devices(parse_node_config(yaml, "node.yaml"), two_gpus(), kCatalog);
    } catch (const InputError& e) {
      return e.what();
    }
    return "";
  };
  EXPECT_NE(check("gpus: [{gpu: GPU-nope}]").find("GPU 'GPU-nope' is not on this machine (GPUs here: 0 (GPU-1111"), std::string::npos);
  EXPECT_NE(check("gpus: [{gpu: '2'}]").find("is not on this machine"), std::string::npos);
  EXPECT_NE(check("gpus: [{gpu: '0', mode: mps, clients: 49}]").find("clients 49 exceeds the MPS client limit of H100-SXM5-80GB (48)"), std::string::npos);
  EXPECT_NE(check("gpus: [{gpu: '0', mode: mps, limits: {memory: 100GiB}}]").find("exceeds the GPU's memory"), std::string::npos);
  EXPECT_NE(check("gpus: [{gpu: '0', mig: [{instance: '1g.10gb@0'}]}]").find("MIG is not enabled"), std::string::npos);
  EXPECT_NE(check("gpus: [{gpu: '1', mig: [{instance: '1g.10gb@0'}]}]").find("MIG instance '1g.10gb@0' is not on GPU '1'"), std::string::npos);
  EXPECT_EQ(check("gpus: [{gpu: '1', mig: [{instance: '2g.20gb@4', mode: mps, clients: 2}]}]"), "");
}

}  // namespace
}  // namespace gpupack
