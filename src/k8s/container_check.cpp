#include "k8s/container_check.hpp"

#include "contract/resource_names.hpp"

namespace gpupack::k8s {

bool is_gpu_resource(const std::string& resource) { return is_gpu_resource_name(resource); }

std::string mixed_resources_error(const std::string& resource, const std::vector<std::string>& ids,
                                  const std::map<std::string, PodContainer>& allocations) {
  const PodContainer* holder = nullptr;
  for (const auto& id : ids) {
    const auto it = allocations.find(id);
    if (it != allocations.end() && it->second.resource == resource) holder = &it->second;
  }
  if (!holder) return "";
  std::set<std::string> others;
  for (const auto& [id, c] : allocations) {
    if (c.pod == holder->pod && c.pod_namespace == holder->pod_namespace && c.container == holder->container &&
        c.resource != resource && is_gpu_resource(c.resource)) {
      others.insert(c.resource);
    }
  }
  if (others.empty()) return "";
  std::string names = resource;
  for (const auto& o : others) names += " and " + o;
  return "container " + holder->container + " of pod " + holder->pod_namespace + "/" + holder->pod + " requests " + names +
         ": kubelet allocates each resource apart and keeps one reply's CUDA_MPS_ACTIVE_THREAD_PERCENTAGE, "
         "CUDA_MPS_PINNED_DEVICE_MEM_LIMIT and NVIDIA_VISIBLE_DEVICES at random, so gpupack refuses it; request "
         "one GPU resource per container (several slices of one size add up, e.g. 3 x gpupack.io/mps-25 for 75%)";
}

}  // namespace gpupack::k8s
