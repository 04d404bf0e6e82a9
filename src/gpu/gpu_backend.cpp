#include "gpu/gpu_backend.hpp"

#include "gpu/fake_gpu_backend.hpp"
#include "gpu/nvml_gpu_backend.hpp"

namespace gpupack {

std::unique_ptr<GpuBackend> open_gpu_backend(const std::string& choice, const Filesystem& fs, const GpuCatalog& catalog) {
  if (choice.rfind("fake:", 0) == 0) return FakeGpuBackend::from_file(fs, choice.substr(5));
  return std::make_unique<NvmlGpuBackend>(catalog);
}

const GpuDeviceInfo* find_device(const std::vector<GpuDeviceInfo>& devices, const std::string& uuid_or_index) {
  for (const auto& d : devices) {
    if (d.uuid == uuid_or_index || std::to_string(d.index) == uuid_or_index) return &d;
  }
  return nullptr;
}

}  // namespace gpupack
