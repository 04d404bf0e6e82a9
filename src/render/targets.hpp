#pragma once
// The render targets: each turns a PlanDocument into files (pure; no I/O). README.txt notes come back
// with the files so the caller can assemble one README for everything rendered.
#include <string>
#include <vector>

#include "core/consumer.hpp"
#include "core/gpu_catalog.hpp"
#include "render/file_tree.hpp"
#include "contract/plan_json.hpp"

namespace gpupack {

struct TargetOutput {
  FileTree files;
  std::vector<std::string> readme;  // paragraphs for README.txt: what the files are, the order to apply
};

// Where the MPS pipe and log directories of one daemon live on the node, and what it is called.
struct MpsDaemonNames {
  std::string name;      // "gpu0" for a whole GPU, "gpu0-mig1" for a MIG instance
  std::string pipe_dir;  // /var/run/gpupack/mps/<name>
  std::string log_dir;   // /var/log/gpupack/mps/<name>
};
MpsDaemonNames mps_daemon_names(const DocGpu& gpu, const DocSlice& slice);

TargetOutput render_mps_target(const PlanDocument& plan);
TargetOutput render_device_plugin_target(const PlanDocument& plan, const GpuCatalog& catalog);
TargetOutput render_mig_parted_target(const PlanDocument& plan);
// Pods request what `consumer` advertises (gpupack-agent or nvidia-device-plugin; dra has its own target).
TargetOutput render_workloads_target(const PlanDocument& plan, const GpuCatalog& catalog, Consumer consumer);
// The namespaces the plan's workloads name (deploy.namespace), sorted.
std::vector<std::string> workload_namespaces(const PlanDocument& plan);

// Empty when the NVIDIA device plugin can express every GPU of the node; otherwise what it cannot.
std::vector<std::string> nvidia_plugin_problems(const PlanDocument& plan, const GpuCatalog& catalog,
                                                const std::string& node);
TargetOutput render_node_template_target(const PlanDocument& plan, const GpuCatalog& catalog);
TargetOutput render_agent_config_target(const PlanDocument& plan);
TargetOutput render_cdi_target(const PlanDocument& plan, const GpuCatalog& catalog);
// Target `dra`: a ResourceClaim per slice (NVIDIA's DRA driver: GpuConfig / MigDeviceConfig sharing) and
// Deployments referencing them. Throws InputError for a GPU without a catalog model or an unknown profile.
TargetOutput render_dra_target(const PlanDocument& plan, const GpuCatalog& catalog);


}  // namespace gpupack
