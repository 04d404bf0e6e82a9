#pragma once
// Opening the GPU layer from a command: GpuUnavailable (no driver, no NVML) becomes one line on stderr
// and exit code 3, as docs/cli.md promises.
#include <functional>
#include <string>

#include "gpu/gpu_backend.hpp"
#include "cli/command.hpp"

namespace gpupack {

// Reads GPUPACK_GPU_BACKEND through the command's Env (the one place it is read) and opens that backend.
int with_gpu_backend(const CommandContext& ctx, const std::function<int(GpuBackend&)>& body);

// "12.5 GiB" style text for byte counts; "-" when absent.
std::string gib_text(const std::optional<std::uint64_t>& bytes);

}  // namespace gpupack
