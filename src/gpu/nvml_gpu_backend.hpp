#pragma once
// The GpuBackend over the real driver (NVML through dlopen).
#include <memory>

#include "core/gpu_catalog.hpp"
#include "gpu/gpu_backend.hpp"
#include "gpu/nvml_gpm.hpp"
#include "gpu/nvml_library.hpp"
#include "gpu/nvml_process_utilization.hpp"
#include "os/clock.hpp"

namespace gpupack {

class NvmlGpuBackend : public GpuBackend {
 public:
  // MIG profile names come from `catalog`, which must outlive the backend. Throws GpuUnavailable.
  explicit NvmlGpuBackend(const GpuCatalog& catalog);
  explicit NvmlGpuBackend(const GpuCatalog&& catalog) = delete;  // a temporary would dangle
  // Over an opened library (tests pass a table of fake functions) and a clock for the GPM intervals.
  NvmlGpuBackend(nvml::Library lib, std::shared_ptr<const Clock> clock, const GpuCatalog& catalog);
  ~NvmlGpuBackend() override;
  NvmlGpuBackend(const NvmlGpuBackend&) = delete;
  NvmlGpuBackend& operator=(const NvmlGpuBackend&) = delete;

  std::string name() const override { return "nvml"; }
  std::optional<std::string> driver_version() const override;
  std::vector<GpuDeviceInfo> devices() override;
  std::vector<XidEvent> poll_xid_events() override;

 private:
  GpuDeviceInfo read_device(unsigned index, nvml::Device handle);
  std::vector<MigInstanceInfo> read_mig(nvml::Device handle, const GpuDeviceInfo& gpu);
  std::vector<GpuProcessInfo> read_processes(nvml::Device handle) const;

  nvml::Library lib_;
  std::shared_ptr<const Clock> clock_;
  const GpuCatalog& catalog_;
  nvml::GpmSampler gpm_;
  nvml::ProcessUtilizationReader process_utilization_;
  nvml::EventSet events_ = nullptr;
};

}  // namespace gpupack
