#pragma once
// The GPU catalog: every model gpupack plans for, looked up by any alias, case- and punctuation-insensitive.
#include <string>
#include <string_view>
#include <vector>

#include "core/gpu_model.hpp"

namespace gpupack {

class GpuCatalog {
 public:
  explicit GpuCatalog(std::vector<GpuModel> models);

  const std::vector<GpuModel>& models() const { return models_; }
  // nullptr when no model has that name, alias or NVML product name.
  const GpuModel* find(std::string_view name) const;
  // The catalog name of the model an NVML product name is (what `gpus`, /metrics and profiles show);
  // empty when the catalog does not know it.
  std::string model_name(std::string_view product) const;
  // Like find, but throws InputError naming the input and the closest known names.
  const GpuModel& get(std::string_view name) const;
  // Up to n known names nearest to `name`, nearest first.
  std::vector<std::string> closest(std::string_view name, size_t n) const;

 private:
  std::vector<GpuModel> models_;
};

// The embedded catalog (data in gpu_catalog_data.cpp, facts from docs/reference/mig.md). Built once at
// the edge (the CLI's main) and passed down by reference; no layer keeps its own copy.
GpuCatalog builtin_catalog();

}  // namespace gpupack
