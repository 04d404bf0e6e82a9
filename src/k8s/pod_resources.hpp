#pragma once
// The kubelet PodResources API v1 (List): which pod, namespace and container hold each allocated device
// ID. Joined with the plugin's devices this names the pods on each GPU or MIG instance, so the metrics
// can carry pod labels even under MPS, where NVML attributes the clients to the MPS server.
#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "k8s/device_plan.hpp"

namespace gpupack::k8s {

struct PodContainer {
  std::string pod, pod_namespace, container, resource;
  bool operator==(const PodContainer&) const = default;
};

class PodResourcesClient {
 public:
  explicit PodResourcesClient(std::string socket_path) : socket_(std::move(socket_path)) {}
  // Device ID -> the container holding it. Throws std::runtime_error with the gRPC error (kubelet
  // rate-limits this API to about 100 calls a second: call it once per metrics refresh at most).
  std::map<std::string, PodContainer> list(std::chrono::milliseconds timeout = std::chrono::seconds(5)) const;

 private:
  std::string socket_;
};

// The container a GPU process belongs to, from the GPUPACK_DEVICE_IDS value in its environment (set by
// Allocate) and PodResources' allocations; none when no ID is allocated (or the value is empty).
std::optional<PodContainer> pod_of_client(const std::string& device_ids_env, const std::map<std::string, PodContainer>& allocations);

// Per GPU or MIG UUID, the containers holding one of its devices; IDs of other resources are ignored.
std::map<std::string, std::vector<PodContainer>> pods_by_target(const std::map<std::string, PodContainer>& allocations,
                                                                const std::vector<PluginResource>& resources);

}  // namespace gpupack::k8s
