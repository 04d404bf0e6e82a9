#include "core/consumer.hpp"

#include "core/gpu_model.hpp"

namespace gpupack {

std::string_view to_string(Consumer consumer) {
  switch (consumer) {
    case Consumer::gpupack_agent: return "gpupack-agent";
    case Consumer::nvidia_device_plugin: return "nvidia-device-plugin";
    case Consumer::dra: return "dra";
  }
  return "";
}

std::optional<Consumer> parse_consumer(std::string_view text) {
  for (Consumer c : {Consumer::gpupack_agent, Consumer::nvidia_device_plugin, Consumer::dra}) {
    if (to_string(c) == text) return c;
  }
  return std::nullopt;
}

int nvidia_plugin_mps_max_replicas(const GpuModel& model) {
  const ComputeCapability cc = model.compute_capability;
  return (cc.major > 7 || (cc.major == 7 && cc.minor >= 5)) ? 48 : 16;
}

std::string_view checked_version(Consumer consumer) {
  switch (consumer) {
    case Consumer::gpupack_agent: return "this gpupack build";
    case Consumer::nvidia_device_plugin: return "NVIDIA k8s-device-plugin v0.17.4";
    case Consumer::dra: return "NVIDIA dra-driver-nvidia-gpu v0.4.0 (GpuConfig resource.nvidia.com/v1beta1, Kubernetes 1.34+)";
  }
  return "";
}

}  // namespace gpupack
