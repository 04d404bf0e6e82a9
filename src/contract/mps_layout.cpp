#include "contract/mps_layout.hpp"

namespace gpupack {

MpsDirectories mps_directories(const MpsLayout& layout, std::string_view daemon) {
  const std::string name(daemon);
  return {layout.pipe_root + "/" + name + layout.pipe_leaf, layout.log_root + "/" + name + layout.log_leaf};
}

MpsLayout rendered_mps_layout() { return {"/var/run/gpupack/mps", "/var/log/gpupack/mps", "", ""}; }

MpsLayout agent_mps_layout(const std::string& mps_root) { return {mps_root, mps_root, "/pipe", "/log"}; }

std::string rendered_mps_daemon_name(std::string_view node, std::string_view gpu_id,
                                     const std::optional<std::string>& mig_slice_id) {
  std::string name = std::string(node) + "-" + std::string(gpu_id);
  if (mig_slice_id) name += "-" + *mig_slice_id;
  return name;
}

}  // namespace gpupack
