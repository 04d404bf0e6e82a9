#include "measure/workload_profile.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "core/errors.hpp"
#include "core/units.hpp"
#include "measure/sm_share_sweep.hpp"

namespace gpupack::measure {

namespace {

using Json = nlohmann::ordered_json;

template <class T>
Json or_null(const std::optional<T>& v) {
  return v ? Json(*v) : Json(nullptr);
}

// Reading: every field is checked, so a hand-edited or truncated file gets one message naming the field.
const nlohmann::json& member(const nlohmann::json& j, const std::string& key, const std::string& where) {
  if (!j.is_object() || !j.contains(key)) throw InputError("workload profile: " + where + " has no '" + key + "'");
  return j.at(key);
}

template <class T>
T get(const nlohmann::json& j, const std::string& key, const std::string& where) {
  const auto& v = member(j, key, where);
  try {
    return v.get<T>();
  } catch (const nlohmann::json::exception&) {
    throw InputError("workload profile: " + where + "." + key + " has the wrong type (" + v.dump() + ")");
  }
}

template <class T>
std::optional<T> get_optional(const nlohmann::json& j, const std::string& key, const std::string& where) {
  if (!j.is_object() || !j.contains(key) || j.at(key).is_null()) return std::nullopt;
  return get<T>(j, key, where);
}

Json figures_json(double req_per_s, const std::optional<double>& p50, const std::optional<double>& p99) {
  return Json{{"req_per_s", req_per_s}, {"p50_ms", or_null(p50)}, {"p99_ms", or_null(p99)}};
}

Json point_json(const SmSharePoint& p) {
  Json j{{"pct", p.pct}, {"req_per_s", p.req_per_s}, {"p50_ms", or_null(p.p50_ms)}, {"p99_ms", or_null(p.p99_ms)}};
  j["runs"] = Json::array();
  for (const auto& r : p.runs) j["runs"].push_back(figures_json(r.req_per_s, r.p50_ms, r.p99_ms));
  const RunSpread spread = spread_of(p);  // derived from the runs: written, never read
  j["spread"] = {{"req_per_s", or_null(spread.req_per_s)}, {"p50_ms", or_null(spread.p50_ms)}, {"p99_ms", or_null(spread.p99_ms)}};
  j["verdict"] = p.verdict ? Json{{"pass", p.verdict->pass}, {"counted", p.verdict->counted}, {"why", p.verdict->why}} : Json(nullptr);
  return j;
}

SmSharePoint point_from_json(const nlohmann::json& j) {
  const std::string where = "sm_share_curve[]";
  SmSharePoint p(get<int>(j, "pct", where), get<double>(j, "req_per_s", where), get_optional<double>(j, "p50_ms", where),
                 get_optional<double>(j, "p99_ms", where));
  if (j.contains("runs") && !j.at("runs").is_null()) {  // added to schema 1: absent in older files
    const auto& runs = j.at("runs");
    if (!runs.is_array()) throw InputError("workload profile: sm_share_curve[].runs is not an array");
    for (const auto& r : runs) {
      p.runs.push_back({get<double>(r, "req_per_s", where + ".runs[]"), get_optional<double>(r, "p50_ms", where + ".runs[]"),
                        get_optional<double>(r, "p99_ms", where + ".runs[]")});
    }
  }
  if (j.contains("verdict") && !j.at("verdict").is_null()) {
    const auto& v = j.at("verdict");
    p.verdict = ShareVerdict{get<bool>(v, "pass", where + ".verdict"), get<bool>(v, "counted", where + ".verdict"),
                             get<std::string>(v, "why", where + ".verdict")};
  }
  return p;
}

std::string format_ratio(double v) {
  std::ostringstream s;
  s.precision(3);
  s << v;
  return s.str();
}

}  // namespace

nlohmann::ordered_json profile_to_json(const WorkloadProfile& p) {
  Json j;
  j["schema_version"] = kProfileSchemaVersion;
  j["name"] = p.name;
  j["command"] = p.command;
  j["device"] = {{"model", or_null(p.device.model)}, {"name", p.device.name}, {"uuid", p.device.uuid}};
  j["window"] = {{"start", p.window.start},
                 {"warmup_seconds", p.window.warmup_seconds},
                 {"seconds", p.window.seconds},
                 {"complete", p.window.complete},
                 {"first_gpu_seconds", or_null(p.window.first_gpu_seconds)}};
  j["memory"] = {{"peak_bytes", p.memory.peak_bytes},
                 {"with_headroom_bytes", p.memory.with_headroom_bytes},
                 {"source", p.memory.source}};
  const auto& a = p.activity;
  j["activity"] = {{"sm_active", or_null(a.sm_active)},         {"sm_occupancy", or_null(a.sm_occupancy)},
                   {"tensor_active", or_null(a.tensor_active)}, {"dram_bw", or_null(a.dram_bw)},
                   {"utilization", or_null(a.utilization)},     {"source", a.source},
                   {"samples", a.samples}};
  if (p.requests) {
    j["requests"] = {{"req_per_s", p.requests->req_per_s},
                     {"p50_ms", or_null(p.requests->p50_ms)},
                     {"p99_ms", or_null(p.requests->p99_ms)},
                     {"count", p.requests->count}};
  } else {
    j["requests"] = nullptr;
  }
  j["report"] = {{"any_line", p.report.any_line},
                 {"malformed_lines", p.report.malformed_lines},
                 {"first_error", or_null(p.report.first_error)}};
  j["host_cpu_cores"] = or_null(p.host_cpu_cores);
  j["sm_share_curve"] = Json::array();
  for (const auto& point : p.sm_share_curve) j["sm_share_curve"].push_back(point_json(point));
  j["compute_demand"] = {{"share", p.compute_demand.share},
                         {"method", p.compute_demand.method},
                         {"tolerance", or_null(p.compute_demand.tolerance)},
                         {"p99_tolerance", or_null(p.compute_demand.p99_tolerance)},
                         {"p99_limit", or_null(p.compute_demand.p99_limit)}};
  j["colocation"] = p.colocation ? Json(*p.colocation) : Json(nullptr);
  return j;
}

WorkloadProfile profile_from_json(const nlohmann::json& j) {
  if (!j.is_object()) throw InputError("workload profile: not a JSON object");
  const int version = get<int>(j, "schema_version", "profile");
  if (version != kProfileSchemaVersion) {
    throw InputError("workload profile: schema_version " + std::to_string(version) + " (this gpupack reads " +
                     std::to_string(kProfileSchemaVersion) + ")");
  }
  WorkloadProfile p;
  p.name = get<std::string>(j, "name", "profile");
  p.command = get<std::vector<std::string>>(j, "command", "profile");
  const auto& d = member(j, "device", "profile");
  p.device = {get_optional<std::string>(d, "model", "device"), get<std::string>(d, "name", "device"),
              get<std::string>(d, "uuid", "device")};
  const auto& w = member(j, "window", "profile");
  p.window = {get<std::string>(w, "start", "window"), get<double>(w, "warmup_seconds", "window"),
              get<double>(w, "seconds", "window"), get<bool>(w, "complete", "window"),
              get_optional<double>(w, "first_gpu_seconds", "window")};
  const auto& m = member(j, "memory", "profile");
  p.memory = {get<std::uint64_t>(m, "peak_bytes", "memory"), get<std::uint64_t>(m, "with_headroom_bytes", "memory"),
              get<std::string>(m, "source", "memory")};
  const auto& a = member(j, "activity", "profile");
  p.activity = {get_optional<double>(a, "sm_active", "activity"),     get_optional<double>(a, "sm_occupancy", "activity"),
                get_optional<double>(a, "tensor_active", "activity"), get_optional<double>(a, "dram_bw", "activity"),
                get_optional<double>(a, "utilization", "activity"),   get<std::string>(a, "source", "activity"),
                get<int>(a, "samples", "activity")};
  if (const auto& r = member(j, "requests", "profile"); !r.is_null()) {
    p.requests = ProfileRequests{get<double>(r, "req_per_s", "requests"), get_optional<double>(r, "p50_ms", "requests"),
                                 get_optional<double>(r, "p99_ms", "requests"), get<long>(r, "count", "requests")};
  }
  const auto& rep = member(j, "report", "profile");
  p.report = {get<bool>(rep, "any_line", "report"), get<long>(rep, "malformed_lines", "report"),
              get_optional<std::string>(rep, "first_error", "report")};
  p.host_cpu_cores = get_optional<double>(j, "host_cpu_cores", "profile");
  const auto& curve = member(j, "sm_share_curve", "profile");
  if (!curve.is_array()) throw InputError("workload profile: sm_share_curve is not an array");
  for (const auto& point : curve) p.sm_share_curve.push_back(point_from_json(point));
  const auto& c = member(j, "compute_demand", "profile");
  p.compute_demand.share = get<double>(c, "share", "compute_demand");
  p.compute_demand.method = get<std::string>(c, "method", "compute_demand");
  p.compute_demand.tolerance = get_optional<double>(c, "tolerance", "compute_demand");
  p.compute_demand.p99_tolerance = get_optional<double>(c, "p99_tolerance", "compute_demand");
  p.compute_demand.p99_limit = get_optional<double>(c, "p99_limit", "compute_demand");
  if (!(p.compute_demand.share > 0 && p.compute_demand.share <= 1)) {
    throw InputError("workload profile: compute_demand.share must be in (0, 1]");
  }
  if (const auto& col = member(j, "colocation", "profile"); !col.is_null()) p.colocation = col;
  return p;
}

std::string plan_entry_yaml(const WorkloadProfile& p, const std::string& profile_path) {
  std::ostringstream y;
  y << "# gpupack profile: " << format_ratio(p.window.seconds) << " s window from "
    << (p.window.start == "ready-line" ? "its ready line" : "first GPU use + " + format_ratio(p.window.warmup_seconds) + " s warm-up")
    << (p.window.complete ? "" : " (the program exited before the window's end)") << ", on "
    << (p.device.model ? *p.device.model : p.device.name) << "\n"
    << "# peak GPU memory " << format_size(p.memory.peak_bytes) << " ("
    << (p.memory.source == "processes" ? "its processes, CUDA context included" : "device memory increase") << ")\n";
  if (p.requests) {
    y << "# requests: " << format_ratio(p.requests->req_per_s) << " req/s";
    if (p.requests->p99_ms) y << ", p50 " << format_ratio(p.requests->p50_ms.value_or(0)) << " ms, p99 " << format_ratio(*p.requests->p99_ms) << " ms";
    y << "\n";
  } else {
    y << "# request latency not reported (docs/client-report.md)\n";
  }
  const auto& c = p.compute_demand;
  y << "workloads:\n"
    << "  - name: " << p.name << "\n"
    << "    memory: " << format_size(p.memory.with_headroom_bytes) << "\n"
    << "    compute: " << format_ratio(c.share);
  if (c.method == "sweep") {
    y << "  # smallest MPS thread share with req/s and p50 within " << format_ratio(c.tolerance.value_or(0) * 100)
      << "% and p99 within " << format_ratio(c.p99_limit.value_or(c.tolerance.value_or(0)) * 100) << "% of the largest share";
  } else if (c.method == "gpm") {
    y << "  # GPM SM activity over the window";
  } else if (c.method == "utilization") {
    y << "  # NVML utilisation: an upper bound (share of time any kernel ran); --sweep measures it";
  } else {
    y << "  # no activity reported: assume a whole GPU";
  }
  y << "\n";
  // A JSON string is a YAML double-quoted scalar: any path reads back as written.
  if (!profile_path.empty()) y << "    profile: " << nlohmann::json(profile_path).dump() << "  # relative to the scenario file\n";
  return y.str();
}

}  // namespace gpupack::measure
