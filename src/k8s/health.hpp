#pragma once
// Which GPUs and MIG instances are unhealthy, from the GPU layer's snapshots and XID events: a device
// that vanished from the snapshot is lost (healthy again when it comes back); a critical XID marks it
// unhealthy until the agent restarts, as NVIDIA's plugin does, because the GPU usually needs a reset.
// XIDs caused by applications (13, 31, 43, 45, 68, 109) are ignored: they say nothing about the GPU.
#include <map>
#include <set>
#include <string>
#include <vector>

#include "gpu/gpu_backend.hpp"

namespace gpupack::k8s {

class HealthTracker {
 public:
  // `gpu_uuids` and `mig_uuids`: what the plugins advertise.
  HealthTracker(std::set<std::string> gpu_uuids, std::set<std::string> mig_uuids);

  // Returns the unhealthy UUIDs (GPU or MIG) with a reason ("lost", "XID 79").
  std::map<std::string, std::string> update(const std::vector<GpuDeviceInfo>& devices, const std::vector<XidEvent>& xids);

  static bool is_application_xid(std::uint64_t xid);

  // The sticky XID verdicts, to carry over when the plugins are rebuilt (a reload): a GPU that had an
  // XID stays unhealthy.
  const std::map<std::string, std::string>& xid_verdicts() const { return xid_; }
  void carry_over(const std::map<std::string, std::string>& xid_verdicts);

 private:
  std::set<std::string> gpus_, migs_;
  std::map<std::string, std::string> xid_;  // sticky
};

}  // namespace gpupack::k8s
