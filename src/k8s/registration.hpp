#pragma once
// Registering a plugin with kubelet: v1beta1.Registration/Register on <plugin dir>/kubelet.sock.
#include <chrono>
#include <string>

namespace gpupack::k8s {

inline constexpr const char* kKubeletSocket = "kubelet.sock";
inline constexpr const char* kApiVersion = "v1beta1";

// Throws std::runtime_error with kubelet's answer when registration fails or times out.
void register_plugin(const std::string& kubelet_socket_path, const std::string& endpoint, const std::string& resource,
                     bool pre_start_required, std::chrono::milliseconds timeout);

}  // namespace gpupack::k8s
