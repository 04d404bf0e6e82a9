#include "core/mig_capacity.hpp"

#include <algorithm>

namespace gpupack {

MigCapacity mig_capacity(const GpuModel& model, const MigCounts& counts, Sharing sharing, int per_instance,
                         CudaVersion cuda) {
  MigCapacity cap;
  const MigGeometry& g = *model.mig;
  for (size_t i = 0; i < counts.size(); ++i) {
    if (counts[i] == 0) continue;
    MigCapacityRow row;
    row.profile = static_cast<int>(i);
    row.instances = counts[i];
    row.requested_per_instance = !is_shared_by_processes(sharing) ? 1 : per_instance;
    row.clients_per_instance = row.requested_per_instance;
    if (sharing == Sharing::mps) {
      row.mps_limit_per_instance = mps_client_limit_in_instance(model, g.profiles[i], cuda);
      if (row.clients_per_instance > row.mps_limit_per_instance) {
        row.clients_per_instance = row.mps_limit_per_instance;
        cap.clamped = true;
      }
    }
    row.total = row.instances * row.clients_per_instance;
    cap.total += row.total;
    cap.rows.push_back(row);
  }
  return cap;
}

}  // namespace gpupack
