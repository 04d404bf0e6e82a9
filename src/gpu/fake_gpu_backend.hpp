#pragma once
// A GPU backend that replays a machine described in JSON (docs/fake-gpu.md): devices with their MIG
// instances and processes, per-device series of utilisation and memory samples (each snapshot takes the
// next sample and the last one repeats), GPM activity series per device and MIG instance (absent in the
// first snapshot, as NVML needs two samples; snapshot k >= 1 takes sample k-1), per-process SM/memory
// utilisation, and XID events that appear from a given snapshot on. Lets the agent and its tests run
// where there is no GPU, like DCGM's NVML injection.
#include <nlohmann/json.hpp>

#include "gpu/gpu_backend.hpp"
#include "os/filesystem.hpp"

namespace gpupack {

class FakeGpuBackend : public GpuBackend {
 public:
  // Throws InputError naming the field when the description is malformed.
  explicit FakeGpuBackend(const nlohmann::json& machine);
  // Reads the description through `fs` (the Env's file system).
  static std::unique_ptr<FakeGpuBackend> from_file(const Filesystem& fs, const std::string& path);

  std::string name() const override { return "fake"; }
  std::optional<std::string> driver_version() const override { return driver_; }
  std::vector<GpuDeviceInfo> devices() override;
  std::vector<XidEvent> poll_xid_events() override;

 private:
  struct GpmSeries {
    std::vector<double> sm_active, sm_occupancy, tensor_active, dram_bw;
    double interval_seconds = 1;
  };
  struct Series {
    std::vector<double> utilization, memory_used;
    std::optional<GpmSeries> gpm;
    std::vector<std::optional<GpmSeries>> mig_gpm;  // per MIG instance, in order
  };
  static std::optional<GpmSeries> parse_gpm(const nlohmann::json& owner, const std::string& where);
  static std::optional<GpmActivity> gpm_at(const std::optional<GpmSeries>& series, std::size_t snapshot);
  struct PendingXid {
    XidEvent event;
    std::size_t at_snapshot = 0;
    bool delivered = false;
  };
  std::optional<std::string> driver_;
  std::vector<GpuDeviceInfo> devices_;
  std::vector<Series> series_;
  std::vector<PendingXid> xids_;
  std::size_t snapshot_ = 0;
};

}  // namespace gpupack
