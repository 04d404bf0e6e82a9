#pragma once
// NVML GPM activity per GPU and per MIG GPU instance, over the interval between two devices() calls.
// GPM gives counters, not rates: each source keeps its previous sample, and a reading is the metrics
// between that sample and a new one. The first reading of a source is absent; a reading less than
// 100 ms after the previous one (NVML's refresh period) is absent too and keeps the older sample as the
// start of the next interval. Missing functions, unsupported devices and failing calls give absent
// values, never errors (as nvtop does).
#include <map>
#include <optional>
#include <set>
#include <string>

#include "gpu/gpu_backend.hpp"
#include "gpu/nvml_library.hpp"
#include "os/clock.hpp"

namespace gpupack::nvml {

class GpmSampler {
 public:
  GpmSampler(const Library& lib, const Clock& clock) : lib_(lib), clock_(clock) {}
  ~GpmSampler();  // frees every sample buffer
  GpmSampler(const GpmSampler&) = delete;
  GpmSampler& operator=(const GpmSampler&) = delete;

  // `key` names the source across calls (the GPU or MIG UUID); `gpu_uuid` the GPU whose support is
  // queried once; `gpu_instance_id` selects a MIG GPU instance of `device` (nvmlGpmMigSampleGet).
  std::optional<GpmActivity> read(Device device, const std::string& gpu_uuid, const std::string& key,
                                  std::optional<unsigned> gpu_instance_id);
  // Frees the samples of sources not in `keys` (MIG instances destroyed, GPUs gone).
  void keep_only(const std::set<std::string>& keys);

 private:
  struct Source {
    GpmSample previous = nullptr, scratch = nullptr;
    bool has_previous = false;
    Clock::time_point previous_at{};
  };
  bool supported(Device device, const std::string& gpu_uuid);
  std::optional<GpmActivity> metrics(GpmSample first, GpmSample second, double seconds) const;
  void free_source(Source& s) const;

  const Library& lib_;
  const Clock& clock_;
  std::map<std::string, bool> support_;  // by GPU UUID
  std::map<std::string, Source> sources_;
};

}  // namespace gpupack::nvml
