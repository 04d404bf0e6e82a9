#pragma once
// Two GPU resources in one container. kubelet calls Allocate once per resource and merges the replies'
// environment, keeping whichever it saw first (map order, i.e. at random): mps-50 + mps-25 on one GPU
// gave the container 50% instead of 75%, and nvidia.com/gpu + nvidia.com/mig-2g.20gb one of the two
// NVIDIA_VISIBLE_DEVICES. The replies cannot compose (CUDA reads one CUDA_MPS_ACTIVE_THREAD_PERCENTAGE,
// and no single Allocate call sees the other resource), so such a container is refused: the plugins ask
// kubelet for PreStartContainer, by which time PodResources lists every device the container got, and
// answer it with an error kubelet records on the pod (CreateContainerConfigError, with this message).
#include <map>
#include <set>
#include <string>
#include <vector>

#include "k8s/pod_resources.hpp"

namespace gpupack::k8s {

// True for the resources whose replies set GPU environment: ours and NVIDIA's (nvidia.com/*), which a
// node with device_plugin.resources: gpupack-only still serves through NVIDIA's plugin.
bool is_gpu_resource(const std::string& resource);

// The refusal for the container holding `ids` of `resource` when it also holds devices of another GPU
// resource; empty when it does not, or when PodResources does not list the container (not to block on
// what cannot be told).
std::string mixed_resources_error(const std::string& resource, const std::vector<std::string>& ids,
                                  const std::map<std::string, PodContainer>& allocations);

}  // namespace gpupack::k8s
