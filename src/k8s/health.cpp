#include "k8s/health.hpp"

namespace gpupack::k8s {

HealthTracker::HealthTracker(std::set<std::string> gpu_uuids, std::set<std::string> mig_uuids)
    : gpus_(std::move(gpu_uuids)), migs_(std::move(mig_uuids)) {}

bool HealthTracker::is_application_xid(std::uint64_t xid) {
  switch (xid) {
    case 13: case 31: case 43: case 45: case 68: case 109: return true;
    default: return false;
  }
}

void HealthTracker::carry_over(const std::map<std::string, std::string>& xid_verdicts) {
  for (const auto& [uuid, reason] : xid_verdicts) {
    if (gpus_.count(uuid) || migs_.count(uuid)) xid_[uuid] = reason;
  }
}

std::map<std::string, std::string> HealthTracker::update(const std::vector<GpuDeviceInfo>& devices,
                                                         const std::vector<XidEvent>& xids) {
  for (const auto& x : xids) {
    if (is_application_xid(x.xid)) continue;
    if (gpus_.count(x.uuid) || migs_.count(x.uuid)) xid_[x.uuid] = "XID " + std::to_string(x.xid);
  }
  std::map<std::string, std::string> out = xid_;
  std::set<std::string> present;
  for (const auto& d : devices) {
    present.insert(d.uuid);
    for (const auto& m : d.mig_instances) present.insert(m.uuid);
  }
  for (const auto& set : {gpus_, migs_}) {
    for (const auto& uuid : set) {
      if (!present.count(uuid) && !out.count(uuid)) out[uuid] = "lost";
    }
  }
  return out;
}

}  // namespace gpupack::k8s
