#include "core/gpu_model.hpp"

#include <algorithm>

namespace gpupack {

bool GpuModel::is_unconfirmed(std::string_view field) const {
  return std::find(unconfirmed.begin(), unconfirmed.end(), field) != unconfirmed.end();
}

SliceCapacity slice_capacity(const GpuModel& model, int mig_profile) {
  if (mig_profile < 0 || !model.mig || mig_profile >= static_cast<int>(model.mig->profiles.size())) {
    return {model.sm_count, model.memory_bandwidth_gbs, 0, 0, 0, model.name};
  }
  const MigProfile& p = model.mig->profiles[static_cast<size_t>(mig_profile)];
  const double share = model.mig->memory_slices > 0 ? static_cast<double>(p.memory_slices) / model.mig->memory_slices : 1.0;
  return {p.sms, model.memory_bandwidth_gbs * share, 0, 0, 0, model.name};
}

bool mps_supported(const GpuModel& model) { return !model.fraction || model.fraction->mps_inside; }

int mps_client_limit(const GpuModel& model, CudaVersion cuda) {
  if (!mps_supported(model)) return 0;
  if (!is_volta_or_newer(model.arch)) return 16;
  return cuda >= CudaVersion{13, 1} ? 60 : 48;
}

int mps_client_limit_in_instance(const GpuModel& model, const MigProfile& profile, CudaVersion cuda) {
  const int whole = mps_client_limit(model, cuda);
  if (!model.mig || model.mig->compute_slices == 0) return whole;
  return std::max(1, whole * profile.compute_slices / model.mig->compute_slices);
}

bool mps_isolates_memory(const GpuModel& model) { return mps_supported(model) && is_volta_or_newer(model.arch); }

bool mps_static_sm_partitions(const GpuModel& model, CudaVersion cuda) {
  return mps_supported(model) && is_volta_or_newer(model.arch) && cuda >= CudaVersion{13, 1};
}

}  // namespace gpupack
