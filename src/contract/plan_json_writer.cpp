// The plan JSON's writer (docs/plan-schema.md): formats a PlanDocument, computing nothing; keys in the
// documented order. Placements are written GPU by GPU and slice by slice, the order the reader keeps.
#include "contract/json_text_writer.hpp"
#include "contract/model_parameters_record.hpp"
#include "contract/plan_json.hpp"
#include "contract/sharing.hpp"

namespace gpupack {

namespace {

void write_prediction(JsonTextWriter& w, const std::optional<DocPrediction>& p) {
  if (!p) {
    w.null();
    return;
  }
  w.begin_object();
  w.key("source").string(p->source);
  w.key("p99_ms").optional_number(p->p99_ms);
  w.key("req_per_s").optional_number(p->req_per_s);
  w.key("extrapolated").boolean(p->extrapolated);
  w.key("host_cores").optional_number(p->host_cores);
  w.key("notes").begin_array();
  for (const std::string& note : p->notes) w.string(note);
  w.end_array();
  if (p->observed) {  // only where applied: plans without --observed keep their bytes
    w.key("observed").begin_object();
    w.key("p99").optional_number(p->observed->p99);
    w.key("req_per_s").optional_number(p->observed->req_per_s);
    w.key("replicas").integer(p->observed->replicas);
    w.key("files").begin_array();
    for (const std::string& f : p->observed->files) w.string(f);
    w.end_array();
    w.end_object();
  }
  w.end_object();
}

void write_process(JsonTextWriter& w, const DocProcess& c) {
  w.begin_object();
  w.key("process").integer(c.process);
  w.key("replicas").begin_array();
  for (const DocReplicaRef& r : c.replicas) {
    w.begin_object().key("workload").string(r.workload).key("replica").integer(r.replica).end_object();
  }
  w.end_array();
  w.key("memory_limit_bytes").unsigned_integer(c.memory_limit_bytes);
  w.key("compute").number(c.compute);
  w.key("mps_active_thread_percentage").optional_integer(c.mps_active_thread_percentage);
  w.key("predicted_p99_inflation").number(c.predicted_p99_inflation);
  w.key("prediction");
  write_prediction(w, c.prediction);
  w.end_object();
}

void write_slice(JsonTextWriter& w, const DocSlice& s) {
  w.begin_object();
  w.key("id").string(s.id);
  w.key("profile").optional_string(s.profile);
  w.key("start").optional_integer(s.mig_start);
  w.key("sharing").string(to_string(s.sharing));
  w.key("tenant").string(s.tenant);
  w.key("memory_bytes").unsigned_integer(s.memory_bytes);
  w.key("compute_share").number(s.compute_share);
  w.key("predicted_throughput").number(s.predicted_throughput);
  w.key("predicted_sm_active").optional_number(s.predicted_sm_active);
  w.key("clients").begin_array();
  for (const DocProcess& c : s.processes) write_process(w, c);
  w.end_array();
  w.end_object();
}

void write_gpu(JsonTextWriter& w, const DocGpu& g) {
  w.begin_object();
  w.key("id").string(g.id);
  w.key("model").string(g.model);
  w.key("node").string(g.node);
  w.key("mode").string(to_string(g.mode));
  w.key("mig").begin_array();
  for (const DocMigInstance& m : g.mig) {
    w.begin_object().key("profile").string(m.profile).key("start").integer(m.start).key("size").integer(m.size).end_object();
  }
  w.end_array();
  w.key("slices").begin_array();
  for (const DocSlice& s : g.slices) write_slice(w, s);
  w.end_array();
  w.key("why").string(g.why);
  w.key("rejected").begin_array();
  for (const DocRejectedMode& r : g.rejected) {
    w.begin_object().key("mode").string(to_string(r.mode)).key("breaks").string(r.breaks).end_object();
  }
  w.end_array();
  w.end_object();
}

void write_placement(JsonTextWriter& w, const DocGpu& g, const DocSlice& s, const DocPlacement& p) {
  w.begin_object();
  w.key("workload").string(p.workload);
  w.key("replica").integer(p.replica);
  w.key("tenant").string(p.tenant);
  w.key("gpu").string(g.id);
  w.key("node").string(g.node);
  w.key("slice").string(s.id);
  w.key("memory_limit_bytes").unsigned_integer(p.memory_limit_bytes);
  w.key("mps_active_thread_percentage").optional_integer(p.active_thread_percentage);
  w.key("predicted_p99_inflation").number(p.predicted_p99_inflation);
  w.key("predicted_p99_ms").optional_number(p.predicted_p99_ms);
  w.key("predicted_req_per_s").optional_number(p.predicted_req_per_s);
  w.key("prediction_source").string(p.prediction_source);
  w.key("extrapolated").boolean(p.extrapolated);
  if (p.predicted_worst_copy_p99_ms) w.key("predicted_worst_copy_p99_ms").number(*p.predicted_worst_copy_p99_ms);
  w.end_object();
}

void write_summary(JsonTextWriter& w, const DocSummary& s) {
  w.begin_object();
  w.key("gpus_used").integer(s.gpus_used);
  w.key("gpus_available").optional_integer(s.gpus_available);
  w.key("lower_bound_gpus").integer(s.lower_bound_gpus);
  w.key("optimal").boolean(s.optimal);
  w.key("replicas").integer(s.replicas);
  w.key("placed").integer(s.placed);
  w.key("unplaced").integer(s.unplaced);
  w.key("memory_utilisation").number(s.memory_utilisation);
  w.key("compute_utilisation").number(s.compute_utilisation);
  w.key("cost_per_hour").optional_number(s.cost_per_hour);
  w.key("one_replica_per_gpu_cost_per_hour").optional_number(s.one_replica_per_gpu_cost_per_hour);
  w.key("lower_bound_cost_per_hour").optional_number(s.lower_bound_cost_per_hour);
  w.key("context_overhead_bytes").unsigned_integer(s.context_overhead_bytes);
  w.key("cuda").string(s.cuda);
  w.end_object();
}

void write_mode_row(JsonTextWriter& w, const DocModeRow& m) {
  w.begin_object();
  w.key("mode").string(m.mode);
  w.key("gpus_used").integer(m.gpus_used);
  w.key("placed").integer(m.placed);
  w.key("unplaced").integer(m.unplaced);
  w.key("slo_misses").integer(m.slo_misses);
  w.key("gpus_needed").optional_integer(m.gpus_needed);
  w.key("worst_p99_inflation").number(m.worst_p99_inflation);
  w.key("throughput").number(m.throughput);
  w.key("breaks").string(m.breaks);
  w.key("cost_per_hour").optional_number(m.cost_per_hour);
  w.key("gpu_type").optional_string(m.gpu_type);
  w.end_object();
}

void write_curve(JsonTextWriter& w, const char* name, const std::vector<std::pair<std::string, double>>& curve) {
  w.key(name).begin_object();
  for (const auto& [point, value] : curve) w.key(point).number(value);
  w.end_object();
}

void write_model(JsonTextWriter& w, const DocModel& m) {
  w.begin_object();
  w.key("timeslicing_p99_inflation").number(m.timeslicing_p99_inflation);
  w.key("mps_p99_inflation").number(m.mps_p99_inflation);
  write_curve(w, "mps_capped_p99_inflation", m.mps_capped_p99_inflation);
  write_curve(w, "mps_capped_neighbour_throughput", m.mps_capped_neighbour_throughput);
  write_curve(w, "timeslicing_slowdown", m.timeslicing_slowdown);
  write_curve(w, "mps_slowdown", m.mps_slowdown);
  if (!m.parameters.empty()) {
    w.key("parameters");
    write_model_parameters(w, m.parameters);
  }
  w.end_object();
}

}  // namespace

std::string plan_json_text(const PlanDocument& plan) {
  std::string out;
  JsonTextWriter w(out);
  w.begin_object();
  w.key("schema_version").integer(kPlanSchemaVersion);
  w.key("deploy_with").string(std::string(to_string(plan.deploy_with)));
  w.key("gpus").begin_array();
  for (const DocGpu& g : plan.gpus) write_gpu(w, g);
  w.end_array();
  w.key("placements").begin_array();
  for (const DocGpu& g : plan.gpus) {
    for (const DocSlice& s : g.slices) {
      for (const DocPlacement& p : s.clients) write_placement(w, g, s, p);
    }
  }
  w.end_array();
  w.key("unplaced").begin_array();
  for (const DocUnplaced& u : plan.unplaced) {
    w.begin_object();
    w.key("workload").string(u.workload).key("replica").integer(u.replica);
    w.key("code").string(u.code).key("reason").string(u.reason);
    w.end_object();
  }
  w.end_array();
  w.key("summary");
  write_summary(w, plan.summary);
  w.key("comparison").begin_array();
  for (const DocModeRow& m : plan.comparison) write_mode_row(w, m);
  w.end_array();
  w.key("consumers").begin_array();
  for (const DocConsumerRow& c : plan.consumers) {
    w.begin_object().key("consumer").string(std::string(to_string(c.consumer))).key("gpus_used").integer(c.gpus_used);
    w.key("placed").integer(c.placed).key("unplaced").integer(c.unplaced).key("gpus_needed").optional_integer(c.gpus_needed);
    w.key("cost_per_hour").optional_number(c.cost_per_hour).end_object();
  }
  w.end_array();
  w.key("gpu_types").begin_array();
  for (const DocGpuTypeChoice& c : plan.gpu_types) {
    w.begin_object().key("workload").string(c.workload).key("model").string(c.model).key("why").string(c.why).end_object();
  }
  w.end_array();
  w.key("model");
  write_model(w, plan.model);
  if (!plan.workloads.empty()) {  // only with deploy fields, so plans without them stay as they were
    w.key("workloads").begin_array();
    for (const DocWorkloadDeploy& d : plan.workloads) {
      w.begin_object().key("name").string(d.workload);
      if (d.image) w.key("image").string(*d.image);
      if (d.namespace_) w.key("namespace").string(*d.namespace_);
      w.key("kind").string(to_string(d.kind));
      if (d.schedule) w.key("schedule").string(*d.schedule);
      if (d.cpu) w.key("cpu").number(*d.cpu);
      if (d.host_memory_bytes) w.key("host_memory_bytes").unsigned_integer(*d.host_memory_bytes);
      w.end_object();
    }
    w.end_array();
  }
  w.end_object();
  return out;
}

}  // namespace gpupack
