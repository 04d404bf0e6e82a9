#pragma once
// Which component serves a plan's GPUs to pods on Kubernetes (`--deploy-with`): the gpupack agent's device
// plugin, NVIDIA's device plugin, or NVIDIA's DRA driver. What each can express bounds the plan and
// decides the resource names its pods request.
#include <optional>
#include <string_view>

namespace gpupack {

enum class Consumer { gpupack_agent, nvidia_device_plugin, dra };

std::string_view to_string(Consumer consumer);  // "gpupack-agent" | "nvidia-device-plugin" | "dra"
std::optional<Consumer> parse_consumer(std::string_view text);
inline constexpr std::string_view kConsumerNames = "gpupack-agent, nvidia-device-plugin, dra";

}  // namespace gpupack
