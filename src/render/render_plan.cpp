#include "render/render_plan.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "core/errors.hpp"
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

const std::set<std::string> kSharing{"exclusive", "time-slicing", "mps", "streams"};
const std::set<std::string> kModes{"exclusive", "time-slicing", "mps", "mig", "mig+mps", "mig+time-slicing"};
constexpr long long kMaxBytes = 1LL << 50;  // 1 PiB: far above any GPU

}  // namespace

RenderPlan render_plan_from_json(const json& plan) {
  if (!plan.is_object()) bad("$", "a JSON object (the output of gpupack plan --format json)");
  RenderPlan out;
  std::map<std::string, int> per_node_count;
  std::map<std::string, size_t> gpu_index_by_id;
  const json& gpus = array_field(plan, "$", "gpus");
  for (size_t i = 0; i < gpus.size(); ++i) {
    const std::string path = "$.gpus[" + std::to_string(i) + "]";
    RenderGpu gpu;
    gpu.id = id_field(gpus[i], path, "id");
    require_script_safe(path + ".id", gpu.id);
    gpu.node = optional_string(gpus[i], path, "node").value_or("node-0");
    require_dns1123_label(path + ".node", gpu.node);
    gpu.model = string_field(gpus[i], path, "model");
    gpu.mode = string_field(gpus[i], path, "mode");
    if (!kModes.count(gpu.mode)) bad(path + ".mode", "one of exclusive, time-slicing, mps, mig, mig+mps, mig+time-slicing");
    if (gpu_index_by_id.count(gpu.id)) bad(path + ".id", "a unique GPU id ('" + gpu.id + "' repeats)");
    if (!per_node_count.count(gpu.node)) out.nodes.push_back(gpu.node);
    gpu.index = per_node_count[gpu.node]++;
    if (gpus[i].contains("mig") && !gpus[i].at("mig").is_null()) {
      const json& mig = array_field(gpus[i], path, "mig");
      for (size_t k = 0; k < mig.size(); ++k) {
        const std::string mpath = path + ".mig[" + std::to_string(k) + "]";
        RenderMigInstance inst{string_field(mig[k], mpath, "profile"), static_cast<int>(int_field(mig[k], mpath, "start", 0, 16)),
                               static_cast<int>(int_field(mig[k], mpath, "size", 1, 16))};
        require_script_safe(mpath + ".profile", inst.profile);
        gpu.mig.push_back(inst);
      }
    }
    const json& slices = array_field(gpus[i], path, "slices");
    for (size_t k = 0; k < slices.size(); ++k) {
      const std::string spath = path + ".slices[" + std::to_string(k) + "]";
      RenderSlice s;
      s.id = id_field(slices[k], spath, "id");
      require_script_safe(spath + ".id", s.id);
      s.profile = optional_string(slices[k], spath, "profile");
      if (s.profile) require_script_safe(spath + ".profile", *s.profile);
      if (slices[k].contains("start") && slices[k].at("start").is_number_integer()) {
        s.mig_start = slices[k].at("start").get<int>();
      }
      s.sharing = string_field(slices[k], spath, "sharing");
      if (!kSharing.count(s.sharing)) bad(spath + ".sharing", "one of exclusive, time-slicing, mps, streams");
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
    c.memory_limit_bytes = static_cast<std::uint64_t>(int_field(p, path, "memory_limit_bytes", 1, kMaxBytes));
    if (p.contains("mps_active_thread_percentage") && !p.at("mps_active_thread_percentage").is_null()) {
      c.active_thread_percentage = static_cast<int>(int_field(p, path, "mps_active_thread_percentage", 1, 100));
    }
    const std::string gpu_id = id_field(p, path, "gpu");
    const std::string slice_id = id_field(p, path, "slice");
    const auto g = gpu_index_by_id.find(gpu_id);
    if (g == gpu_index_by_id.end()) bad(path + ".gpu", "the id of a GPU in $.gpus ('" + gpu_id + "' is not one)");
    auto& slices = out.gpus[g->second].slices;
    const auto s = std::find_if(slices.begin(), slices.end(), [&](const RenderSlice& x) { return x.id == slice_id; });
    if (s == slices.end()) bad(path + ".slice", "the id of a slice of GPU " + gpu_id + " ('" + slice_id + "' is not one)");
    s->clients.push_back(std::move(c));
  }
  return out;
}

}  // namespace gpupack
