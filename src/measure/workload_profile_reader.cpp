// Reading a workload profile (docs/profile.md): every field is checked for its type and its range, so that
// a hand-edited, truncated or hostile file gets one InputError naming the field instead of a plan from
// nonsense (issue 38: a negative or 1e30 memory, SM activity 2, a negative p99, schema_version 1.5).
// Numbers are read as JSON numbers only (nlohmann's get<> would take `true` as 1 and truncate 1.5 to 1),
// and a whole number is never converted from a float (1e30 into uint64 is undefined behaviour).
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

#include "core/errors.hpp"
#include "core/text.hpp"
#include "io/json_document.hpp"
#include "measure/colocation_grid.hpp"
#include "measure/workload_profile.hpp"

namespace gpupack::measure {

namespace {

using nlohmann::json;

constexpr double kUnbounded = std::numeric_limits<double>::max();

[[noreturn]] void refuse(const std::string& field, const std::string& accepted, const json& v) {
  throw InputError("workload profile: " + field + " must be " + accepted + ", got " +
                   quote_input(v.dump(), 40));
}

const json& member(const json& j, const std::string& key, const std::string& where) {
  if (!j.is_object() || !j.contains(key))
    throw InputError("workload profile: " + where + " has no '" + key + "'");
  return j.at(key);
}

bool present(const json& j, const std::string& key) {
  return j.is_object() && j.contains(key) && !j.at(key).is_null();
}

std::string text(const json& j, const std::string& key, const std::string& where) {
  const json& v = member(j, key, where);
  if (!v.is_string()) refuse(where + "." + key, "a string", v);
  return v.get<std::string>();
}

std::optional<std::string> optional_text(const json& j, const std::string& key, const std::string& where) {
  return present(j, key) ? std::optional<std::string>(text(j, key, where)) : std::nullopt;
}

bool flag(const json& j, const std::string& key, const std::string& where) {
  const json& v = member(j, key, where);
  if (!v.is_boolean()) refuse(where + "." + key, "true or false", v);
  return v.get<bool>();
}

// A finite number in [lo, hi]; `accepted` says so in words.
double number(const json& j, const std::string& key, const std::string& where, double lo, double hi,
              const char* accepted) {
  const json& v = member(j, key, where);
  const double x = v.is_number() ? v.get<double>() : 0;
  if (!v.is_number() || !std::isfinite(x) || x < lo || x > hi) refuse(where + "." + key, accepted, v);
  return x;
}

std::optional<double> optional_number(const json& j, const std::string& key, const std::string& where,
                                      double lo, double hi, const char* accepted) {
  return present(j, key) ? std::optional<double>(number(j, key, where, lo, hi, accepted)) : std::nullopt;
}

// A whole number in [lo, hi], read without a conversion from a float.
std::int64_t whole(const json& j, const std::string& key, const std::string& where, std::int64_t lo,
                   std::int64_t hi, const char* accepted) {
  const json& v = member(j, key, where);
  bool ok = false;
  std::int64_t x = 0;
  if (v.is_number_unsigned()) {
    const std::uint64_t u = v.get<std::uint64_t>();
    ok = u <= static_cast<std::uint64_t>(hi);
    x = ok ? static_cast<std::int64_t>(u) : 0;
  } else if (v.is_number_integer()) {
    x = v.get<std::int64_t>();
    ok = x <= hi;
  }
  if (!ok || x < lo) refuse(where + "." + key, accepted, v);
  return x;
}

constexpr const char* kRatio = "a number from 0 to 1";
constexpr const char* kNonNegative = "a number >= 0";
constexpr const char* kCount = "a whole number >= 0";
constexpr std::int64_t kMaxCount = std::numeric_limits<std::int32_t>::max();

std::optional<double> ratio(const json& j, const std::string& key, const std::string& where) {
  return optional_number(j, key, where, 0, 1, kRatio);
}
std::optional<double> optional_ms(const json& j, const std::string& key, const std::string& where) {
  return optional_number(j, key, where, 0, kUnbounded, kNonNegative);
}
double non_negative(const json& j, const std::string& key, const std::string& where) {
  return number(j, key, where, 0, kUnbounded, kNonNegative);
}
// "p50_by_second": {"low_ms", "high_ms"} or null; absent in profiles written before it.
std::pair<std::optional<double>, std::optional<double>> second_range(const json& j, const std::string& where) {
  if (!present(j, "p50_by_second") || j.at("p50_by_second").is_null()) return {std::nullopt, std::nullopt};
  const json& r = j.at("p50_by_second");
  const std::string at = where + ".p50_by_second";
  if (!r.is_object()) refuse(at, "an object with low_ms and high_ms, or null", r);
  return {number(r, "low_ms", at, 0, kUnbounded, kNonNegative), number(r, "high_ms", at, 0, kUnbounded, kNonNegative)};
}

// The CPU probe's summary of a window ({"low_ms", "median_ms", "high_ms", "samples"}, low <= median <= high),
// absent or null where it did not run (profiles before it existed, runs under MPS).
std::optional<HostCoreWork> core_work(const json& j, const std::string& where) {
  if (!present(j, "host_core_work")) return std::nullopt;
  const json& w = j.at("host_core_work");
  const std::string at = where + ".host_core_work";
  if (!w.is_object()) refuse(at, "an object with low_ms, median_ms, high_ms and samples, or null", w);
  HostCoreWork out{number(w, "low_ms", at, 0, kUnbounded, kNonNegative), number(w, "median_ms", at, 0, kUnbounded, kNonNegative),
                   number(w, "high_ms", at, 0, kUnbounded, kNonNegative),
                   static_cast<int>(whole(w, "samples", at, 1, kMaxCount, "a whole number >= 1"))};
  if (out.low_ms > out.median_ms || out.median_ms > out.high_ms) {
    refuse(at, "low_ms <= median_ms <= high_ms", w);
  }
  return out;
}

// A co-location grid of its own (compute_neighbour, launch_pressure): checked now, so that its errors name the
// field when the profile is read and not when the planner reads it; absent or null where it did not run.
std::optional<json> optional_grid(const json& j, const std::string& key) {
  if (!present(j, key)) return std::nullopt;
  const json& grid = j.at(key);
  try {
    (void)colocation_grid_from_json(grid);
  } catch (const std::runtime_error& e) {
    throw InputError("workload profile: " + key + ": " + e.what());
  }
  return grid;
}

std::uint64_t memory_bytes(const json& j, const std::string& key) {
  return static_cast<std::uint64_t>(whole(j, key, "memory", 0,
                                          static_cast<std::int64_t>(kMaxProfileMemoryBytes),
                                          "a whole number of bytes from 0 to 1 TiB"));
}

SmSharePoint point_from_json(const json& j) {
  const std::string where = "sm_share_curve[]";
  SmSharePoint p(static_cast<int>(whole(j, "pct", where, 1, 100, "a whole percentage from 1 to 100")),
                 non_negative(j, "req_per_s", where), optional_ms(j, "p50_ms", where),
                 optional_ms(j, "p99_ms", where));
  if (present(j, "runs")) {  // added to schema 1: absent in older files
    const json& runs = j.at("runs");
    if (!runs.is_array()) throw InputError("workload profile: sm_share_curve[].runs is not an array");
    const std::string at = where + ".runs[]";
    for (const json& r : runs)
      p.runs.push_back(
          {non_negative(r, "req_per_s", at), optional_ms(r, "p50_ms", at), optional_ms(r, "p99_ms", at)});
  }
  if (present(j, "verdict")) {
    const json& v = j.at("verdict");
    const std::string at = where + ".verdict";
    p.verdict = ShareVerdict{flag(v, "pass", at), flag(v, "counted", at), text(v, "why", at)};
  }
  return p;
}

// The baseline's runs and its limit; its medians, spreads and verdict are derived from them (written, not
// read), so that a hand-edited median cannot disagree with the runs it claims to summarise.
Baseline baseline_from_json(const json& b, const std::string& where) {
  if (!b.is_object()) refuse(where, "an object", b);
  const std::string setting = text(b, "setting", where);
  if (setting != "alone" && setting != "mps-100") refuse(where + ".setting", "\"alone\" or \"mps-100\"", b.at("setting"));
  const double limit = non_negative(b, "spread_limit", where);
  const json& runs = member(b, "runs", where);
  if (!runs.is_array() || runs.empty()) refuse(where + ".runs", "a non-empty array of runs", runs);
  std::vector<BaselineRun> out;
  const std::string at = where + ".runs[]";
  for (const json& r : runs) {
    const auto [low, high] = second_range(r, at);
    out.push_back({non_negative(r, "req_per_s", at), optional_ms(r, "p50_ms", at), optional_ms(r, "p99_ms", at),
                   optional_number(r, "host_cpu_cores", at, 0, kUnbounded, kNonNegative),
                   optional_number(r, "host_busy_cores", at, 0, kUnbounded, kNonNegative),  // added later: optional
                   ratio(r, "host_steal_share", at), low, high, core_work(r, at)});
  }
  return summarize_baseline(setting, std::move(out), limit);
}

}  // namespace

WorkloadProfile profile_from_json(const json& j) {
  if (!j.is_object()) throw InputError("workload profile: not a JSON object");
  const json& version = member(j, "schema_version", "profile");
  if (!version.is_number_integer() || version.get<std::int64_t>() != kProfileSchemaVersion) {
    throw InputError("workload profile: schema_version " + quote_input(version.dump(), 40) +
                     " (this gpupack reads " + std::to_string(kProfileSchemaVersion) + ")");
  }
  WorkloadProfile p;
  p.name = text(j, "name", "profile");
  const json& command = member(j, "command", "profile");
  if (!command.is_array()) refuse("profile.command", "an array of strings", command);
  for (const json& arg : command) {
    if (!arg.is_string()) refuse("profile.command[]", "a string", arg);
    p.command.push_back(arg.get<std::string>());
  }
  const json& d = member(j, "device", "profile");
  p.device = {optional_text(d, "model", "device"), text(d, "name", "device"), text(d, "uuid", "device")};
  const json& w = member(j, "window", "profile");
  p.window = {text(w, "start", "window"), non_negative(w, "warmup_seconds", "window"),
              non_negative(w, "seconds", "window"), flag(w, "complete", "window"),
              optional_number(w, "first_gpu_seconds", "window", 0, kUnbounded, kNonNegative)};
  const json& m = member(j, "memory", "profile");
  p.memory = {memory_bytes(m, "peak_bytes"), memory_bytes(m, "with_headroom_bytes"),
              text(m, "source", "memory")};
  const json& a = member(j, "activity", "profile");
  p.activity = {ratio(a, "sm_active", "activity"),
                ratio(a, "sm_occupancy", "activity"),
                ratio(a, "tensor_active", "activity"),
                ratio(a, "dram_bw", "activity"),
                ratio(a, "utilization", "activity"),
                text(a, "source", "activity"),
                static_cast<int>(whole(a, "samples", "activity", 0, kMaxCount, kCount))};
  if (const json& r = member(j, "requests", "profile"); !r.is_null()) {
    const auto [low, high] = second_range(r, "requests");
    p.requests = ProfileRequests{non_negative(r, "req_per_s", "requests"),
                                 optional_ms(r, "p50_ms", "requests"), optional_ms(r, "p99_ms", "requests"),
                                 static_cast<long>(whole(r, "count", "requests", 0,
                                                         std::numeric_limits<std::int64_t>::max(), kCount)),
                                 low, high};
  }
  const json& rep = member(j, "report", "profile");
  p.report = {flag(rep, "any_line", "report"),
              static_cast<long>(whole(rep, "malformed_lines", "report", 0,
                                      std::numeric_limits<std::int64_t>::max(), kCount)),
              optional_text(rep, "first_error", "report")};
  p.host_cpu_cores = optional_number(j, "host_cpu_cores", "profile", 0, kUnbounded, kNonNegative);
  p.host_busy_cores = optional_number(j, "host_busy_cores", "profile", 0, kUnbounded, kNonNegative);
  p.host_steal_share = ratio(j, "host_steal_share", "profile");
  p.host_core_work = core_work(j, "profile");
  const json& curve = member(j, "sm_share_curve", "profile");
  if (!curve.is_array()) throw InputError("workload profile: sm_share_curve is not an array");
  for (const json& point : curve) p.sm_share_curve.push_back(point_from_json(point));
  const json& c = member(j, "compute_demand", "profile");
  p.compute_demand.share = number(c, "share", "compute_demand", 0, 1, "a share above 0 and at most 1");
  if (p.compute_demand.share <= 0)
    refuse("compute_demand.share", "a share above 0 and at most 1", c.at("share"));
  p.compute_demand.method = text(c, "method", "compute_demand");
  p.compute_demand.tolerance = optional_number(c, "tolerance", "compute_demand", 0, kUnbounded, kNonNegative);
  p.compute_demand.p99_tolerance =
      optional_number(c, "p99_tolerance", "compute_demand", 0, kUnbounded, kNonNegative);
  p.compute_demand.p99_limit = optional_number(c, "p99_limit", "compute_demand", 0, kUnbounded, kNonNegative);
  if (const json& col = member(j, "colocation", "profile"); !col.is_null()) p.colocation = col;
  p.compute_neighbour = optional_grid(j, "compute_neighbour");  // added to schema 1: absent in older files
  p.launch_pressure = optional_grid(j, "launch_pressure");      // likewise
  if (present(j, "baseline")) {  // added to schema 1: absent in older files
    const json& b = j.at("baseline");
    p.baseline = baseline_from_json(b, "baseline");
    if (present(b, "mps")) p.mps_baseline = baseline_from_json(b.at("mps"), "baseline.mps");
  }
  return p;
}

WorkloadProfile read_workload_profile(std::string_view document, std::string_view source) {
  return profile_from_json(
      parse_json_document(document, source, "give a file gpupack profile -o wrote (docs/profile.md)"));
}

}  // namespace gpupack::measure
