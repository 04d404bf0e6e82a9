#pragma once
// What the GPU itself measured (NVML GPM) over verify's window, per slice: the share of its SMs busy, of
// its peak DRAM bandwidth and of its tensor cores, all of the slice's clients together. It is the measured
// counterpart of what the profile model sums per slice (the clients' SM footprints and DRAM shares,
// docs/decisions.md, "The model, per slice"), so a user sees whether the slice saturated the DRAM or the
// SMs when a prediction missed. A GPU without GPM (before Hopper) gives none.
#include <optional>
#include <string>
#include <vector>

#include "gpu/gpu_backend.hpp"

namespace gpupack::verify {

struct WindowActivity {
  std::optional<double> sm_active, dram_bw, tensor_active;  // means over the window's samples, by their time
  double seconds = 0;                                       // the samples' time, summed
  int samples = 0;
};

// GPM samples in session time, each over [from, to] (between two reads of the GPU); only the samples that
// lie wholly inside the window count, so the warm-up and the stop are left out.
class WindowActivityMeter {
 public:
  WindowActivityMeter(double window_from_s, double window_to_s) : from_(window_from_s), to_(window_to_s) {}
  void add(const GpmActivity& a, double from_s, double to_s);
  std::optional<WindowActivity> result() const;  // none without a sample in the window

 private:
  // Weighted around the first read, so that a steady value comes back exactly (the reads' times differ
  // run to run, and sum(v*s)/sum(s) of a steady 0.875 can print as 0.87).
  struct Mean {
    std::optional<double> first;
    double weighted = 0, seconds = 0;
    void add(const std::optional<double>& v, double s);
    std::optional<double> value() const;
  };
  double from_, to_;
  Mean sm_, dram_, tensor_;
  double seconds_ = 0;
  int samples_ = 0;
};

// The GPM activity of the GPU (a GPU-... UUID) or of the MIG instance (MIG-...) named by `uuid` in one read
// of the devices; none where it is absent or has none.
std::optional<GpmActivity> gpm_of(const std::vector<GpuDeviceInfo>& devices, const std::string& uuid);

}  // namespace gpupack::verify
