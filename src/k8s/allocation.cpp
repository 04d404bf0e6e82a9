#include "k8s/allocation.hpp"

#include <algorithm>
#include <set>
#include <unordered_map>

#include "contract/cdi_spec.hpp"
#include "contract/client_limits.hpp"

namespace gpupack::k8s {

namespace {

using Kind = AllocationError::Kind;

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& i : items) out += (out.empty() ? "" : ", ") + i;
  return out;
}

ContainerAllocation answer(const std::vector<const PluginDevice*>& devices, bool cdi) {
  ContainerAllocation a;
  std::vector<std::string> visible;
  for (const auto* d : devices) {
    if (std::find(visible.begin(), visible.end(), d->target_uuid) == visible.end()) visible.push_back(d->target_uuid);
    if (cdi) a.cdi_devices.push_back(std::string(kGpupackCdiKind) + "=" + cdi_device_name(d->id));
  }
  std::string list;
  for (const auto& v : visible) list += (list.empty() ? "" : ",") + v;
  a.envs["NVIDIA_VISIBLE_DEVICES"] = list;
  // The process carries its allocation: the agent joins a GPU process (its environment in /proc) with
  // PodResources through it, naming the pod even for MPS clients, which NVML reports under the server.
  std::string ids;
  for (const auto* d : devices) ids += (ids.empty() ? "" : ",") + d->id;
  a.envs[kDeviceIdsEnv] = ids;
  if (devices.front()->sharing == Sharing::mps) {
    // Several slices of one GPU in one container add up: two mps-25 slices make one client of 50%.
    int pct = 0;
    std::uint64_t memory = 0;
    for (const auto* d : devices) {
      pct += d->sm_percent;
      memory += d->memory_bytes;
    }
    const std::string& pipe = devices.front()->pipe_dir;
    a.envs["CUDA_MPS_PIPE_DIRECTORY"] = pipe;
    a.envs["CUDA_MPS_ACTIVE_THREAD_PERCENTAGE"] = std::to_string(std::min(pct, 100));
    if (memory > 0) a.envs["CUDA_MPS_PINNED_DEVICE_MEM_LIMIT"] = pinned_limit_env(memory);
    a.mounts.push_back({pipe, pipe, false});
    // MPS clients and server exchange memory handles through POSIX shared memory.
    a.mounts.push_back({"/dev/shm", "/dev/shm", false});
  }
  return a;
}

}  // namespace

std::string cdi_device_name(const std::string& device_id) {
  std::string out;
  for (std::size_t i = 0; i < device_id.size(); ++i) {
    const char c = device_id[i];
    if (device_id.compare(i, 2, "::") == 0) {
      out += '-';
      ++i;
    } else {
      const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-';
      out += ok ? c : '-';  // old-style MIG UUIDs carry '/'
    }
  }
  return out;
}

std::vector<ContainerAllocation> allocate(const PluginResource& resource,
                                          const std::function<bool(const std::string& id)>& healthy,
                                          const std::vector<std::vector<std::string>>& requests, bool cdi) {
  const std::string& rn = resource.name;
  if (requests.empty()) throw AllocationError(Kind::invalid, "Allocate for " + rn + " names no containers");
  std::unordered_map<std::string, const PluginDevice*> by_id;
  for (const auto& d : resource.devices) by_id[d.id] = &d;
  std::set<std::string> seen;
  std::vector<std::string> unknown, duplicate, sick;
  std::size_t total = 0;
  for (std::size_t c = 0; c < requests.size(); ++c) {
    if (requests[c].empty()) {
      throw AllocationError(Kind::invalid, "Allocate for " + rn + ": container " + std::to_string(c) + " requests no device IDs");
    }
    for (const auto& id : requests[c]) {
      ++total;
      if (!by_id.count(id)) {
        unknown.push_back("'" + id + "'");
      } else if (!seen.insert(id).second) {
        duplicate.push_back("'" + id + "'");
      } else if (!healthy(id)) {
        sick.push_back("'" + id + "'");
      }
    }
  }
  // Checked first: a request beyond capacity is the clearest thing to say about it.
  if (total > resource.devices.size()) {
    throw AllocationError(Kind::exhausted, std::to_string(total) + " devices of " + rn + " requested, the node has " +
                                               std::to_string(resource.devices.size()));
  }
  if (!unknown.empty()) throw AllocationError(Kind::invalid, "unknown device IDs for " + rn + ": " + join(unknown));
  if (!duplicate.empty()) throw AllocationError(Kind::invalid, "device IDs requested twice for " + rn + ": " + join(duplicate));
  if (!sick.empty()) throw AllocationError(Kind::unhealthy, "unhealthy devices of " + rn + ": " + join(sick));
  std::vector<ContainerAllocation> out;
  for (const auto& ids : requests) {
    std::vector<const PluginDevice*> devices;
    for (const auto& id : ids) devices.push_back(by_id.at(id));
    if (devices.front()->sharing == Sharing::mps) {
      for (const auto* d : devices) {
        if (d->target_uuid != devices.front()->target_uuid) {
          throw AllocationError(Kind::invalid, "MPS slices of one container must be on one GPU or MIG instance: '" +
                                                   devices.front()->id + "' and '" + d->id + "' are not");
        }
      }
    }
    out.push_back(answer(devices, cdi));
  }
  return out;
}

std::vector<std::string> preferred_allocation(const PluginResource& resource, AllocationPolicy policy,
                                              const std::vector<std::string>& available,
                                              const std::vector<std::string>& must_include, int size) {
  std::unordered_map<std::string, const PluginDevice*> by_id;
  std::unordered_map<std::string, int> used;  // per target: devices not available (held by pods) + picked
  for (const auto& d : resource.devices) {
    by_id[d.id] = &d;
    ++used[d.target_uuid];
  }
  for (const auto& id : available) {
    if (auto it = by_id.find(id); it != by_id.end()) --used[it->second->target_uuid];
  }
  std::vector<std::string> picked;
  std::set<std::string> taken;
  for (const auto& id : must_include) {
    if (static_cast<int>(picked.size()) >= size) break;
    if (by_id.count(id) && taken.insert(id).second) {
      picked.push_back(id);
      ++used[by_id[id]->target_uuid];
    }
  }
  std::vector<std::string> candidates;
  for (const auto& id : available) {
    if (by_id.count(id) && !taken.count(id)) candidates.push_back(id);
  }
  std::sort(candidates.begin(), candidates.end());
  candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
  while (static_cast<int>(picked.size()) < size && !candidates.empty()) {
    auto best = candidates.begin();
    for (auto it = candidates.begin(); it != candidates.end(); ++it) {
      const int u = used[by_id[*it]->target_uuid], b = used[by_id[*best]->target_uuid];
      if (policy == AllocationPolicy::packed ? u > b : u < b) best = it;
    }
    picked.push_back(*best);
    ++used[by_id[*best]->target_uuid];
    candidates.erase(best);
  }
  return picked;
}

}  // namespace gpupack::k8s
