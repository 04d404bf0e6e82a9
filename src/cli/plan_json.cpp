// The plan as JSON. Field names are stable (docs/plan-schema.md): only ever added, never renamed.
#include <yaml-cpp/yaml.h>

#include "cli/plan_views.hpp"

namespace gpupack {

namespace {

Json optional_int(const std::optional<int>& v) { return v ? Json(*v) : Json(nullptr); }
Json optional_number(const std::optional<double>& v) { return v ? Json(*v) : Json(nullptr); }

std::string slice_id(size_t index) { return "s" + std::to_string(index); }

// How a client's absolute predictions were made (docs/plan-schema.md, "prediction").
Json prediction_json(const std::optional<ClientPrediction>& p) {
  if (!p) return nullptr;
  return {{"source", p->source},
          {"p99_ms", optional_number(p->p99_ms)},
          {"req_per_s", optional_number(p->req_per_s)},
          {"extrapolated", p->extrapolated},
          {"notes", p->notes}};
}

// A placement's predicted p99: the profile's absolute figure where there is one, else p99 alone (or half
// the SLO) times the predicted inflation.
Json predicted_p99_ms(const Workload& w, const PlanClient& c) {
  if (c.prediction && c.prediction->source == "profile" && c.prediction->p99_ms) return *c.prediction->p99_ms;
  return w.latency_slo_ms ? Json(w.p99_alone_ms.value_or(*w.latency_slo_ms / 2) * c.predicted_p99_inflation)
                          : Json(nullptr);
}

Json slice_json(const Scenario& scenario, const GpuModel& model, const PlanSlice& s, size_t index) {
  Json clients = Json::array();
  for (size_t c = 0; c < s.clients.size(); ++c) {
    const PlanClient& pc = s.clients[c];
    Json replicas = Json::array();
    for (const ReplicaRef& r : pc.replicas) {
      replicas.push_back({{"workload", scenario.workloads[static_cast<size_t>(r.workload)].name},
                          {"replica", r.replica}});
    }
    clients.push_back({{"process", c},
                       {"replicas", replicas},
                       {"memory_limit_bytes", pc.memory_limit_bytes},
                       {"compute", pc.compute},
                       {"mps_active_thread_percentage", optional_int(pc.mps_active_thread_percentage)},
                       {"predicted_p99_inflation", pc.predicted_p99_inflation},
                       {"prediction", prediction_json(pc.prediction)}});
  }
  const bool mig = s.profile >= 0;
  return {{"id", slice_id(index)},
          {"profile", mig ? Json(model.mig->profiles[static_cast<size_t>(s.profile)].name) : Json(nullptr)},
          {"start", mig ? Json(s.mig_start) : Json(nullptr)},
          {"sharing", std::string(to_string(s.sharing))},
          {"tenant", s.tenant},
          {"memory_bytes", s.memory_bytes},
          {"compute_share", s.compute_share},
          {"predicted_throughput", s.predicted_throughput},
          {"clients", clients}};
}

Json calibration_json(const Calibration& c) {
  const auto points = [](const auto& keys, const auto& values) {
    Json o = Json::object();
    for (size_t i = 0; i < keys.size(); ++i) o[std::to_string(keys[i])] = values[i];
    return o;
  };
  return {{"timeslicing_p99_inflation", c.timeslicing_p99_inflation},
          {"mps_p99_inflation", c.mps_p99_inflation},
          {"mps_capped_p99_inflation", points(kCalibrationCaps, c.mps_capped_p99_inflation)},
          {"mps_capped_neighbour_throughput", points(kCalibrationCaps, c.mps_capped_neighbour_throughput)},
          {"timeslicing_slowdown", points(kCalibrationClients, c.timeslicing_slowdown)},
          {"mps_slowdown", points(kCalibrationClients, c.mps_slowdown)}};
}

}  // namespace

Json plan_json(const Scenario& scenario, const Plan& plan, const std::vector<ModeOutcome>& comparison,
               const Calibration& calibration) {
  Json gpus = Json::array();
  Json placements = Json::array();
  for (const PlanGpu& g : plan.gpus) {
    const GpuModel& model = scenario.fleet[static_cast<size_t>(g.fleet_entry)].model;
    Json slices = Json::array();
    for (size_t i = 0; i < g.slices.size(); ++i) {
      const PlanSlice& s = g.slices[i];
      slices.push_back(slice_json(scenario, model, s, i));
      for (const PlanClient& c : s.clients) {
        for (const ReplicaRef& r : c.replicas) {
          const Workload& w = scenario.workloads[static_cast<size_t>(r.workload)];
          Json p{{"workload", w.name},
                 {"replica", r.replica},
                 {"tenant", w.tenant},
                 {"gpu", g.id},
                 {"node", g.node},
                 {"slice", slice_id(i)},
                 {"memory_limit_bytes", c.memory_limit_bytes},
                 {"mps_active_thread_percentage", optional_int(c.mps_active_thread_percentage)},
                 {"predicted_p99_inflation", c.predicted_p99_inflation},
                 {"predicted_p99_ms", predicted_p99_ms(w, c)},
                 {"predicted_req_per_s", c.prediction ? optional_number(c.prediction->req_per_s) : Json(nullptr)},
                 {"prediction_source", c.prediction ? Json(c.prediction->source) : Json("synthetic")},
                 {"extrapolated", c.prediction && c.prediction->extrapolated}};
          placements.push_back(std::move(p));
        }
      }
    }
    Json mig = Json::array();
    for (const auto& inst : g.mig) {
      const MigProfile& p = model.mig->profiles[static_cast<size_t>(inst.profile)];
      mig.push_back({{"profile", p.name}, {"start", inst.start}, {"size", p.memory_slices}});
    }
    Json rejected = Json::array();
    for (const auto& r : g.rejected) rejected.push_back({{"mode", std::string(to_string(r.mode))}, {"breaks", r.breaks}});
    Json gpu{{"id", g.id}, {"model", model.name}, {"node", g.node}, {"mode", std::string(to_string(g.mode))}};
    gpu["mig"] = std::move(mig);
    gpu["slices"] = std::move(slices);
    gpu["why"] = g.why;
    gpu["rejected"] = std::move(rejected);
    gpus.push_back(std::move(gpu));
  }
  Json unplaced = Json::array();
  for (const Unplaced& u : plan.unplaced) {
    unplaced.push_back({{"workload", scenario.workloads[static_cast<size_t>(u.replica.workload)].name},
                        {"replica", u.replica.replica},
                        {"code", u.code},
                        {"reason", u.reason}});
  }
  const PlanSummary& s = plan.summary;
  Json summary{{"gpus_used", s.gpus_used},
               {"gpus_available", optional_int(s.gpus_available)},
               {"lower_bound_gpus", s.lower_bound_gpus},
               {"optimal", s.exact},
               {"replicas", total_replicas(scenario)},
               {"placed", static_cast<long>(placements.size())},
               {"unplaced", static_cast<long>(plan.unplaced.size())},
               {"memory_utilisation", s.memory_utilisation},
               {"compute_utilisation", s.compute_utilisation},
               {"cost_per_hour", optional_number(s.cost_per_hour)},
               {"one_replica_per_gpu_cost_per_hour", optional_number(s.one_per_gpu_cost_per_hour)},
               {"lower_bound_cost_per_hour", optional_number(s.lower_bound_cost_per_hour)},
               {"context_overhead_bytes", scenario.context_overhead_bytes},
               {"cuda", scenario.cuda.to_string()}};
  Json modes = Json::array();
  for (const ModeOutcome& m : comparison) {
    modes.push_back({{"mode", m.mode ? std::string(to_string(*m.mode)) : std::string("chosen")},
                     {"gpus_used", m.gpus_used},
                     {"placed", m.placed},
                     {"unplaced", m.unplaced},
                     {"slo_misses", m.slo_misses},
                     {"gpus_needed", optional_int(m.gpus_needed)},
                     {"worst_p99_inflation", m.worst_p99_inflation},
                     {"throughput", m.throughput},
                     {"breaks", m.breaks},
                     {"cost_per_hour", optional_number(m.cost_per_hour)},
                     {"gpu_type", m.only_entry ? Json(scenario.fleet[static_cast<size_t>(*m.only_entry)].model.name)
                                               : Json(nullptr)}});
  }
  Json gpu_types = Json::array();
  for (const GpuTypeChoice& c : plan.gpu_types) {
    gpu_types.push_back({{"workload", scenario.workloads[static_cast<size_t>(c.workload)].name},
                         {"model", scenario.fleet[static_cast<size_t>(c.fleet_entry)].model.name},
                         {"why", c.why}});
  }
  // Moved in, not listed in braces: an initializer list copies, and the gpus and placements of a plan of
  // 10,000 replicas took a fifth of `gpupack plan --format json` to copy.
  Json out = Json::object();
  out["schema_version"] = 1;
  out["gpus"] = std::move(gpus);
  out["placements"] = std::move(placements);
  out["unplaced"] = std::move(unplaced);
  out["summary"] = std::move(summary);
  out["comparison"] = std::move(modes);
  out["gpu_types"] = std::move(gpu_types);
  out["model"] = calibration_json(calibration);
  return out;
}

namespace {
void emit(YAML::Emitter& e, const Json& v) {
  if (v.is_object()) {
    e << YAML::BeginMap;
    for (const auto& [k, item] : v.items()) {
      e << YAML::Key << k << YAML::Value;
      emit(e, item);
    }
    e << YAML::EndMap;
  } else if (v.is_array()) {
    e << YAML::BeginSeq;
    for (const auto& item : v) emit(e, item);
    e << YAML::EndSeq;
  } else if (v.is_null()) {
    e << YAML::Null;
  } else if (v.is_string()) {
    e << YAML::DoubleQuoted << v.get<std::string>();
  } else {
    e << v.dump();  // numbers and booleans as JSON writes them
  }
}
}  // namespace

std::string json_to_yaml(const Json& value) {
  YAML::Emitter e;
  emit(e, value);
  return std::string(e.c_str()) + "\n";
}

}  // namespace gpupack
