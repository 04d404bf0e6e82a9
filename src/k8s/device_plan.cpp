#include "k8s/device_plan.hpp"

#include <algorithm>
#include <map>

#include "core/errors.hpp"
#include "core/units.hpp"
#include "contract/resource_names.hpp"

namespace gpupack::k8s {

namespace {

constexpr std::size_t kMaxDeviceId = 63;  // kubelet's limit

struct Builder {
  std::map<std::string, PluginResource> resources;

  void add(const std::string& name, const ShareTarget& t, PluginDevice d) {
    if (d.id.size() > kMaxDeviceId) {
      throw InputError("device plugin: device ID '" + d.id + "' of " + t.uuid() + " is longer than kubelet's " +
                       std::to_string(kMaxDeviceId) + " characters");
    }
    auto& r = resources[name];
    r.name = name;
    r.devices.push_back(std::move(d));
  }
};

PluginDevice base_device(const ShareTarget& t, std::string id) {
  PluginDevice d;
  d.id = std::move(id);
  d.gpu_uuid = t.gpu_uuid;
  d.gpu_index = t.gpu_index;
  d.target_uuid = t.uuid();
  d.mig = t.mig_uuid.has_value();
  d.mig_ids = t.mig_ids;
  d.sharing = t.sharing;
  d.numa_node = t.numa_node;
  return d;
}

void add_mps(Builder& b, const ShareTarget& t) {
  std::vector<MpsSliceSize> slices = t.mps_slices;
  if (slices.empty()) slices.push_back({t.sm_percent.value_or(100), t.memory_bytes, t.clients, std::nullopt});
  int total = 0;
  for (const auto& s : slices) total += s.count;
  if (total > t.clients) {
    throw InputError("device plugin: " + t.uuid() + " has " + std::to_string(total) + " MPS slices but admits " +
                     std::to_string(t.clients) + " clients (raise clients or remove slices)");
  }
  // A slice without a memory size (its own or the target's per-client default) gets an equal share of
  // what the sized slices leave, so that slices cannot starve each other (an MPS client without a
  // pinned limit may take the whole GPU) and the pinned limits never add up to more than the GPU.
  std::uint64_t sized = 0;
  int unsized = 0;
  for (const auto& s : slices) {
    if (const auto m = s.memory_bytes ? s.memory_bytes : t.memory_bytes) {
      sized += *m * static_cast<std::uint64_t>(s.count);
    } else {
      unsized += s.count;
    }
  }
  std::uint64_t share = 0;
  if (t.memory_total_bytes) {
    const std::uint64_t gpu = *t.memory_total_bytes;
    if (sized > gpu || (sized == gpu && unsized > 0)) {
      const std::string rest = unsized ? ", leaving nothing for its " + std::to_string(unsized) + " slices without a size" : "";
      throw InputError("device plugin: the MPS slices of " + t.uuid() + " pin " + format_size(sized) + " of its " +
                       format_size(gpu) + rest + "; make the memory sizes in device_plugin.mps_slices (or limits.memory) add up to less");
    }
    if (unsized > 0) share = (gpu - sized) / static_cast<std::uint64_t>(unsized);
  }
  int n = 0;
  for (const auto& s : slices) {
    for (int i = 0; i < s.count; ++i, ++n) {
      PluginDevice d = base_device(t, t.uuid() + "::" + std::to_string(n));
      d.sm_percent = s.sm_percent;
      d.memory_bytes = s.memory_bytes.value_or(t.memory_bytes.value_or(share));
      d.pipe_dir = t.mps_pipe_dir;
      b.add(s.resource ? *s.resource : mps_resource_name(t.mig_profile, s.sm_percent), t, std::move(d));
    }
  }
}

// kubelet gives a container any free device of the resource it asks for, so every MPS device of one
// resource must carry the same limits: otherwise a pod planned for 2 GiB may get a 1 GiB slice.
void check_interchangeable(const PluginResource& r) {
  const PluginDevice* first = nullptr;
  for (const auto& d : r.devices) {
    if (d.sharing != Sharing::mps) continue;
    if (!first) {
      first = &d;
    } else if (d.sm_percent != first->sm_percent || d.memory_bytes != first->memory_bytes) {
      throw InputError("device plugin: resource " + r.name + " would hand out unequal MPS slices (" + first->id + ": " +
                       std::to_string(first->sm_percent) + "% and " + format_size(first->memory_bytes) + ", " + d.id +
                       ": " + std::to_string(d.sm_percent) + "% and " + format_size(d.memory_bytes) +
                       "); give the slices equal memory or their own `resource` name in device_plugin.mps_slices");
    }
  }
}

}  // namespace

std::string socket_name(const std::string& resource) {
  std::string s = resource;
  std::replace(s.begin(), s.end(), '/', '-');
  return "gpupack-" + s + ".sock";
}

std::vector<PluginResource> plan_resources(const std::vector<ShareTarget>& targets, bool gpupack_only) {
  Builder b;
  for (const auto& t : targets) {
    const std::string whole = whole_resource_name(t.mig_profile);
    switch (t.sharing) {
      case Sharing::streams:  // not a node sharing (node.yaml refuses it); served as exclusive
      case Sharing::exclusive:
        if (!gpupack_only) b.add(whole, t, base_device(t, t.uuid()));
        break;
      case Sharing::time_slicing:
        for (int n = 0; n < t.clients && !gpupack_only; ++n) b.add(whole, t, base_device(t, t.uuid() + "::" + std::to_string(n)));
        break;
      case Sharing::mps:
        add_mps(b, t);
        break;
    }
  }
  std::vector<PluginResource> out;
  for (auto& [name, r] : b.resources) {
    check_interchangeable(r);
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace gpupack::k8s
