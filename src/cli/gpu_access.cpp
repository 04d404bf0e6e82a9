#include "cli/gpu_access.hpp"

#include <iostream>

#include "core/exit_codes.hpp"
#include "cli/table.hpp"

namespace gpupack {

int with_gpu_backend(const CommandContext& ctx, const std::function<int(GpuBackend&)>& body) {
  std::unique_ptr<GpuBackend> backend;
  try {
    backend = open_gpu_backend(ctx.env.vars.get("GPUPACK_GPU_BACKEND").value_or(""), ctx.env.fs, ctx.catalog);
  } catch (const GpuUnavailable& e) {
    std::cerr << "gpupack: no GPU available: " << e.what() << '\n';
    return exit_code_for(ErrorKind::unavailable);
  }
  return body(*backend);
}

std::string gib_text(const std::optional<std::uint64_t>& bytes) {
  if (!bytes) return "-";
  return format_number(static_cast<double>(*bytes) / (1024.0 * 1024.0 * 1024.0)) + " GiB";
}

}  // namespace gpupack
