#include "core/consumer.hpp"

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

}  // namespace gpupack
