#pragma once
// Per-client MPS limits and their one text form. The plan, the rendered files (client env files, CDI
// specs, the daemon's start script, node.yaml), the agent (daemon defaults, `gpupack run`) and the device
// plugin (Allocate's environment) all write a memory limit through mps_memory_text, and the agent reads a
// client's CUDA_MPS_* environment back through the parsers below.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace gpupack {

struct ClientLimits {
  std::optional<int> sm_percent;              // CUDA_MPS_ACTIVE_THREAD_PERCENTAGE, 1..100
  std::optional<std::uint64_t> memory_bytes;  // CUDA_MPS_PINNED_DEVICE_MEM_LIMIT
  bool operator==(const ClientLimits&) const = default;
};

// "1536M": a byte count as whole MiB, the unit the control daemon's set_default_device_pinned_mem_limit
// and CUDA_MPS_PINNED_DEVICE_MEM_LIMIT accept (an integer with K, M, G or T). Rounded up: a limit is a cap
// the plan computed from what the client needs, so it is never cut below that, and a small non-zero limit
// never becomes "0M".
std::string mps_memory_text(std::uint64_t bytes);

// CUDA_MPS_PINNED_DEVICE_MEM_LIMIT for device 0 of the client's view (the daemon or the container sees
// one GPU or MIG instance): "0=<mps_memory_text>".
std::string pinned_limit_env(std::uint64_t bytes);

// Bytes of device 0 in a CUDA_MPS_PINNED_DEVICE_MEM_LIMIT value ("0=1G,1=512M" or "2G"); none when absent
// or malformed.
std::optional<std::uint64_t> pinned_limit_device0(std::string_view value);

// CUDA_MPS_ACTIVE_THREAD_PERCENTAGE ("50", "12.5") as a share of the SMs; none when malformed or out of
// (0, 100].
std::optional<double> active_thread_ratio(const std::string& value);

}  // namespace gpupack
