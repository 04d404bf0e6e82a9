// The checks every plan passes before anything is rendered from it, read from JSON or built by the plan
// side: the strings that reach files are what they can be, models and profiles are the catalog's.
#include <map>

#include "contract/names.hpp"
#include "contract/plan_json.hpp"
#include "contract/sharing.hpp"
#include "core/errors.hpp"
#include "core/text.hpp"

namespace gpupack {

namespace {

[[noreturn]] void plan_bad(const std::string& path, const std::string& expected) {
  throw InputError("plan JSON: " + path + ": expected " + expected);
}

std::string indexed_path(const std::string& path, size_t index) { return path + "[" + std::to_string(index) + "]"; }

// The model of a GPU: a catalog name (any alias).
const GpuModel& catalog_model(const std::string& name, const std::string& path, const GpuCatalog& catalog) {
  const GpuModel* model = catalog.find(name);
  if (!model) {
    plan_bad(path, "a GPU model of the catalog (gpupack catalog lists them; '" + quote_input(name) + "' is not one)");
  }
  return *model;
}

// A MIG profile of `model`, as the catalog names it ("3g.40gb").
std::string profile_of(const GpuModel& model, const std::string& path, const std::string& profile) {
  if (!model.supports_mig()) plan_bad(path, "no MIG profile: " + model.name + " has no MIG");
  const int index = model.mig->find_profile(profile);
  if (index < 0) {
    plan_bad(path, "a MIG profile of " + model.name + " (" + model.mig->profile_names() + "; '" + quote_input(profile) +
                  "' is not one)");
  }
  return model.mig->profiles[static_cast<size_t>(index)].name;
}

}  // namespace

DocWorkloadDeploy deploy_of(const PlanDocument& plan, const std::string& workload) {
  for (const auto& w : plan.workloads) {
    if (w.workload == workload) return w;
  }
  DocWorkloadDeploy d;
  d.workload = workload;
  return d;
}

void number_gpus_by_node(PlanDocument& plan) {
  plan.nodes.clear();
  std::map<std::string, int> per_node_count;
  for (DocGpu& gpu : plan.gpus) {
    if (!per_node_count.count(gpu.node)) plan.nodes.push_back(gpu.node);
    gpu.index = per_node_count[gpu.node]++;
  }
}

void check_plan_document(PlanDocument& plan, const GpuCatalog& catalog) {
  size_t placement = 0;
  for (size_t i = 0; i < plan.gpus.size(); ++i) {
    DocGpu& gpu = plan.gpus[i];
    const std::string path = indexed_path("$.gpus", i);
    require_plain_id(path + ".id", gpu.id);
    require_dns1123_subdomain(path + ".node", gpu.node);
    const GpuModel& model = catalog_model(gpu.model, path + ".model", catalog);
    gpu.model = model.name;
    if (gpu.mode.uses_mig && !model.supports_mig()) plan_bad(path + ".mode", "a mode without MIG: " + model.name + " has no MIG");
    for (size_t k = 0; k < gpu.mig.size(); ++k) {
      gpu.mig[k].profile = profile_of(model, indexed_path(path + ".mig", k) + ".profile", gpu.mig[k].profile);
    }
    for (size_t k = 0; k < gpu.slices.size(); ++k) {
      DocSlice& slice = gpu.slices[k];
      const std::string spath = indexed_path(path + ".slices", k);
      require_plain_id(spath + ".id", slice.id);
      if (slice.profile) slice.profile = profile_of(model, spath + ".profile", *slice.profile);
      for (const DocPlacement& c : slice.clients) {
        const std::string ppath = indexed_path("$.placements", placement++);
        require_dns1123_label(ppath + ".workload", c.workload);
        require_label_value(ppath + ".tenant", c.tenant);
      }
    }
  }
  for (size_t i = 0; i < plan.workloads.size(); ++i) {
    const DocWorkloadDeploy& w = plan.workloads[i];
    const std::string path = indexed_path("$.workloads", i);
    require_dns1123_label(path + ".name", w.workload);
    if (w.image) require_image_reference(path + ".image", *w.image);
    if (w.namespace_) require_dns1123_label(path + ".namespace", *w.namespace_);
    if (w.schedule) require_cron_schedule(path + ".schedule", *w.schedule);
    if ((w.kind == DeployKind::cron_job) != w.schedule.has_value()) {
      plan_bad(path + ".schedule", "a schedule exactly when kind is cronjob");
    }
    if (w.cpu && !(*w.cpu > 0 && *w.cpu <= 1024)) plan_bad(path + ".cpu", "cores between 0 and 1024");
  }
  number_gpus_by_node(plan);
}

}  // namespace gpupack
