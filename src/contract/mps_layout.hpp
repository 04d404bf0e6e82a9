#pragma once
// Where an MPS control daemon keeps its pipe directory (the control socket clients connect through) and
// its log directory. Two deployments use it: the rendered scripts (`gpupack render --target mps`, the
// CDI specs of its clients: /var/run/gpupack/mps/<node>-<gpu>[-<slice>] and /var/log/gpupack/mps/...)
// and the agent (node.yaml's mps_root: <mps_root>/<GPU or MIG UUID>/{pipe,log}). Both resolve a daemon's
// directories through mps_directories, so a daemon and its clients cannot disagree.
#include <optional>
#include <string>
#include <string_view>

namespace gpupack {

struct MpsLayout {
  std::string pipe_root;
  std::string log_root;
  std::string pipe_leaf;  // appended below the daemon's folder ("" or "/pipe")
  std::string log_leaf;
};

struct MpsDirectories {
  std::string pipe_dir;  // CUDA_MPS_PIPE_DIRECTORY
  std::string log_dir;   // CUDA_MPS_LOG_DIRECTORY
};

// <pipe_root>/<daemon><pipe_leaf> and <log_root>/<daemon><log_leaf>.
MpsDirectories mps_directories(const MpsLayout& layout, std::string_view daemon);

// The rendered files' layout: /var/run/gpupack/mps/<daemon> and /var/log/gpupack/mps/<daemon>.
MpsLayout rendered_mps_layout();
// The agent's layout under node.yaml's mps_root: <mps_root>/<daemon>/pipe and <mps_root>/<daemon>/log.
MpsLayout agent_mps_layout(const std::string& mps_root);

// A rendered daemon's name: "<node>-<gpu>" for a whole GPU, "<node>-<gpu>-<slice>" for a MIG instance.
std::string rendered_mps_daemon_name(std::string_view node, std::string_view gpu_id,
                                     const std::optional<std::string>& mig_slice_id);

}  // namespace gpupack
