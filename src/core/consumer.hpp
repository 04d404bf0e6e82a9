#pragma once
// Which component serves a plan's GPUs to pods on Kubernetes (`--deploy-with`): the gpupack agent's device
// plugin, NVIDIA's device plugin, or NVIDIA's DRA driver. What each can express bounds the plan and
// decides the resource names its pods request.
#include <optional>
#include <string_view>

namespace gpupack {

struct GpuModel;

enum class Consumer { gpupack_agent, nvidia_device_plugin, dra };

std::string_view to_string(Consumer consumer);  // "gpupack-agent" | "nvidia-device-plugin" | "dra"
std::optional<Consumer> parse_consumer(std::string_view text);
inline constexpr std::string_view kConsumerNames = "gpupack-agent, nvidia-device-plugin, dra";

// The MPS replicas NVIDIA's device plugin accepts on one GPU: 48, or 16 below compute capability 7.5 (its
// "Volta" check compares with 7.5, so a V100 at 7.0 gets 16), whatever the CUDA version. The versions of
// the consumers these facts were checked against are in kConsumerVersions.
int nvidia_plugin_mps_max_replicas(const GpuModel& model);
// The version of the consumer whose behaviour gpupack's rules were checked against (README.txt says it).
std::string_view checked_version(Consumer consumer);

}  // namespace gpupack
