#pragma once
// `gpupack render`: selects targets and assembles their files and one README.txt.
#include <string_view>
#include <vector>

#include "core/consumer.hpp"
#include "core/gpu_catalog.hpp"
#include "render/file_tree.hpp"
#include "contract/plan_json.hpp"

namespace gpupack {

enum class RenderTarget { mps, k8s_device_plugin, mig_parted, k8s_workloads, node_template, gpupack_agent, cdi, dra };

std::string_view to_string(RenderTarget target);
// "mps,cdi" or "all"; throws InputError naming an unknown target and listing the accepted ones.
std::vector<RenderTarget> parse_render_targets(std::string_view list);

// The files of the selected targets plus README.txt (what each file is for, and the order to apply) and
// kustomization.yaml (`kubectl apply -k`: the consumer's side and the workloads its pods request).
FileTree render_targets(const PlanDocument& plan, const std::vector<RenderTarget>& targets, const GpuCatalog& catalog,
                        Consumer consumer = Consumer::gpupack_agent);

}  // namespace gpupack
