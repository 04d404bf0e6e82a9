// Target `cdi`: CDI 1.1.0 spec files, one per node, kind gpupack.io/gpu. A device per slice; on MPS
// slices a device per client, carrying that client's MPS environment and the pipe directory mount.
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "render/names.hpp"
#include "render/targets.hpp"

namespace gpupack {

namespace {

using Json = nlohmann::ordered_json;

// NVIDIA_VISIBLE_DEVICES value: "<gpu index>" or "<gpu index>:<MIG device ordinal>".
std::string visible_device(const RenderGpu& gpu, const RenderSlice& slice) {
  if (!slice.profile) return std::to_string(gpu.index);
  int ordinal = 0;
  for (const auto& s : gpu.slices) {
    if (&s == &slice) break;
    if (s.profile) ++ordinal;
  }
  return std::to_string(gpu.index) + ":" + std::to_string(ordinal);
}

Json slice_device(const std::string& name, const RenderGpu& gpu, const RenderSlice& slice, const RenderClient* client) {
  Json env = Json::array({"NVIDIA_VISIBLE_DEVICES=" + visible_device(gpu, slice)});
  Json edits = Json::object();
  if (!slice.profile) edits["deviceNodes"] = Json::array({{{"path", "/dev/nvidia" + std::to_string(gpu.index)}}});
  if (client && slice.sharing == "mps") {
    const MpsDaemonNames n = mps_daemon_names(gpu, slice);
    env.push_back("CUDA_MPS_PIPE_DIRECTORY=" + n.pipe_dir);
    if (client->active_thread_percentage) {
      env.push_back("CUDA_MPS_ACTIVE_THREAD_PERCENTAGE=" + std::to_string(*client->active_thread_percentage));
    }
    env.push_back("CUDA_MPS_PINNED_DEVICE_MEM_LIMIT=0=" + mps_memory_value(client->memory_limit_bytes));
    edits["mounts"] = Json::array(
        {{{"hostPath", n.pipe_dir}, {"containerPath", n.pipe_dir}, {"options", Json::array({"rbind", "rw"})}},
         {{"hostPath", "/dev/shm"}, {"containerPath", "/dev/shm"}, {"options", Json::array({"rbind", "rw"})}}});
  }
  edits["env"] = env;
  return {{"name", name}, {"containerEdits", edits}};
}

}  // namespace

TargetOutput render_cdi_target(const RenderPlan& plan) {
  TargetOutput out;
  for (const auto& node : plan.nodes) {
    Json devices = Json::array();
    for (const auto& gpu : plan.gpus) {
      if (gpu.node != node) continue;
      for (const auto& slice : gpu.slices) {
        const std::string base = to_dns1123_label(slice.profile ? gpu.id + "-" + slice.id : gpu.id);
        if (slice.sharing == "mps") {
          for (const auto& c : slice.clients) {
            devices.push_back(slice_device(base + "-" + c.workload + "-" + std::to_string(c.replica), gpu, slice, &c));
          }
        } else {
          devices.push_back(slice_device(base, gpu, slice, nullptr));
        }
      }
    }
    Json spec = {{"cdiVersion", "1.1.0"},
                 {"kind", "gpupack.io/gpu"},
                 {"devices", devices},
                 {"containerEdits",
                  {{"deviceNodes", Json::array({{{"path", "/dev/nvidiactl"}}, {{"path", "/dev/nvidia-uvm"}}})}}}};
    out.files.push_back({"cdi/" + node + "/gpupack.io-gpu.json", spec.dump(2) + "\n", 0644});
  }
  if (!out.files.empty()) {
    out.readme.push_back(
        "cdi/<node>/gpupack.io-gpu.json: CDI 1.1.0 specs (kind gpupack.io/gpu) for each node's devices: one per\n"
        "slice, and on MPS slices one per client with its CUDA_MPS_* environment and the pipe directory mount.\n"
        "Copy to /etc/cdi/ on the node (the gpupack agent writes them to /var/run/cdi itself); containers then\n"
        "request e.g. gpupack.io/gpu=<name>.");
  }
  return out;
}

}  // namespace gpupack
