// The plan JSON's reader (docs/plan-schema.md): structure, types and ranges here, then the names and the
// catalog through check_plan_document, which plans built by the plan side go through too.
#include <algorithm>
#include <map>

#include "contract/model_parameters_record.hpp"
#include "contract/names.hpp"
#include "contract/plan_json.hpp"
#include "contract/sharing.hpp"
#include "core/errors.hpp"
#include "core/text.hpp"

namespace gpupack {

namespace {

using nlohmann::json;

[[noreturn]] void bad(const std::string& path, const std::string& expected) {
  throw InputError("plan JSON: " + path + ": expected " + expected);
}

std::string at(const std::string& path, size_t index) { return path + "[" + std::to_string(index) + "]"; }

const json& field(const json& obj, const std::string& path, const char* key) {
  if (!obj.is_object() || !obj.contains(key)) bad(path + "." + key, "a value (field missing)");
  return obj.at(key);
}

// A field the render does not need: absent and null read as none.
const json* optional_field(const json& obj, const std::string& path, const char* key) {
  if (!obj.is_object()) bad(path, "a JSON object");
  const auto it = obj.find(key);
  return it == obj.end() || it->is_null() ? nullptr : &*it;
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
  const json* v = optional_field(obj, path, key);
  if (!v) return std::nullopt;
  if (!v->is_string()) bad(path + "." + key, "a string or null");
  return v->get<std::string>();
}

std::optional<double> optional_number(const json& obj, const std::string& path, const char* key) {
  const json* v = optional_field(obj, path, key);
  if (!v) return std::nullopt;
  if (!v->is_number()) bad(path + "." + key, "a number or null");
  return v->get<double>();
}

std::optional<long long> optional_int(const json& obj, const std::string& path, const char* key, long long lo,
                                      long long hi) {
  if (!optional_field(obj, path, key)) return std::nullopt;
  return int_field(obj, path, key, lo, hi);
}

bool bool_or(const json& obj, const std::string& path, const char* key, bool otherwise) {
  const json* v = optional_field(obj, path, key);
  if (!v) return otherwise;
  if (!v->is_boolean()) bad(path + "." + key, "true, false or null");
  return v->get<bool>();
}

const json& array_field(const json& obj, const std::string& path, const char* key) {
  const json& v = field(obj, path, key);
  if (!v.is_array()) bad(path + "." + key, "an array");
  return v;
}

// An array the render does not need: absent and null read as empty.
const json& optional_array(const json& obj, const std::string& path, const char* key) {
  static const json empty = json::array();
  return optional_field(obj, path, key) ? array_field(obj, path, key) : empty;
}

constexpr long long kMaxBytes = 1LL << 50;  // 1 PiB: far above any GPU
constexpr long long kMaxCount = 1LL << 40;

Sharing sharing_field(const json& obj, const std::string& path) {
  const auto sharing = parse_sharing(string_field(obj, path, "sharing"));
  if (!sharing) bad(path + ".sharing", "one of " + sharing_names());
  return *sharing;
}

GpuMode mode_field(const json& obj, const std::string& path) {
  const auto mode = parse_gpu_mode(string_field(obj, path, "mode"));
  if (!mode) bad(path + ".mode", "one of " + gpu_mode_names());
  return *mode;
}

DocProcess read_process(const json& c, const std::string& path) {
  DocProcess p;
  p.process = static_cast<int>(optional_int(c, path, "process", 0, kMaxCount).value_or(0));
  const json& replicas = optional_array(c, path, "replicas");
  for (size_t i = 0; i < replicas.size(); ++i) {
    p.replicas.push_back({string_field(replicas[i], at(path + ".replicas", i), "workload"),
                          static_cast<int>(int_field(replicas[i], at(path + ".replicas", i), "replica", 0, 1000000))});
  }
  p.memory_limit_bytes = static_cast<std::uint64_t>(optional_int(c, path, "memory_limit_bytes", 0, kMaxBytes).value_or(0));
  p.compute = optional_number(c, path, "compute").value_or(0);
  if (const auto atp = optional_int(c, path, "mps_active_thread_percentage", 1, 100)) p.mps_active_thread_percentage = *atp;
  p.predicted_p99_inflation = optional_number(c, path, "predicted_p99_inflation").value_or(1.0);
  if (const json* pj = optional_field(c, path, "prediction")) {
    const std::string ppath = path + ".prediction";
    DocPrediction pred;
    pred.source = optional_string(*pj, ppath, "source").value_or("");
    pred.p99_ms = optional_number(*pj, ppath, "p99_ms");
    pred.req_per_s = optional_number(*pj, ppath, "req_per_s");
    pred.extrapolated = bool_or(*pj, ppath, "extrapolated", false);
    pred.host_cores = optional_number(*pj, ppath, "host_cores");
    const json& notes = optional_array(*pj, ppath, "notes");
    for (size_t i = 0; i < notes.size(); ++i) {
      if (!notes[i].is_string()) bad(at(ppath + ".notes", i), "a string");
      pred.notes.push_back(notes[i].get<std::string>());
    }
    if (const json* oj = optional_field(*pj, ppath, "observed")) {
      const std::string opath = ppath + ".observed";
      DocPrediction::Observed o;
      o.p99 = optional_number(*oj, opath, "p99");
      o.req_per_s = optional_number(*oj, opath, "req_per_s");
      o.replicas = static_cast<int>(optional_int(*oj, opath, "replicas", 0, kMaxCount).value_or(0));
      const json& files = optional_array(*oj, opath, "files");
      for (size_t i = 0; i < files.size(); ++i) {
        if (!files[i].is_string()) bad(at(opath + ".files", i), "a string");
        o.files.push_back(files[i].get<std::string>());
      }
      pred.observed = std::move(o);
    }
    p.prediction = std::move(pred);
  }
  return p;
}

DocSlice read_slice(const json& s, const std::string& path) {
  DocSlice slice;
  slice.id = id_field(s, path, "id");
  require_plain_id(path + ".id", slice.id);  // before placements are resolved by it, as check_plan_document does
  slice.profile = optional_string(s, path, "profile");
  if (s.contains("start") && s.at("start").is_number_integer()) {
    slice.mig_start = static_cast<int>(int_field(s, path, "start", 0, 16));
  }
  slice.sharing = sharing_field(s, path);
  slice.tenant = optional_string(s, path, "tenant").value_or("");
  slice.memory_bytes = static_cast<std::uint64_t>(int_field(s, path, "memory_bytes", 1, kMaxBytes));
  slice.compute_share = optional_number(s, path, "compute_share").value_or(1.0);
  slice.predicted_throughput = optional_number(s, path, "predicted_throughput").value_or(1.0);
  slice.predicted_sm_active = optional_number(s, path, "predicted_sm_active");
  if (slice.predicted_sm_active && !(*slice.predicted_sm_active >= 0 && *slice.predicted_sm_active <= 1)) {
    bad(path + ".predicted_sm_active", "a share from 0 to 1 or null");
  }
  const json& clients = optional_array(s, path, "clients");
  for (size_t i = 0; i < clients.size(); ++i) slice.processes.push_back(read_process(clients[i], at(path + ".clients", i)));
  return slice;
}

DocGpu read_gpu(const json& g, const std::string& path) {
  DocGpu gpu;
  gpu.id = id_field(g, path, "id");
  require_plain_id(path + ".id", gpu.id);  // before placements are resolved by it, as check_plan_document does
  gpu.node = optional_string(g, path, "node").value_or("node-0");
  gpu.model = string_field(g, path, "model");
  gpu.mode = mode_field(g, path);
  const json& mig = optional_array(g, path, "mig");
  for (size_t k = 0; k < mig.size(); ++k) {
    const std::string mpath = at(path + ".mig", k);
    gpu.mig.push_back({string_field(mig[k], mpath, "profile"), static_cast<int>(int_field(mig[k], mpath, "start", 0, 16)),
                       static_cast<int>(int_field(mig[k], mpath, "size", 1, 16))});
  }
  const json& slices = array_field(g, path, "slices");
  for (size_t k = 0; k < slices.size(); ++k) {
    DocSlice s = read_slice(slices[k], at(path + ".slices", k));
    if (std::any_of(gpu.slices.begin(), gpu.slices.end(), [&](const DocSlice& x) { return x.id == s.id; })) {
      bad(at(path + ".slices", k) + ".id", "a slice id unique within its GPU ('" + quote_input(s.id) + "' repeats)");
    }
    gpu.slices.push_back(std::move(s));
  }
  gpu.why = optional_string(g, path, "why").value_or("");
  const json& rejected = optional_array(g, path, "rejected");
  for (size_t k = 0; k < rejected.size(); ++k) {
    const std::string rpath = at(path + ".rejected", k);
    gpu.rejected.push_back({mode_field(rejected[k], rpath), optional_string(rejected[k], rpath, "breaks").value_or("")});
  }
  return gpu;
}

DocPlacement read_placement(const json& p, const std::string& path) {
  DocPlacement c;
  c.workload = string_field(p, path, "workload");
  c.replica = static_cast<int>(int_field(p, path, "replica", 0, 1000000));
  c.tenant = optional_string(p, path, "tenant").value_or("default");
  c.memory_limit_bytes = static_cast<std::uint64_t>(int_field(p, path, "memory_limit_bytes", 1, kMaxBytes));
  if (const auto atp = optional_int(p, path, "mps_active_thread_percentage", 1, 100)) c.active_thread_percentage = *atp;
  c.predicted_p99_inflation = optional_number(p, path, "predicted_p99_inflation").value_or(1.0);
  c.predicted_p99_ms = optional_number(p, path, "predicted_p99_ms");
  c.predicted_req_per_s = optional_number(p, path, "predicted_req_per_s");
  c.prediction_source = optional_string(p, path, "prediction_source").value_or("synthetic");
  c.extrapolated = bool_or(p, path, "extrapolated", false);
  c.predicted_worst_copy_p99_ms = optional_number(p, path, "predicted_worst_copy_p99_ms");
  return c;
}

void read_summary(const json& s, DocSummary& out) {
  const std::string path = "$.summary";
  out.gpus_used = static_cast<int>(optional_int(s, path, "gpus_used", 0, kMaxCount).value_or(0));
  if (const auto n = optional_int(s, path, "gpus_available", 0, kMaxCount)) out.gpus_available = static_cast<int>(*n);
  out.lower_bound_gpus = static_cast<int>(optional_int(s, path, "lower_bound_gpus", 0, kMaxCount).value_or(0));
  out.optimal = bool_or(s, path, "optimal", false);
  out.replicas = static_cast<long>(optional_int(s, path, "replicas", 0, kMaxCount).value_or(0));
  out.placed = static_cast<long>(optional_int(s, path, "placed", 0, kMaxCount).value_or(0));
  out.unplaced = static_cast<long>(optional_int(s, path, "unplaced", 0, kMaxCount).value_or(0));
  out.memory_utilisation = optional_number(s, path, "memory_utilisation").value_or(0);
  out.compute_utilisation = optional_number(s, path, "compute_utilisation").value_or(0);
  out.cost_per_hour = optional_number(s, path, "cost_per_hour");
  out.one_replica_per_gpu_cost_per_hour = optional_number(s, path, "one_replica_per_gpu_cost_per_hour");
  out.lower_bound_cost_per_hour = optional_number(s, path, "lower_bound_cost_per_hour");
  out.context_overhead_bytes =
      static_cast<std::uint64_t>(optional_int(s, path, "context_overhead_bytes", 0, kMaxBytes).value_or(0));
  out.cuda = optional_string(s, path, "cuda").value_or("");
}

DocModeRow read_mode_row(const json& m, const std::string& path) {
  DocModeRow row;
  row.mode = string_field(m, path, "mode");
  row.gpus_used = static_cast<int>(optional_int(m, path, "gpus_used", 0, kMaxCount).value_or(0));
  row.placed = static_cast<int>(optional_int(m, path, "placed", 0, kMaxCount).value_or(0));
  row.unplaced = static_cast<int>(optional_int(m, path, "unplaced", 0, kMaxCount).value_or(0));
  row.slo_misses = static_cast<int>(optional_int(m, path, "slo_misses", 0, kMaxCount).value_or(0));
  if (const auto n = optional_int(m, path, "gpus_needed", 0, kMaxCount)) row.gpus_needed = static_cast<int>(*n);
  row.worst_p99_inflation = optional_number(m, path, "worst_p99_inflation").value_or(1.0);
  row.throughput = optional_number(m, path, "throughput").value_or(1.0);
  row.breaks = optional_string(m, path, "breaks").value_or("");
  row.cost_per_hour = optional_number(m, path, "cost_per_hour");
  row.gpu_type = optional_string(m, path, "gpu_type");
  return row;
}

Consumer consumer_field(const json& obj, const std::string& path, const char* key) {
  const std::optional<std::string> text = optional_string(obj, path, key);
  if (!text) return Consumer::gpupack_agent;  // plans written before $.deploy_with: the agent's
  const std::optional<Consumer> c = parse_consumer(*text);
  if (!c) bad(path + "." + key, "one of " + std::string(kConsumerNames) + " ('" + quote_input(*text) + "' is not one)");
  return *c;
}

DocConsumerRow read_consumer_row(const json& m, const std::string& path) {
  DocConsumerRow row;
  if (!optional_string(m, path, "consumer")) bad(path + ".consumer", "one of " + std::string(kConsumerNames));
  row.consumer = consumer_field(m, path, "consumer");
  row.gpus_used = static_cast<int>(optional_int(m, path, "gpus_used", 0, kMaxCount).value_or(0));
  row.placed = static_cast<int>(optional_int(m, path, "placed", 0, kMaxCount).value_or(0));
  row.unplaced = static_cast<int>(optional_int(m, path, "unplaced", 0, kMaxCount).value_or(0));
  if (const auto n = optional_int(m, path, "gpus_needed", 0, kMaxCount)) row.gpus_needed = static_cast<int>(*n);
  row.cost_per_hour = optional_number(m, path, "cost_per_hour");
  return row;
}

// A curve of $.model: {"25": 1.045, ...} in the order written.
std::vector<std::pair<std::string, double>> read_curve(const json& model, const char* key) {
  std::vector<std::pair<std::string, double>> out;
  const json* curve = optional_field(model, "$.model", key);
  if (!curve) return out;
  if (!curve->is_object()) bad(std::string("$.model.") + key, "an object of numbers");
  for (const auto& [point, value] : curve->items()) {
    if (!value.is_number()) bad(std::string("$.model.") + key + "." + point, "a number");
    out.emplace_back(point, value.get<double>());
  }
  return out;
}

void read_model(const json& m, DocModel& out) {
  out.timeslicing_p99_inflation = optional_number(m, "$.model", "timeslicing_p99_inflation").value_or(0);
  out.mps_p99_inflation = optional_number(m, "$.model", "mps_p99_inflation").value_or(0);
  out.mps_capped_p99_inflation = read_curve(m, "mps_capped_p99_inflation");
  out.mps_capped_neighbour_throughput = read_curve(m, "mps_capped_neighbour_throughput");
  out.timeslicing_slowdown = read_curve(m, "timeslicing_slowdown");
  out.mps_slowdown = read_curve(m, "mps_slowdown");
  if (const json* parameters = optional_field(m, "$.model", "parameters")) {
    out.parameters = read_model_parameters_shape(*parameters, "plan JSON", "$.model.parameters");
  }
}

}  // namespace

PlanDocument read_plan_json(const json& plan, const GpuCatalog& catalog) {
  if (!plan.is_object()) bad("$", "a JSON object (the output of gpupack plan --format json)");
  if (int_field(plan, "$", "schema_version", 0, kMaxCount) != kPlanSchemaVersion) {
    bad("$.schema_version", std::to_string(kPlanSchemaVersion) + " (this gpupack reads plan schema version " +
                                std::to_string(kPlanSchemaVersion) + "; re-run gpupack plan --format json)");
  }
  PlanDocument out;
  std::map<std::string, size_t> gpu_index_by_id;
  const json& gpus = array_field(plan, "$", "gpus");
  for (size_t i = 0; i < gpus.size(); ++i) {
    DocGpu gpu = read_gpu(gpus[i], at("$.gpus", i));
    if (!gpu_index_by_id.emplace(gpu.id, out.gpus.size()).second) {
      bad(at("$.gpus", i) + ".id", "a unique GPU id ('" + quote_input(gpu.id) + "' repeats)");
    }
    out.gpus.push_back(std::move(gpu));
  }
  const json& placements = array_field(plan, "$", "placements");
  for (size_t i = 0; i < placements.size(); ++i) {
    const std::string path = at("$.placements", i);
    DocPlacement c = read_placement(placements[i], path);
    const std::string gpu_id = id_field(placements[i], path, "gpu");
    const std::string slice_id = id_field(placements[i], path, "slice");
    const auto g = gpu_index_by_id.find(gpu_id);
    if (g == gpu_index_by_id.end()) bad(path + ".gpu", "the id of a GPU in $.gpus ('" + quote_input(gpu_id) + "' is not one)");
    auto& slices = out.gpus[g->second].slices;
    const auto s = std::find_if(slices.begin(), slices.end(), [&](const DocSlice& x) { return x.id == slice_id; });
    if (s == slices.end()) bad(path + ".slice", "the id of a slice of GPU " + quote_input(gpu_id) + " ('" + quote_input(slice_id) + "' is not one)");
    s->clients.push_back(std::move(c));
  }
  const json& unplaced = optional_array(plan, "$", "unplaced");
  for (size_t i = 0; i < unplaced.size(); ++i) {
    const std::string path = at("$.unplaced", i);
    out.unplaced.push_back({string_field(unplaced[i], path, "workload"),
                            static_cast<int>(int_field(unplaced[i], path, "replica", 0, 1000000)),
                            optional_string(unplaced[i], path, "code").value_or(""),
                            optional_string(unplaced[i], path, "reason").value_or("")});
  }
  if (const json* summary = optional_field(plan, "$", "summary")) read_summary(*summary, out.summary);
  const json& comparison = optional_array(plan, "$", "comparison");
  for (size_t i = 0; i < comparison.size(); ++i) out.comparison.push_back(read_mode_row(comparison[i], at("$.comparison", i)));
  const json& consumers = optional_array(plan, "$", "consumers");
  for (size_t i = 0; i < consumers.size(); ++i) out.consumers.push_back(read_consumer_row(consumers[i], at("$.consumers", i)));
  out.deploy_with = consumer_field(plan, "$", "deploy_with");
  const json& gpu_types = optional_array(plan, "$", "gpu_types");
  for (size_t i = 0; i < gpu_types.size(); ++i) {
    const std::string path = at("$.gpu_types", i);
    out.gpu_types.push_back({string_field(gpu_types[i], path, "workload"), string_field(gpu_types[i], path, "model"),
                             optional_string(gpu_types[i], path, "why").value_or("")});
  }
  if (const json* model = optional_field(plan, "$", "model")) read_model(*model, out.model);
  const json& workloads = optional_array(plan, "$", "workloads");
  for (size_t i = 0; i < workloads.size(); ++i) {
    const std::string path = at("$.workloads", i);
    DocWorkloadDeploy d;
    d.workload = string_field(workloads[i], path, "name");
    d.image = optional_string(workloads[i], path, "image");
    d.namespace_ = optional_string(workloads[i], path, "namespace");
    const std::string kind = optional_string(workloads[i], path, "kind").value_or("deployment");
    const auto k = parse_deploy_kind(kind);
    if (!k) bad(path + ".kind", "one of " + std::string(kDeployKindNames) + " ('" + quote_input(kind) + "' is not one)");
    d.kind = *k;
    d.schedule = optional_string(workloads[i], path, "schedule");
    d.cpu = optional_number(workloads[i], path, "cpu");
    if (const auto m = optional_int(workloads[i], path, "host_memory_bytes", 0, kMaxBytes)) {
      d.host_memory_bytes = static_cast<std::uint64_t>(*m);
    }
    out.workloads.push_back(std::move(d));
  }
  check_plan_document(out, catalog);
  return out;
}

}  // namespace gpupack
