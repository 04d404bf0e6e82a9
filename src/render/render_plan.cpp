#include "render/render_plan.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "core/errors.hpp"
#include "core/text.hpp"
#include "render/names.hpp"

namespace gpupack {

namespace {

using nlohmann::json;

[[noreturn]] void bad(const std::string& path, const std::string& expected) {
  throw InputError("plan JSON: " + path + ": expected " + expected);
}

const json& field(const json& obj, const std::string& path, const char* key) {
  if (!obj.is_object() || !obj.contains(key)) bad(path + "." + key, "a value (field missing)");
  return obj.at(key);
}

std::string string_field(const json& obj, const std::string& path, const char* key) {
  const json& v = field(obj, path, key);
  if (!v.is_string()) bad(path + "." + key, "a string");
  return v.get<std::string>();
}

// Slice ids may be numbers or strings in the plan; the render uses them as strings.
std::string id_field(const json& obj, const std::string& path, const char* key) {
  const json& v = field(obj, path, key);
  if (v.is_number_integer()) return std::to_string(v.get<long long>());
  if (!v.is_string()) bad(path + "." + key, "a string or an integer");
  return v.get<std::string>();
}

long long int_field(const json& obj, const std::string& path, const char* key, long long lo, long long hi) {
  const json& v = field(obj, path, key);
  if (!v.is_number_integer() || v.get<long long>() < lo || v.get<long long>() > hi) {
    bad(path + "." + key, "an integer in " + std::to_string(lo) + ".." + std::to_string(hi));
  }
  return v.get<long long>();
}

std::optional<std::string> optional_string(const json& obj, const std::string& path, const char* key) {
  if (!obj.contains(key) || obj.at(key).is_null()) return std::nullopt;
  if (!obj.at(key).is_string()) bad(path + "." + key, "a string or null");
  return obj.at(key).get<std::string>();
}

const json& array_field(const json& obj, const std::string& path, const char* key) {
  const json& v = field(obj, path, key);
  if (!v.is_array()) bad(path + "." + key, "an array");
  return v;
}

// The model of a GPU: a catalog name (any alias), kept as the catalog's canonical name.
const GpuModel& model_field(const json& gpu, const std::string& path, const GpuCatalog& catalog) {
  const std::string name = string_field(gpu, path, "model");
  const GpuModel* model = catalog.find(name);
  if (!model) {
    bad(path + ".model", "a GPU model of the catalog (gpupack catalog lists them; '" + quote_input(name) + "' is not one)");
  }
  return *model;
}

// A MIG profile of `model`, as the catalog names it ("3g.40gb").
std::string profile_of(const GpuModel& model, const std::string& path, const std::string& profile) {
  if (!model.supports_mig()) bad(path, "no MIG profile: " + model.name + " has no MIG");
  const int index = model.mig->find_profile(profile);
  if (index < 0) {
    bad(path, "a MIG profile of " + model.name + " (" + model.mig->profile_names() + "; '" + quote_input(profile) +
                  "' is not one)");
  }
  return model.mig->profiles[static_cast<size_t>(index)].name;
}

constexpr long long kMaxBytes = 1LL << 50;  // 1 PiB: far above any GPU

}  // namespace

RenderPlan render_plan_from_json(const json& plan) { return render_plan_from_json(plan, builtin_catalog()); }

RenderPlan render_plan_from_json(const json& plan, const GpuCatalog& catalog) {
  if (!plan.is_object()) bad("$", "a JSON object (the output of gpupack plan --format json)");
  if (int_field(plan, "$", "schema_version", 0, 1LL << 40) != kPlanSchemaVersion) {
    bad("$.schema_version", std::to_string(kPlanSchemaVersion) + " (this gpupack reads plan schema version " +
                                std::to_string(kPlanSchemaVersion) + "; re-run gpupack plan --format json)");
  }
  RenderPlan out;
  std::map<std::string, int> per_node_count;
  std::map<std::string, size_t> gpu_index_by_id;
  const json& gpus = array_field(plan, "$", "gpus");
  for (size_t i = 0; i < gpus.size(); ++i) {
    const std::string path = "$.gpus[" + std::to_string(i) + "]";
    RenderGpu gpu;
    gpu.id = id_field(gpus[i], path, "id");
    require_plain_id(path + ".id", gpu.id);
    gpu.node = optional_string(gpus[i], path, "node").value_or("node-0");
    require_dns1123_label(path + ".node", gpu.node);
    const GpuModel& model = model_field(gpus[i], path, catalog);
    gpu.model = model.name;
    const auto mode = parse_gpu_mode(string_field(gpus[i], path, "mode"));
    if (!mode) bad(path + ".mode", "one of " + std::string(kGpuModeNames));
    gpu.mode = *mode;
    if (is_mig(gpu.mode) && !model.supports_mig()) bad(path + ".mode", "a mode without MIG: " + model.name + " has no MIG");
    if (gpu_index_by_id.count(gpu.id)) bad(path + ".id", "a unique GPU id ('" + gpu.id + "' repeats)");
    if (!per_node_count.count(gpu.node)) out.nodes.push_back(gpu.node);
    gpu.index = per_node_count[gpu.node]++;
    if (gpus[i].contains("mig") && !gpus[i].at("mig").is_null()) {
      const json& mig = array_field(gpus[i], path, "mig");
      for (size_t k = 0; k < mig.size(); ++k) {
        const std::string mpath = path + ".mig[" + std::to_string(k) + "]";
        RenderMigInstance inst{profile_of(model, mpath + ".profile", string_field(mig[k], mpath, "profile")),
                               static_cast<int>(int_field(mig[k], mpath, "start", 0, 16)),
                               static_cast<int>(int_field(mig[k], mpath, "size", 1, 16))};
        gpu.mig.push_back(inst);
      }
    }
    const json& slices = array_field(gpus[i], path, "slices");
    for (size_t k = 0; k < slices.size(); ++k) {
      const std::string spath = path + ".slices[" + std::to_string(k) + "]";
      RenderSlice s;
      s.id = id_field(slices[k], spath, "id");
      require_plain_id(spath + ".id", s.id);
      if (std::any_of(gpu.slices.begin(), gpu.slices.end(), [&](const RenderSlice& x) { return x.id == s.id; })) {
        bad(spath + ".id", "a slice id unique within its GPU ('" + s.id + "' repeats)");
      }
      s.profile = optional_string(slices[k], spath, "profile");
      if (s.profile) s.profile = profile_of(model, spath + ".profile", *s.profile);
      if (slices[k].contains("start") && slices[k].at("start").is_number_integer()) {
        s.mig_start = static_cast<int>(int_field(slices[k], spath, "start", 0, 16));
      }
      const auto sharing = parse_sharing(string_field(slices[k], spath, "sharing"));
      if (!sharing) bad(spath + ".sharing", "one of " + std::string(kSharingNames));
      s.sharing = *sharing;
      s.memory_bytes = static_cast<std::uint64_t>(int_field(slices[k], spath, "memory_bytes", 1, kMaxBytes));
      gpu.slices.push_back(std::move(s));
    }
    gpu_index_by_id[gpu.id] = out.gpus.size();
    out.gpus.push_back(std::move(gpu));
  }

  const json& placements = array_field(plan, "$", "placements");
  for (size_t i = 0; i < placements.size(); ++i) {
    const std::string path = "$.placements[" + std::to_string(i) + "]";
    const json& p = placements[i];
    RenderClient c;
    c.workload = string_field(p, path, "workload");
    require_dns1123_label(path + ".workload", c.workload);
    c.replica = static_cast<int>(int_field(p, path, "replica", 0, 1000000));
    c.tenant = optional_string(p, path, "tenant").value_or("default");
    require_label_value(path + ".tenant", c.tenant);
    c.memory_limit_bytes = static_cast<std::uint64_t>(int_field(p, path, "memory_limit_bytes", 1, kMaxBytes));
    if (p.contains("mps_active_thread_percentage") && !p.at("mps_active_thread_percentage").is_null()) {
      c.active_thread_percentage = static_cast<int>(int_field(p, path, "mps_active_thread_percentage", 1, 100));
    }
    const std::string gpu_id = id_field(p, path, "gpu");
    const std::string slice_id = id_field(p, path, "slice");
    const auto g = gpu_index_by_id.find(gpu_id);
    if (g == gpu_index_by_id.end()) bad(path + ".gpu", "the id of a GPU in $.gpus ('" + quote_input(gpu_id) + "' is not one)");
    auto& slices = out.gpus[g->second].slices;
    const auto s = std::find_if(slices.begin(), slices.end(), [&](const RenderSlice& x) { return x.id == slice_id; });
    if (s == slices.end()) bad(path + ".slice", "the id of a slice of GPU " + gpu_id + " ('" + quote_input(slice_id) + "' is not one)");
    s->clients.push_back(std::move(c));
  }
  return out;
}

}  // namespace gpupack
