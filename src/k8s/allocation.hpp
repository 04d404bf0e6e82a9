#pragma once
// The device plugin's answers, as plain values (the gRPC server converts them): Allocate per container
// and GetPreferredAllocation. Every check that can fail names the device IDs at fault, because kubelet
// puts the message in the pod's events and that is all the user sees.
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "k8s/device_plan.hpp"

namespace gpupack::k8s {

// Set in every allocated container: its device IDs, comma-separated (see pod_of_client).
inline constexpr const char* kDeviceIdsEnv = "GPUPACK_DEVICE_IDS";

struct MountSpec {
  std::string container_path, host_path;
  bool read_only = false;
};

struct ContainerAllocation {
  std::map<std::string, std::string> envs;
  std::vector<MountSpec> mounts;
  std::vector<std::string> cdi_devices;  // fully qualified: gpupack.io/gpu=<name>
};

class AllocationError : public std::runtime_error {
 public:
  enum class Kind { invalid, exhausted, unhealthy };
  AllocationError(Kind kind, const std::string& message) : std::runtime_error(message), kind_(kind) {}
  Kind kind() const { return kind_; }

 private:
  Kind kind_;
};

// Answers one AllocateRequest: `requests` holds each container's device IDs. Throws AllocationError for
// no containers, a container without IDs, unknown IDs, an ID requested twice, more IDs than the resource
// has, unhealthy devices, and MPS slices of one container on different GPUs.
std::vector<ContainerAllocation> allocate(const PluginResource& resource,
                                          const std::function<bool(const std::string& id)>& healthy,
                                          const std::vector<std::vector<std::string>>& requests, bool cdi);

// The CDI device name of a device ID ("GPU-..::3" -> "GPU-..-3"): CDI names allow [A-Za-z0-9_.:-] and
// must end alphanumeric.
std::string cdi_device_name(const std::string& device_id);

// GetPreferredAllocation for one container: the must-include IDs, then the rest by policy. packed puts
// replicas on the GPU (or MIG instance) that is already the most used, keeping others free for pods
// that need a whole one; distributed spreads them over the least used. Deterministic.
std::vector<std::string> preferred_allocation(const PluginResource& resource, AllocationPolicy policy,
                                              const std::vector<std::string>& available,
                                              const std::vector<std::string>& must_include, int size);

}  // namespace gpupack::k8s
