#include "io/observed_json.hpp"

#include <cmath>
#include <map>

#include "core/errors.hpp"
#include "io/json_document.hpp"

namespace gpupack {

namespace {

using nlohmann::json;

[[noreturn]] void observed_bad(const std::string& file, const std::string& at, const std::string& expected) {
  throw InputError("--observed " + file + ": " + at + ": expected " + expected +
                   " (give the JSON of `gpupack verify --json FILE`, docs/verify.md)");
}

// A number field that may be absent or null.
std::optional<double> observed_number(const json& obj, const std::string& file, const std::string& at, const char* key) {
  const auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return std::nullopt;
  if (!it->is_number()) observed_bad(file, at + "." + key, "a number or null");
  return it->get<double>();
}

std::string observed_string(const json& obj, const std::string& file, const std::string& at, const char* key) {
  const auto it = obj.find(key);
  if (it == obj.end() || !it->is_string()) observed_bad(file, at + "." + key, "a string");
  return it->get<std::string>();
}

// measured / predicted, where both are positive and the ratio is a finite positive number (not one that
// overflowed or underflowed: the plan multiplies it into its predictions).
std::optional<double> ratio(std::optional<double> measured, std::optional<double> predicted) {
  if (!measured || !predicted || *measured <= 0 || *predicted <= 0) return std::nullopt;
  const double r = *measured / *predicted;
  if (!std::isfinite(r) || r <= 0) return std::nullopt;
  return r;
}

struct SliceInfo {
  Sharing sharing = Sharing::mps;
  std::string gpu_model;
};

std::map<std::string, SliceInfo> read_slices(const json& doc, const std::string& file) {
  const auto it = doc.find("slices");
  if (it == doc.end() || !it->is_array()) observed_bad(file, "$.slices", "an array of the verified slices");
  std::map<std::string, SliceInfo> out;
  for (size_t i = 0; i < it->size(); ++i) {
    const json& s = (*it)[i];
    const std::string at = "$.slices[" + std::to_string(i) + "]";
    if (!s.is_object()) observed_bad(file, at, "an object");
    SliceInfo info;
    const std::string sharing = observed_string(s, file, at, "sharing");
    const std::optional<Sharing> parsed = parse_sharing(sharing);
    if (!parsed) observed_bad(file, at + ".sharing", "one of " + sharing_names());
    info.sharing = *parsed;
    if (const auto m = s.find("gpu_model"); m != s.end() && !m->is_null()) info.gpu_model = observed_string(s, file, at, "gpu_model");
    out[observed_string(s, file, at, "slice")] = info;
  }
  return out;
}

}  // namespace

ObservedFile parse_observed_json(std::string_view text, const std::string& file) {
  const json doc = parse_json_document(text, "--observed " + file, "give the JSON of `gpupack verify --json FILE`");
  if (!doc.is_object() || !doc.contains("verify_version")) observed_bad(file, "$.verify_version", "verify's JSON (no verify_version)");
  if (doc["verify_version"] != 1) observed_bad(file, "$.verify_version", "1");
  const std::map<std::string, SliceInfo> slices = read_slices(doc, file);
  const auto it = doc.find("replicas");
  if (it == doc.end() || !it->is_array()) observed_bad(file, "$.replicas", "an array of the verified replicas");
  ObservedFile out{file, {}, {}};
  for (size_t i = 0; i < it->size(); ++i) {
    const json& r = (*it)[i];
    const std::string at = "$.replicas[" + std::to_string(i) + "]";
    if (!r.is_object()) observed_bad(file, at, "an object");
    ObservedReplica o;
    o.workload = observed_string(r, file, at, "workload");
    o.slice = observed_string(r, file, at, "slice");
    const auto slice = slices.find(o.slice);
    if (slice == slices.end()) observed_bad(file, at + ".slice", "a slice listed in $.slices");
    o.sharing = slice->second.sharing;
    o.gpu_model = slice->second.gpu_model;
    out.slice_workloads[o.slice].insert(o.workload);
    if (observed_string(r, file, at, "prediction_source") == "none") continue;
    const auto mean = [&](const char* key) -> std::optional<double> {
      const auto m = r.find(key);
      if (m == r.end() || m->is_null()) return std::nullopt;
      if (!m->is_object()) observed_bad(file, at + "." + key, "{mean, spread, runs}");
      return observed_number(*m, file, at + "." + key, "mean");
    };
    std::optional<double> p99 = observed_number(r, file, at, "predicted_p99_ms");
    std::optional<double> req = observed_number(r, file, at, "predicted_req_per_s");
    // A plan corrected by observation: its prediction before the correction (see ObservedReplica).
    if (const auto c = r.find("observed_correction"); c != r.end() && !c->is_null()) {
      if (!c->is_object()) observed_bad(file, at + ".observed_correction", "{p99, req_per_s} or null");
      const std::string cat = at + ".observed_correction";
      if (const auto f = observed_number(*c, file, cat, "p99"); f && *f > 0 && p99) *p99 /= *f;
      if (const auto f = observed_number(*c, file, cat, "req_per_s"); f && *f > 0 && req) *req /= *f;
    }
    o.p99_ratio = ratio(mean("p99_ms"), p99);
    o.req_ratio = ratio(mean("req_per_s"), req);
    if (o.p99_ratio || o.req_ratio) out.replicas.push_back(std::move(o));
  }
  return out;
}

}  // namespace gpupack
