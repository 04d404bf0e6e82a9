#include "render/render_targets.hpp"

#include <algorithm>

#include "core/errors.hpp"
#include "render/agent_manifests.hpp"
#include "render/targets.hpp"

namespace gpupack {

namespace {

// In the order files are applied on a cluster: MIG layout, node daemons, plugin config, workloads.
constexpr RenderTarget kAll[] = {RenderTarget::mig_parted,    RenderTarget::mps,           RenderTarget::cdi,
                                 RenderTarget::gpupack_agent, RenderTarget::k8s_device_plugin,
                                 RenderTarget::node_template, RenderTarget::k8s_workloads, RenderTarget::dra};

std::string accepted_names() {
  std::string s = "all";
  for (RenderTarget t : kAll) s += ", " + std::string(to_string(t));
  return s;
}

}  // namespace

std::string_view to_string(RenderTarget target) {
  switch (target) {
    case RenderTarget::mps: return "mps";
    case RenderTarget::k8s_device_plugin: return "k8s-device-plugin";
    case RenderTarget::mig_parted: return "mig-parted";
    case RenderTarget::k8s_workloads: return "k8s-workloads";
    case RenderTarget::node_template: return "node-template";
    case RenderTarget::gpupack_agent: return "gpupack-agent";
    case RenderTarget::cdi: return "cdi";
    case RenderTarget::dra: return "dra";
  }
  return "";
}

std::vector<RenderTarget> parse_render_targets(std::string_view list) {
  std::vector<RenderTarget> out;
  size_t pos = 0;
  while (pos <= list.size()) {
    const size_t comma = std::min(list.find(',', pos), list.size());
    const std::string_view name = list.substr(pos, comma - pos);
    pos = comma + 1;
    if (name == "all") {
      out.assign(std::begin(kAll), std::end(kAll));
      continue;
    }
    const auto it = std::find_if(std::begin(kAll), std::end(kAll), [&](RenderTarget t) { return to_string(t) == name; });
    if (it == std::end(kAll)) {
      throw InputError("unknown render target '" + std::string(name) + "'; accepted: " + accepted_names());
    }
    if (std::find(out.begin(), out.end(), *it) == out.end()) out.push_back(*it);
  }
  // Apply order, whatever order the user listed.
  std::sort(out.begin(), out.end(), [](RenderTarget a, RenderTarget b) {
    return std::find(std::begin(kAll), std::end(kAll), a) < std::find(std::begin(kAll), std::end(kAll), b);
  });
  return out;
}

namespace {

bool has_file(const FileTree& files, const std::string& path) {
  return std::any_of(files.begin(), files.end(), [&](const RenderedFile& f) { return f.path == path; });
}

// kustomization.yaml: what `kubectl apply -k` deploys for the consumer: its device plugin side (the
// gpupack agent with every node's config, or nothing to add for NVIDIA's plugin, whose ConfigMap goes to
// the GPU Operator's namespace by hand) and the workloads that request what it advertises.
std::optional<RenderedFile> kustomization(const PlanDocument& plan, const FileTree& files, Consumer consumer) {
  std::vector<std::string> resources;
  std::vector<std::string> nodes;
  if (consumer == Consumer::dra) {
    for (const char* f : {"dra/resourceclaims.yaml", "dra/deployments.yaml"}) {
      if (has_file(files, f)) resources.push_back(f);
    }
  } else {
    if (consumer == Consumer::gpupack_agent && has_file(files, "gpupack-agent/agent.yaml")) {
      resources.push_back("gpupack-agent/agent.yaml");
      nodes = plan.nodes;
    }
    if (has_file(files, "k8s-workloads/deployments.yaml")) resources.push_back("k8s-workloads/deployments.yaml");
  }
  if (resources.empty()) return std::nullopt;
  return RenderedFile{"kustomization.yaml", kustomization_yaml(resources, nodes), 0644};
}

// For NVIDIA's plugin or DRA driver: the version whose behaviour gpupack's rules were checked against, and
// the consumer the plan was made for (render --deploy-with may name another: its targets refuse what it
// cannot express).
std::string consumer_note(const PlanDocument& plan, Consumer consumer) {
  if (consumer == Consumer::gpupack_agent && plan.deploy_with == consumer) return "";
  return " (what it can express checked against " + std::string(checked_version(consumer)) + ";\nthe plan was made for the " +
         std::string(to_string(plan.deploy_with)) + ")";
}

}  // namespace

FileTree render_targets(const PlanDocument& plan, const std::vector<RenderTarget>& targets, const GpuCatalog& catalog,
                        Consumer consumer) {
  FileTree files;
  std::string readme =
      "Files rendered by gpupack from a plan, for pods served by the " + std::string(to_string(consumer)) +
      consumer_note(plan, consumer) + ". Sections are in the order to apply them.\n"
      "The plan's node names are the Kubernetes node names the files select (set them with the fleet's\n"
      "node_names; docs/workloads.md). On a cluster, `kubectl apply -k <this directory>` applies\n"
      "kustomization.yaml: the device plugin side and the workloads, in one step.\n";
  int step = 1;
  for (RenderTarget t : targets) {
    TargetOutput o;
    switch (t) {
      case RenderTarget::mps: o = render_mps_target(plan); break;
      case RenderTarget::k8s_device_plugin: o = render_device_plugin_target(plan, catalog); break;
      case RenderTarget::mig_parted: o = render_mig_parted_target(plan); break;
      case RenderTarget::k8s_workloads: o = render_workloads_target(plan, catalog, consumer == Consumer::dra ? Consumer::gpupack_agent : consumer); break;
      case RenderTarget::node_template: o = render_node_template_target(plan, catalog); break;
      case RenderTarget::gpupack_agent: o = render_agent_config_target(plan); break;
      case RenderTarget::cdi: o = render_cdi_target(plan, catalog); break;
      case RenderTarget::dra: o = render_dra_target(plan, catalog); break;
    }
    readme += "\n" + std::to_string(step++) + ". " + std::string(to_string(t)) + "\n";
    if (o.readme.empty()) {
      readme += "   nothing to render: the plan does not use what this target configures.\n";
    }
    for (const auto& paragraph : o.readme) readme += paragraph + "\n";
    files.insert(files.end(), o.files.begin(), o.files.end());
  }
  if (const auto k = kustomization(plan, files, consumer)) files.push_back(*k);
  files.push_back({"README.txt", readme, 0644});
  return files;
}

}  // namespace gpupack
