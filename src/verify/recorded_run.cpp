#include "verify/recorded_run.hpp"

#include "core/errors.hpp"
#include "io/json_document.hpp"
#include "verify/verify_result.hpp"

namespace gpupack::verify {

namespace {

using nlohmann::json;

// $.x.y... of `doc`, or one InputError naming the file and the field.
const json& recorded_field(const json& doc, std::initializer_list<std::string_view> keys, const std::string& source,
                  const std::string& where) {
  const json* at = &doc;
  for (std::string_view k : keys) {
    if (!at->is_object() || !at->contains(k)) {
      throw InputError(source + ": " + where + " has no \"" + std::string(k) + "\"");
    }
    at = &at->at(k);
  }
  return *at;
}

double positive_number(const json& v, const std::string& source, const std::string& what) {
  if (!v.is_number() || !(v.get<double>() > 0)) throw InputError(source + ": " + what + " must be a positive number");
  return v.get<double>();
}

std::vector<double> runs_of(const json& measured) {
  std::vector<double> out;
  if (measured.is_object() && measured.contains("runs") && measured.at("runs").is_array()) {
    for (const json& v : measured.at("runs")) {
      if (v.is_number()) out.push_back(v.get<double>());
    }
  }
  return out;
}

// Whether a replica's p99 is its own, the tail the model predicts: verify would not name shared stalls
// beside it (stalls_worth_naming on the run's stall_hit_fraction and p99_without_stalls_ms, where the run
// recorded them) and p99 under 2x its mean request time. In the tail probe (results/tail-probe-h100) every
// slice with GEMM-aligned stalls had p99 2.4-3.1x the mean and every quiet one 1.1-1.8x; on machine c and in
// runs 2 and 3 the long tail was everywhere (docs/decisions.md, "Tail").
bool own_tail(const json& r, double req_per_s, double p99_ms) {
  if (r.contains("stall_hit_fraction")) {
    ReplicaVerdict v;
    v.stall_hit_fraction.runs = runs_of(r.at("stall_hit_fraction"));
    v.p99_without_stalls_ms.runs = runs_of(r.value("p99_without_stalls_ms", json::object()));
    v.p99_ms.runs = runs_of(r.at("p99_ms"));
    if (stalls_worth_naming(v)) return false;
  }
  const double mean_ms = 1000.0 / req_per_s;
  return p99_ms < 2 * mean_ms;
}

}  // namespace

std::vector<RecordedClient> recorded_slice_clients(std::string_view plan_text, std::string_view source_view) {
  const std::string source(source_view);
  const json plan = parse_json_document(plan_text, source);
  const json& gpus = recorded_field(plan, {"gpus"}, source, "the plan");
  if (!gpus.is_array() || gpus.empty()) throw InputError(source + ": the plan has no GPU");
  const json& slices = recorded_field(gpus.at(0), {"slices"}, source, "gpus[0]");
  if (!slices.is_array() || slices.empty()) throw InputError(source + ": gpus[0] has no slice");
  // The replay predicts a slice of clients under MPS (each with its thread cap); a plan that put the run's
  // replicas on another sharing (one replica alone on an exclusive GPU) is not one it can replay.
  if (const auto sharing = slices.at(0).find("sharing"); sharing != slices.at(0).end() && sharing->is_string() &&
                                                          sharing->get<std::string>() != "mps") {
    throw InputError(source + ": gpus[0].slices[0] is " + sharing->get<std::string>() +
                     "; the replay predicts slices shared under MPS (leave this run out of the manifest)");
  }
  const json& clients = recorded_field(slices.at(0), {"clients"}, source, "gpus[0].slices[0]");
  if (!clients.is_array() || clients.empty()) throw InputError(source + ": gpus[0].slices[0] has no client");
  std::vector<RecordedClient> out;
  for (size_t i = 0; i < clients.size(); ++i) {
    const std::string where = "gpus[0].slices[0].clients[" + std::to_string(i) + "]";
    const json& c = clients.at(i);
    const json& replicas = recorded_field(c, {"replicas"}, source, where);
    if (!replicas.is_array() || replicas.empty()) throw InputError(source + ": " + where + " has no replica");
    const json& workload = recorded_field(replicas.at(0), {"workload"}, source, where + ".replicas[0]");
    if (!workload.is_string() || workload.get<std::string>().empty()) {
      throw InputError(source + ": " + where + ".replicas[0].workload must be a workload's name");
    }
    const json& cap = recorded_field(c, {"mps_active_thread_percentage"}, source, where);
    if (!cap.is_number_integer() || cap.get<int>() < 1 || cap.get<int>() > 100) {
      throw InputError(source + ": " + where + ".mps_active_thread_percentage must be a whole number from 1 to 100");
    }
    out.push_back({workload.get<std::string>(), static_cast<int>(replicas.size()),
                   positive_number(recorded_field(c, {"compute"}, source, where), source, where + ".compute"), cap.get<int>()});
  }
  return out;
}

std::vector<RecordedReplica> recorded_replicas(std::string_view verify_text, std::string_view source_view) {
  const std::string source(source_view);
  const json report = parse_json_document(verify_text, source);
  const json& replicas = recorded_field(report, {"replicas"}, source, "the verify report");
  if (!replicas.is_array() || replicas.empty()) throw InputError(source + ": the verify report has no replica");
  std::vector<RecordedReplica> out;
  for (size_t i = 0; i < replicas.size(); ++i) {
    const std::string where = "replicas[" + std::to_string(i) + "]";
    const json& r = replicas.at(i);
    const json& workload = recorded_field(r, {"workload"}, source, where);
    if (!workload.is_string() || workload.get<std::string>().empty()) {
      throw InputError(source + ": " + where + ".workload must be a workload's name");
    }
    RecordedReplica rec;
    rec.workload = workload.get<std::string>();
    rec.req_per_s = positive_number(recorded_field(r, {"req_per_s", "mean"}, source, where), source, where + ".req_per_s.mean");
    rec.p99_ms = positive_number(recorded_field(r, {"p99_ms", "mean"}, source, where), source, where + ".p99_ms.mean");
    rec.stall_free = own_tail(r, rec.req_per_s, rec.p99_ms);
    if (r.contains("p99_without_stalls_ms") && r.at("p99_without_stalls_ms").is_object()) {
      const json& without = r.at("p99_without_stalls_ms").value("mean", json());
      if (without.is_number() && without.get<double>() > 0) rec.p99_without_stalls_ms = without.get<double>();
    }
    out.push_back(std::move(rec));
  }
  return out;
}

std::optional<double> recorded_sm_active(std::string_view verify_text, std::string_view source_view) {
  const std::string source(source_view);
  const json report = parse_json_document(verify_text, source);
  if (!report.contains("slices") || !report.at("slices").is_array() || report.at("slices").empty()) return std::nullopt;
  const json& slice = report.at("slices").at(0);
  if (!slice.is_object() || !slice.contains("gpu_activity") || !slice.at("gpu_activity").is_object()) return std::nullopt;
  const json& activity = slice.at("gpu_activity");
  if (!activity.contains("sm_active") || !activity.at("sm_active").is_object()) return std::nullopt;
  const json mean = activity.at("sm_active").value("mean", json());
  if (mean.is_null()) return std::nullopt;
  if (!mean.is_number() || mean.get<double>() < 0 || mean.get<double>() > 1) {
    throw InputError(source + ": slices[0].gpu_activity.sm_active.mean must be a share from 0 to 1");
  }
  return mean.get<double>();
}

}  // namespace gpupack::verify
