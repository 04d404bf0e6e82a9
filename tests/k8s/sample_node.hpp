#pragma once
// A node with every kind of resource the plugin advertises: a whole GPU, a time-sliced GPU, a GPU with
// unequal MPS slices, and a MIG GPU whose instances are exclusive, time-sliced and under MPS.
#include <vector>

#include "gpu/gpu_backend.hpp"
#include "k8s/device_plan.hpp"

namespace gpupack::testing {

inline constexpr std::uint64_t kGiB = 1ull << 30;
inline const std::string kGpu0 = "GPU-00000000-0000-0000-0000-000000000000";
inline const std::string kGpu1 = "GPU-11111111-1111-1111-1111-111111111111";
inline const std::string kGpu2 = "GPU-22222222-2222-2222-2222-222222222222";
inline const std::string kGpu3 = "GPU-33333333-3333-3333-3333-333333333333";
inline const std::string kMigA = "MIG-aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa";
inline const std::string kMigB = "MIG-bbbbbbbb-bbbb-bbbb-bbbb-bbbbbbbbbbbb";
inline const std::string kMigC = "MIG-cccccccc-cccc-cccc-cccc-cccccccccccc";

inline std::vector<k8s::ShareTarget> sample_targets() {
  using gpupack::Sharing;
  auto gpu = [](const std::string& uuid, unsigned index, Sharing s, int clients) {
    k8s::ShareTarget t;
    t.gpu_uuid = uuid;
    t.gpu_index = index;
    t.product = "NVIDIA H100 80GB HBM3";
    t.memory_total_bytes = 80 * kGiB;
    t.sharing = s;
    t.clients = clients;
    t.mps_pipe_dir = "/run/gpupack/mps/" + uuid + "/pipe";
    return t;
  };
  auto mig = [&](const std::string& uuid, const std::string& profile, std::uint64_t mem, Sharing s, int clients) {
    k8s::ShareTarget t = gpu(kGpu3, 3, s, clients);
    t.product = "NVIDIA A100-SXM4-80GB";
    t.mig_uuid = uuid;
    t.mig_profile = profile;
    t.memory_total_bytes = mem;
    t.mps_pipe_dir = "/run/gpupack/mps/" + uuid + "/pipe";
    return t;
  };
  std::vector<k8s::ShareTarget> out;
  out.push_back(gpu(kGpu0, 0, Sharing::exclusive, 1));
  out.push_back(gpu(kGpu1, 1, Sharing::time_slicing, 3));
  auto mps = gpu(kGpu2, 2, Sharing::mps, 4);
  mps.mps_slices = {{50, 40 * kGiB, 1, std::nullopt}, {25, std::nullopt, 2, std::nullopt}};
  out.push_back(mps);
  out.push_back(mig(kMigA, "3g.40gb", 40 * kGiB, Sharing::exclusive, 1));
  out.push_back(mig(kMigB, "2g.20gb", 20 * kGiB, Sharing::time_slicing, 2));
  auto mig_mps = mig(kMigC, "1g.10gb", 10 * kGiB, Sharing::mps, 2);
  mig_mps.sm_percent = 50;
  mig_mps.memory_bytes = 5 * kGiB;
  out.push_back(mig_mps);
  return out;
}

// What the GPU layer would report for that node.
inline std::vector<GpuDeviceInfo> sample_devices() {
  std::vector<GpuDeviceInfo> d(4);
  const std::string uuids[] = {kGpu0, kGpu1, kGpu2, kGpu3};
  for (unsigned i = 0; i < 4; ++i) {
    d[i].index = i;
    d[i].uuid = uuids[i];
    d[i].name = i == 3 ? "NVIDIA A100-SXM4-80GB" : "NVIDIA H100 80GB HBM3";
  }
  for (const auto& m : {kMigA, kMigB, kMigC}) {
    MigInstanceInfo inst;
    inst.uuid = m;
    d[3].mig_instances.push_back(inst);
  }
  return d;
}

}  // namespace gpupack::testing
