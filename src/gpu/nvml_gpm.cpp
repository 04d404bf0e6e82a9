#include "gpu/nvml_gpm.hpp"

#include <algorithm>
#include <chrono>
#include <memory>

namespace gpupack::nvml {

namespace {

constexpr double kMinIntervalSeconds = 0.1;  // NVML's GPM refresh period

std::optional<double> ratio(const GpmMetric& m) {
  if (m.nvmlReturn != kSuccess) return std::nullopt;
  return std::clamp(m.value / 100.0, 0.0, 1.0);
}

}  // namespace

GpmSampler::~GpmSampler() {
  for (auto& [key, s] : sources_) free_source(s);
}

void GpmSampler::free_source(Source& s) const {
  if (!lib_.gpm_sample_free) return;
  if (s.previous) lib_.gpm_sample_free(s.previous);
  if (s.scratch) lib_.gpm_sample_free(s.scratch);
  s.previous = s.scratch = nullptr;
}

bool GpmSampler::supported(Device device, const std::string& gpu_uuid) {
  const auto it = support_.find(gpu_uuid);
  if (it != support_.end()) return it->second;
  bool ok = false;
  if (lib_.gpm_query_device_support && lib_.gpm_sample_alloc && lib_.gpm_sample_free && lib_.gpm_sample_get &&
      lib_.gpm_metrics_get) {
    GpmSupport support{};
    support.version = kGpmSupportVersion;
    ok = lib_.gpm_query_device_support(device, &support) == kSuccess && support.isSupportedDevice != 0;
  }
  support_[gpu_uuid] = ok;
  return ok;
}

std::optional<GpmActivity> GpmSampler::metrics(GpmSample first, GpmSample second, double seconds) const {
  // The struct holds NVML_GPM_METRIC_MAX entries (13 KB): on the heap, not the agent thread's stack.
  auto get = std::make_unique<GpmMetricsGet>();
  get->version = kGpmMetricsGetVersion;
  get->sample1 = first;
  get->sample2 = second;
  const unsigned ids[] = {kGpmSmUtil, kGpmSmOccupancy, kGpmAnyTensorUtil, kGpmDramBwUtil};
  get->numMetrics = 4;
  for (unsigned i = 0; i < 4; ++i) get->metrics[i].metricId = ids[i];
  if (lib_.gpm_metrics_get(get.get()) != kSuccess) return std::nullopt;
  GpmActivity a;
  a.sm_active = ratio(get->metrics[0]);
  a.sm_occupancy = ratio(get->metrics[1]);
  a.tensor_active = ratio(get->metrics[2]);
  a.dram_bw = ratio(get->metrics[3]);
  a.interval_seconds = seconds;
  if (!a.sm_active && !a.sm_occupancy && !a.tensor_active && !a.dram_bw) return std::nullopt;
  return a;
}

std::optional<GpmActivity> GpmSampler::read(Device device, const std::string& gpu_uuid, const std::string& key,
                                            std::optional<unsigned> gpu_instance_id) {
  if (!supported(device, gpu_uuid)) return std::nullopt;
  if (gpu_instance_id && !lib_.gpm_mig_sample_get) return std::nullopt;
  Source& s = sources_[key];
  for (GpmSample* buffer : {&s.previous, &s.scratch}) {
    if (!*buffer && lib_.gpm_sample_alloc(buffer) != kSuccess) {
      *buffer = nullptr;
      return std::nullopt;
    }
  }
  const Return r = gpu_instance_id ? lib_.gpm_mig_sample_get(device, *gpu_instance_id, s.scratch)
                                   : lib_.gpm_sample_get(device, s.scratch);
  if (r != kSuccess) return std::nullopt;
  const Clock::time_point now = clock_.now();
  if (!s.has_previous) {
    std::swap(s.previous, s.scratch);
    s.has_previous = true;
    s.previous_at = now;
    return std::nullopt;
  }
  const double seconds = std::chrono::duration<double>(now - s.previous_at).count();
  if (seconds < kMinIntervalSeconds) return std::nullopt;  // keep the older sample as the start
  std::optional<GpmActivity> a = metrics(s.previous, s.scratch, seconds);
  std::swap(s.previous, s.scratch);
  s.previous_at = now;
  return a;
}

void GpmSampler::keep_only(const std::set<std::string>& keys) {
  for (auto it = sources_.begin(); it != sources_.end();) {
    if (keys.count(it->first)) {
      ++it;
    } else {
      free_source(it->second);
      it = sources_.erase(it);
    }
  }
}

}  // namespace gpupack::nvml
