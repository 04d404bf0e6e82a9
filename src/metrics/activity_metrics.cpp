// GPM activity per GPU and MIG instance, and what each slice (sharing target) is allotted vs uses.
#include <algorithm>
#include <set>

#include "metrics/node_families.hpp"

namespace gpupack {

namespace {

struct GpmFamily {
  const char* suffix;
  const char* help;
  std::optional<double> GpmActivity::*field;
};

// One table for GPUs and MIG instances, so both carry the same series with the same meaning.
constexpr GpmFamily kGpmFamilies[] = {
    {"sm_active_ratio", "NVML GPM SM activity over the last interval: share of the SMs busy (0-1).", &GpmActivity::sm_active},
    {"sm_occupancy_ratio", "NVML GPM SM occupancy over the last interval: resident warps / theoretical maximum (0-1).",
     &GpmActivity::sm_occupancy},
    {"tensor_active_ratio", "NVML GPM tensor activity over the last interval: share of time tensor cores ran (0-1).",
     &GpmActivity::tensor_active},
    {"dram_bandwidth_ratio", "NVML GPM DRAM bandwidth over the last interval / peak bandwidth (0-1).", &GpmActivity::dram_bw},
};

const std::optional<double>* sm_of(const std::optional<GpmActivity>& gpm) { return gpm ? &gpm->sm_active : nullptr; }

}  // namespace

namespace metrics_detail {

void gpm_families(Exposition& e, const NodeSnapshot& s, const std::vector<GpuLabels>& ids) {
  for (const GpmFamily& f : kGpmFamilies) {
    e.family(std::string("gpupack_gpu_") + f.suffix, "gauge", f.help);
    for (std::size_t i = 0; i < s.devices.size(); ++i) {
      const auto& gpm = s.devices[i].gpm;
      if (gpm && (*gpm).*f.field) e.sample({{"gpu", ids[i].index}, {"uuid", ids[i].uuid}}, *((*gpm).*f.field));
    }
  }
  for (const GpmFamily& f : kGpmFamilies) {
    e.family(std::string("gpupack_mig_instance_") + f.suffix, "gauge", f.help);
    for (std::size_t i = 0; i < s.devices.size(); ++i) {
      for (const auto& m : s.devices[i].mig_instances) {
        if (m.gpm && (*m.gpm).*f.field) {
          e.sample({{"gpu", ids[i].index}, {"uuid", ids[i].uuid}, {"mig_uuid", m.uuid}}, *((*m.gpm).*f.field));
        }
      }
    }
  }
  e.family("gpupack_gpm_interval_seconds", "gauge", "Interval the GPM series of a GPU or MIG instance cover (between two samples).");
  for (std::size_t i = 0; i < s.devices.size(); ++i) {
    if (s.devices[i].gpm) e.sample({{"gpu", ids[i].index}, {"uuid", ids[i].uuid}, {"target", ids[i].uuid}}, s.devices[i].gpm->interval_seconds);
    for (const auto& m : s.devices[i].mig_instances) {
      if (m.gpm) e.sample({{"gpu", ids[i].index}, {"uuid", ids[i].uuid}, {"target", m.uuid}}, m.gpm->interval_seconds);
    }
  }
}

void slice_families(Exposition& e, const NodeSnapshot& s) {
  const std::vector<SliceUsage> slices = slice_usage(s);
  auto per_slice = [&](const char* name, const char* help, auto value) {
    e.family(name, "gauge", help);
    for (const auto& u : slices) {
      if (const std::optional<double> v = value(u)) e.sample({{"uuid", u.sharing->gpu_uuid}, {"target", u.sharing->target_uuid}}, *v);
    }
  };
  per_slice("gpupack_slice_clients", "Client processes running on a slice (GPU or MIG instance with a sharing setting).",
            [](const SliceUsage& u) { return std::optional<double>(static_cast<double>(u.clients)); });
  per_slice("gpupack_slice_sm_allotted_ratio", "Share of the slice's SMs allotted to its running clients: min(1, sum of their SM caps; uncapped = 1).",
            [](const SliceUsage& u) { return std::optional<double>(u.sm_allotted); });
  per_slice("gpupack_slice_sm_active_ratio", "GPM SM activity of the slice over the last interval (0-1).",
            [](const SliceUsage& u) { return u.sm_active; });
  per_slice("gpupack_slice_sm_active_predicted_ratio",
            "SM activity the plan predicted for the slice from its clients' profiles (node.yaml predicted_sm_active; 0-1).",
            [](const SliceUsage& u) { return u.sharing->predicted_sm_active; });
  per_slice("gpupack_slice_sm_allotted_unused_ratio", "Waste: share of the slice's SMs allotted but not busy over the last interval, max(0, allotted - active).",
            [](const SliceUsage& u) { return u.sm_allotted_unused; });
  per_slice("gpupack_slice_memory_allotted_bytes", "Memory allotted to the slice's running clients (their pinned limits or the configured default).",
            [](const SliceUsage& u) { return std::optional<double>(u.memory_allotted_bytes); });
  per_slice("gpupack_slice_memory_allotted_unused_ratio", "Waste: memory allotted to the slice's clients but not used by them, as a share of the slice's memory.",
            [](const SliceUsage& u) { return u.memory_allotted_unused_ratio; });
}

}  // namespace metrics_detail

std::vector<SliceUsage> slice_usage(const NodeSnapshot& s) {
  std::vector<SliceUsage> out;
  for (const auto& sh : s.sharing) {
    const GpuDeviceInfo* dev = find_device(s.devices, sh.gpu_uuid);
    if (!dev) continue;
    const MigInstanceInfo* mig = nullptr;
    if (sh.target_uuid != sh.gpu_uuid) {
      for (const auto& m : dev->mig_instances) {
        if (m.uuid == sh.target_uuid) mig = &m;
      }
      if (!mig) continue;
    }
    std::set<unsigned> servers;  // MPS servers hold the clients' contexts; they are not clients
    for (const auto& m : s.mps) {
      if (m.target_uuid != sh.target_uuid) continue;
      for (const auto& srv : m.status.servers) servers.insert(static_cast<unsigned>(srv.pid));
    }
    std::vector<const GpuProcessInfo*> clients;
    bool any_mps_client = false;
    for (const auto& p : dev->processes) {
      if (servers.count(p.pid) || (mig && p.gpu_instance_id != mig->gpu_instance_id)) continue;
      clients.push_back(&p);
      any_mps_client = any_mps_client || p.mps_client;
    }
    if (any_mps_client) {
      clients.erase(std::remove_if(clients.begin(), clients.end(), [](const GpuProcessInfo* p) { return !p->mps_client; }),
                    clients.end());
    }
    SliceUsage u;
    u.sharing = &sh;
    u.clients = clients.size();
    double sm = 0;
    for (const GpuProcessInfo* p : clients) {
      const auto it = s.processes.find(p->pid);
      const ProcessSnapshot* details = it == s.processes.end() ? nullptr : &it->second;
      sm += details && details->allocated_sm_ratio ? *details->allocated_sm_ratio : 1.0;
      if (details && details->allocated_bytes) {
        const double allotted = static_cast<double>(*details->allocated_bytes);
        u.memory_allotted_bytes += allotted;
        u.memory_allotted_unused_bytes += std::max(0.0, allotted - static_cast<double>(p->used_memory_bytes.value_or(0)));
      }
    }
    u.sm_allotted = std::min(1.0, sm);
    if (const auto* active = sm_of(mig ? mig->gpm : dev->gpm); active && *active) {
      u.sm_active = **active;
      u.sm_allotted_unused = std::max(0.0, u.sm_allotted - **active);
    }
    const auto total = mig ? mig->memory_total_bytes : dev->memory_total_bytes;
    if (total && *total > 0) u.memory_allotted_unused_ratio = std::min(1.0, u.memory_allotted_unused_bytes / static_cast<double>(*total));
    out.push_back(u);
  }
  return out;
}

}  // namespace gpupack
