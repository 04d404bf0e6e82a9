#pragma once
// The GpuBackend over the real driver (NVML through dlopen).
#include "gpu/gpu_backend.hpp"
#include "gpu/nvml_library.hpp"

namespace gpupack {

class NvmlGpuBackend : public GpuBackend {
 public:
  NvmlGpuBackend();  // throws GpuUnavailable
  ~NvmlGpuBackend() override;
  NvmlGpuBackend(const NvmlGpuBackend&) = delete;
  NvmlGpuBackend& operator=(const NvmlGpuBackend&) = delete;

  std::string name() const override { return "nvml"; }
  std::optional<std::string> driver_version() const override;
  std::vector<GpuDeviceInfo> devices() override;
  std::vector<XidEvent> poll_xid_events() override;

 private:
  GpuDeviceInfo read_device(unsigned index, nvml::Device handle) const;
  std::vector<MigInstanceInfo> read_mig(nvml::Device handle, const std::string& product) const;
  std::vector<GpuProcessInfo> read_processes(nvml::Device handle) const;

  nvml::Library lib_;
  nvml::EventSet events_ = nullptr;
};

}  // namespace gpupack
