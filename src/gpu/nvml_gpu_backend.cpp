#include "gpu/nvml_gpu_backend.hpp"

#include <map>
#include <set>

#include "core/gpu_catalog.hpp"

namespace gpupack {

namespace {

using namespace nvml;

std::string text_value(Return (*fn)(Device, char*, unsigned), Device d, unsigned size) {
  std::string buf(size, '\0');
  if (!fn || fn(d, buf.data(), size) != kSuccess) return {};
  buf.resize(buf.find('\0') == std::string::npos ? buf.size() : buf.find('\0'));
  return buf;
}

std::optional<std::string> compute_mode_name(int mode) {
  switch (mode) {
    case 0: return "Default";
    case 1: return "Exclusive_Thread";
    case 2: return "Prohibited";
    case 3: return "Exclusive_Process";
    default: return std::nullopt;
  }
}

std::optional<std::uint64_t> memory_value(unsigned long long v) {
  if (v == kNotAvailableMemory) return std::nullopt;
  return v;
}

struct MemoryReading {
  std::optional<std::uint64_t> total, used;
};

// The versioned query first (its `used` leaves out the driver's reservation), then the original one.
MemoryReading read_memory(const Library& lib, Device d) {
  MemoryReading m;
  MemoryV2 v2{};
  v2.version = kMemoryV2Version;
  if (lib.device_get_memory_info_v2 && lib.device_get_memory_info_v2(d, &v2) == kSuccess) {
    m.total = memory_value(v2.total);
    m.used = memory_value(v2.used);
    return m;
  }
  Memory v1{};
  if (lib.device_get_memory_info && lib.device_get_memory_info(d, &v1) == kSuccess) {
    m.total = memory_value(v1.total);
    m.used = memory_value(v1.used);
  }
  return m;
}

// NVML's "ask for the size, then fill" protocol for the process lists, for either struct layout.
template <typename Info, typename Fn>
std::vector<Info> query_processes(Fn fn, Device d) {
  std::vector<Info> infos;
  if (!fn) return infos;
  unsigned count = 0;
  Return r = fn(d, &count, nullptr);
  for (int attempt = 0; attempt < 3 && r == kErrorInsufficientSize; ++attempt) {
    infos.resize(count + 8);  // processes may start between the two calls
    count = static_cast<unsigned>(infos.size());
    r = fn(d, &count, infos.data());
  }
  if (r != kSuccess) return {};
  infos.resize(count);
  return infos;
}

// The MIG profile name for an NVML GPU-instance profile id, from the catalog entry of this product.
std::string profile_name(const GpuCatalog& catalog, const std::string& product, unsigned profile_id) {
  const GpuModel* model = catalog.find(product);
  if (!model || !model->mig) return {};
  for (const auto& p : model->mig->profiles) {
    if (p.gi_profile_id && static_cast<unsigned>(*p.gi_profile_id) == profile_id) return p.name;
  }
  return {};
}

}  // namespace

NvmlGpuBackend::NvmlGpuBackend(const GpuCatalog& catalog)
    : NvmlGpuBackend(open_library(), std::make_shared<SystemClock>(), catalog) {}

NvmlGpuBackend::NvmlGpuBackend(Library lib, std::shared_ptr<const Clock> clock, const GpuCatalog& catalog)
    : lib_(lib), clock_(std::move(clock)), catalog_(catalog), gpm_(lib_, *clock_), process_utilization_(lib_) {
  // XID errors arrive as events; register every device that supports it (others are skipped).
  if (lib_.event_set_create && lib_.device_register_events && lib_.event_set_wait &&
      lib_.event_set_create(&events_) == kSuccess) {
    unsigned count = 0;
    if (lib_.device_get_count(&count) == kSuccess) {
      for (unsigned i = 0; i < count; ++i) {
        Device d = nullptr;
        if (lib_.device_get_handle_by_index(i, &d) == kSuccess) lib_.device_register_events(d, kEventTypeXidCriticalError, events_);
      }
    }
  }
}

NvmlGpuBackend::~NvmlGpuBackend() {
  gpm_.keep_only({});  // GPM samples are freed while the library is still open
  if (events_ && lib_.event_set_free) lib_.event_set_free(events_);
  close_library(lib_);
}

std::optional<std::string> NvmlGpuBackend::driver_version() const {
  if (!lib_.system_get_driver_version) return std::nullopt;
  char buf[96] = {};
  if (lib_.system_get_driver_version(buf, sizeof buf) != kSuccess) return std::nullopt;
  return std::string(buf);
}

std::vector<GpuProcessInfo> NvmlGpuBackend::read_processes(Device d) const {
  std::map<unsigned, GpuProcessInfo> by_pid;
  auto add = [&](unsigned pid, unsigned long long mem, bool mps, std::optional<unsigned> gi, std::optional<unsigned> ci) {
    GpuProcessInfo& p = by_pid[pid];
    p.pid = pid;
    if (auto m = memory_value(mem)) p.used_memory_bytes = m;
    p.mps_client = p.mps_client || mps;
    // 0xFFFFFFFF means "not under MIG" in the 4-field layout.
    if (gi && *gi != 0xFFFFFFFFu) p.gpu_instance_id = gi;
    if (ci && *ci != 0xFFFFFFFFu) p.compute_instance_id = ci;
  };
  for (const auto& i : query_processes<ProcessInfo>(lib_.device_get_compute_processes, d)) add(i.pid, i.usedGpuMemory, false, i.gpuInstanceId, i.computeInstanceId);
  for (const auto& i : query_processes<ProcessInfoV1>(lib_.device_get_compute_processes_v1, d)) add(i.pid, i.usedGpuMemory, false, {}, {});
  for (const auto& i : query_processes<ProcessInfo>(lib_.device_get_mps_processes, d)) add(i.pid, i.usedGpuMemory, true, i.gpuInstanceId, i.computeInstanceId);
  for (const auto& i : query_processes<ProcessInfoV1>(lib_.device_get_mps_processes_v1, d)) add(i.pid, i.usedGpuMemory, true, {}, {});
  std::vector<GpuProcessInfo> out;
  for (auto& [pid, p] : by_pid) out.push_back(p);
  return out;
}

std::vector<MigInstanceInfo> NvmlGpuBackend::read_mig(Device d, const GpuDeviceInfo& gpu) {
  std::vector<MigInstanceInfo> out;
  unsigned max = 0;
  if (!lib_.device_get_max_mig_device_count || !lib_.device_get_mig_device_handle_by_index ||
      lib_.device_get_max_mig_device_count(d, &max) != kSuccess) {
    return out;
  }
  for (unsigned i = 0; i < max; ++i) {
    Device mig = nullptr;
    if (lib_.device_get_mig_device_handle_by_index(d, i, &mig) != kSuccess) continue;  // empty slot
    MigInstanceInfo m;
    m.uuid = text_value(lib_.device_get_uuid, mig, kDeviceUuidBufferSize);
    if (lib_.device_get_gpu_instance_id) lib_.device_get_gpu_instance_id(mig, &m.gpu_instance_id);
    if (lib_.device_get_compute_instance_id) lib_.device_get_compute_instance_id(mig, &m.compute_instance_id);
    const MemoryReading mem = read_memory(lib_, mig);
    m.memory_total_bytes = mem.total;
    m.memory_used_bytes = mem.used;
    // Profile and placement come from the GPU instance; reading it may need privileges (then absent).
    GpuInstance gi = nullptr;
    GpuInstanceInfo info{};
    if (lib_.device_get_gpu_instance_by_id && lib_.gpu_instance_get_info &&
        lib_.device_get_gpu_instance_by_id(d, m.gpu_instance_id, &gi) == kSuccess &&
        lib_.gpu_instance_get_info(gi, &info) == kSuccess) {
      m.profile_id = info.profileId;
      m.profile = profile_name(catalog_, gpu.name, info.profileId);
      m.placement_start = info.placement.start;
      m.placement_size = info.placement.size;
    }
    // GPM of a MIG instance is sampled through its parent GPU and GPU-instance id.
    if (!m.uuid.empty()) m.gpm = gpm_.read(d, gpu.uuid, m.uuid, m.gpu_instance_id);
    out.push_back(m);
  }
  return out;
}

GpuDeviceInfo NvmlGpuBackend::read_device(unsigned index, Device d) {
  GpuDeviceInfo dev;
  dev.index = index;
  dev.uuid = text_value(lib_.device_get_uuid, d, kDeviceUuidBufferSize);
  dev.name = text_value(lib_.device_get_name, d, kDeviceNameBufferSize);
  const MemoryReading mem = read_memory(lib_, d);
  dev.memory_total_bytes = mem.total;
  dev.memory_used_bytes = mem.used;
  int mode = 0;
  if (lib_.device_get_compute_mode && lib_.device_get_compute_mode(d, &mode) == kSuccess) dev.compute_mode = compute_mode_name(mode);
  unsigned current = 0, pending = 0;
  if (lib_.device_get_mig_mode && lib_.device_get_mig_mode(d, &current, &pending) == kSuccess) dev.mig_enabled = current == 1;
  Utilization u{};
  if (lib_.device_get_utilization_rates && lib_.device_get_utilization_rates(d, &u) == kSuccess) {
    dev.utilization_gpu = u.gpu / 100.0;
    dev.utilization_memory = u.memory / 100.0;
  }
  if (!dev.uuid.empty()) dev.gpm = gpm_.read(d, dev.uuid, dev.uuid, std::nullopt);
  if (dev.mig_enabled.value_or(false)) dev.mig_instances = read_mig(d, dev);
  dev.processes = read_processes(d);
  if (!dev.uuid.empty()) process_utilization_.fill(d, dev.uuid, dev.processes);
  return dev;
}

std::vector<GpuDeviceInfo> NvmlGpuBackend::devices() {
  std::vector<GpuDeviceInfo> out;
  unsigned count = 0;
  if (lib_.device_get_count(&count) != kSuccess) return out;
  for (unsigned i = 0; i < count; ++i) {
    Device d = nullptr;
    if (lib_.device_get_handle_by_index(i, &d) == kSuccess) out.push_back(read_device(i, d));
  }
  std::set<std::string> sources;  // GPM samples of GPUs and MIG instances that are gone are freed
  for (const auto& dev : out) {
    sources.insert(dev.uuid);
    for (const auto& m : dev.mig_instances) sources.insert(m.uuid);
  }
  gpm_.keep_only(sources);
  return out;
}

std::vector<XidEvent> NvmlGpuBackend::poll_xid_events() {
  std::vector<XidEvent> out;
  if (!events_) return out;
  EventData data{};
  while (lib_.event_set_wait(events_, &data, 0) == kSuccess) {
    if (data.eventType == kEventTypeXidCriticalError) {
      out.push_back({text_value(lib_.device_get_uuid, data.device, kDeviceUuidBufferSize), data.eventData});
    }
  }
  return out;
}

}  // namespace gpupack
