#include "agent/admission.hpp"

#include <gtest/gtest.h>

#include "gpu/fake_gpu_backend.hpp"
#include "os/filesystem.hpp"

namespace gpupack {
namespace {

std::vector<GpuDeviceInfo> two_gpus() { return FakeGpuBackend::from_file(PosixFilesystem{}, FAKE_MACHINES "/two-gpus.json")->devices(); }

const auto always_up = [](const std::string&) { return true; };
const auto none_held = [](const ResolvedTarget&) { return 0; };

NodeConfig config(const std::string& yaml) { return parse_node_config(yaml, "node.yaml"); }

TEST(Admission, SetsTheMpsEnvironmentOfTheChosenTarget) {
  const auto c = config("mps_root: /r\ngpus: [{gpu: '0', mode: mps, clients: 4, limits: {sm_percent: 50, memory: 8GiB}}]");
  RunRequest req;
  req.sm_percent = 25;
  const Admission a = admit(c, two_gpus(), req, always_up, none_held);
  ASSERT_TRUE(a.admitted) << a.reason;
  EXPECT_EQ(a.target_uuid, "GPU-11111111-2222-3333-4444-555555555555");
  EXPECT_EQ(a.env.at("CUDA_MPS_PIPE_DIRECTORY"), "/r/GPU-11111111-2222-3333-4444-555555555555/pipe");
  EXPECT_EQ(a.env.at("CUDA_MPS_ACTIVE_THREAD_PERCENTAGE"), "25");
  EXPECT_EQ(a.env.at("CUDA_MPS_PINNED_DEVICE_MEM_LIMIT"), "0=8192M");
  EXPECT_FALSE(a.env.count("CUDA_VISIBLE_DEVICES"));
}

TEST(Admission, RefusesWithAReasonPerTarget) {
  // Both admission slots of GPU 0 are held (the book, not NVML's process list).
  const auto full = config("gpus: [{gpu: '0', mode: mps, clients: 2}]");
  Admission a = admit(full, two_gpus(), {}, always_up, [](const ResolvedTarget&) { return 2; });
  EXPECT_FALSE(a.admitted);
  EXPECT_NE(a.reason.find("full (2 of 2 clients)"), std::string::npos) << a.reason;

  const auto tenant = config("gpus: [{gpu: '0', mode: mps, clients: 8, tenant: search}]");
  RunRequest other;
  other.tenant = "ads";
  a = admit(tenant, two_gpus(), other, always_up, none_held);
  EXPECT_NE(a.reason.find("reserved for tenant 'search', not 'ads'"), std::string::npos) << a.reason;
  other.tenant = "search";
  EXPECT_TRUE(admit(tenant, two_gpus(), other, always_up, none_held).admitted);

  const auto mps = config("gpus: [{gpu: '0', mode: mps, clients: 8}]");
  RunRequest big;
  big.memory_bytes = 100ull << 30;
  a = admit(mps, two_gpus(), big, always_up, none_held);
  EXPECT_NE(a.reason.find("needs 100GiB but"), std::string::npos) << a.reason;
  a = admit(mps, two_gpus(), {}, [](const std::string&) { return false; }, none_held);
  EXPECT_NE(a.reason.find("MPS daemon is not running"), std::string::npos) << a.reason;

  const auto ts = config("gpus: [{gpu: '0', mode: time-slicing, clients: 3}]");
  RunRequest sm;
  sm.sm_percent = 50;
  a = admit(ts, two_gpus(), sm, always_up, none_held);
  EXPECT_NE(a.reason.find("--sm needs MPS"), std::string::npos) << a.reason;
  sm.sm_percent = 0;
  EXPECT_NE(admit(ts, two_gpus(), sm, always_up, none_held).reason.find("out of range"), std::string::npos);

  RunRequest unknown;
  unknown.gpu = "GPU-nope";
  EXPECT_NE(admit(ts, two_gpus(), unknown, always_up, none_held).reason.find("not a GPU or MIG instance"), std::string::npos);
}

// Issue 38 item 3: `--mem 70GiB` was admitted where node.yaml sets limits.memory: 8GiB (only free memory
// was checked), while --sm above its limit was refused.
TEST(Admission, RefusesMemoryAboveTheConfiguredPerClientLimit) {
  const auto c = config("mps_root: /r\ngpus: [{gpu: '0', mode: mps, clients: 4, limits: {sm_percent: 50, memory: 8GiB}}]");
  RunRequest big;
  big.gpu = "0";
  big.memory_bytes = 70ull << 30;
  const Admission a = admit(c, two_gpus(), big, always_up, none_held);
  EXPECT_FALSE(a.admitted);
  EXPECT_NE(a.reason.find("--mem 70GiB exceeds the configured limit 8GiB"), std::string::npos) << a.reason;
  RunRequest at_limit = big;
  at_limit.memory_bytes = 8ull << 30;
  const Admission ok = admit(c, two_gpus(), at_limit, always_up, none_held);
  ASSERT_TRUE(ok.admitted) << ok.reason;
  EXPECT_EQ(ok.env.at("CUDA_MPS_PINNED_DEVICE_MEM_LIMIT"), "0=8192M");
  RunRequest smaller = big;
  smaller.memory_bytes = 2ull << 30;
  EXPECT_EQ(admit(c, two_gpus(), smaller, always_up, none_held).env.at("CUDA_MPS_PINNED_DEVICE_MEM_LIMIT"), "0=2048M");
  // Without a configured limit only the free memory bounds it.
  const auto unlimited = config("mps_root: /r\ngpus: [{gpu: '0', mode: mps, clients: 4}]");
  RunRequest some = big;
  some.memory_bytes = 8ull << 30;
  EXPECT_TRUE(admit(unlimited, two_gpus(), some, always_up, none_held).admitted);
}

TEST(Admission, PicksTheTargetWithTheMostHeadroom) {
  // GPU 0: 2 of 4 MPS clients used; MIG 2g.20gb on GPU 1: 0 of 3 used -> the MIG instance.
  const auto c = config(
      "gpus:\n"
      "  - {gpu: '0', mode: mps, clients: 4}\n"
      "  - {gpu: '1', mig: [{instance: '2g.20gb@4', mode: time-slicing, clients: 3}]}\n");
  const Admission a = admit(c, two_gpus(), {}, always_up, [](const ResolvedTarget& t) { return t.mig ? 0 : 2; });
  ASSERT_TRUE(a.admitted) << a.reason;
  EXPECT_EQ(a.target_uuid, "MIG-00000000-0000-0000-0000-000000000002");
  EXPECT_EQ(a.env.at("CUDA_VISIBLE_DEVICES"), "MIG-00000000-0000-0000-0000-000000000002");
  RunRequest pinned;
  pinned.gpu = "0";
  EXPECT_EQ(admit(c, two_gpus(), pinned, always_up, none_held).target_uuid, "GPU-11111111-2222-3333-4444-555555555555");
}

}  // namespace
}  // namespace gpupack
