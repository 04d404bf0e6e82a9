// The typed plan the node side sees (contract/plan_document.hpp), built from the planner's Plan: names
// resolved through the scenario and the catalog, slice ids given, predicted p99 in milliseconds computed.
// The plan JSON writer formats what this builds and computes nothing.
#include "cli/plan_views.hpp"
#include "cli/profile_model_inputs.hpp"
#include "contract/plan_json.hpp"
#include "io/model_parameters_json.hpp"

namespace gpupack {

namespace {

std::string slice_id(size_t index) { return "s" + std::to_string(index); }

std::optional<DocPrediction> doc_prediction(const std::optional<ClientPrediction>& p) {
  if (!p) return std::nullopt;
  DocPrediction d{p->source, p->p99_ms, p->req_per_s, p->extrapolated, p->notes, p->host_cores, std::nullopt};
  if (p->observed) d.observed = DocPrediction::Observed{p->observed->p99, p->observed->req_per_s, p->observed->replicas, p->observed->files};
  return d;
}

// A placement's predicted p99: the profile's absolute figure where there is one, else p99 alone (or half
// the SLO) times the predicted inflation.
std::optional<double> predicted_p99_ms(const Workload& w, const PlanClient& c, const ModelParameters& m) {
  if (c.prediction && c.prediction->source == "profile" && c.prediction->p99_ms) return *c.prediction->p99_ms;
  if (!w.latency_slo_ms) return std::nullopt;
  return w.p99_alone_ms.value_or(default_p99_alone_ms(*w.latency_slo_ms, m)) * c.predicted_p99_inflation;
}

DocSlice doc_slice(const Scenario& scenario, const GpuModel& model, const PlanSlice& s, size_t index,
                   const ModelParameters& m) {
  DocSlice out;
  out.id = slice_id(index);
  if (s.profile >= 0) {
    out.profile = model.mig->profiles[static_cast<size_t>(s.profile)].name;
    out.mig_start = s.mig_start;
  }
  out.sharing = s.sharing;
  out.tenant = s.tenant;
  out.memory_bytes = s.memory_bytes;
  out.compute_share = s.compute_share;
  out.predicted_throughput = s.predicted_throughput;
  out.predicted_sm_active = s.predicted_sm_active;
  for (size_t c = 0; c < s.clients.size(); ++c) {
    const PlanClient& pc = s.clients[c];
    DocProcess process{static_cast<int>(c), {}, pc.memory_limit_bytes, pc.compute, pc.mps_active_thread_percentage,
                       pc.predicted_p99_inflation, doc_prediction(pc.prediction)};
    for (const ReplicaRef& r : pc.replicas) {
      const Workload& w = scenario.workloads[static_cast<size_t>(r.workload)];
      process.replicas.push_back({w.name, r.replica});
      out.clients.push_back({w.name, r.replica, w.tenant, pc.memory_limit_bytes, pc.mps_active_thread_percentage,
                             pc.predicted_p99_inflation, predicted_p99_ms(w, pc, m),
                             pc.prediction ? pc.prediction->req_per_s : std::nullopt,
                             pc.prediction ? pc.prediction->source : std::string("synthetic"),
                             pc.prediction && pc.prediction->extrapolated,
                             pc.prediction ? pc.prediction->worst_copy_p99_ms : std::nullopt});
    }
    out.processes.push_back(std::move(process));
  }
  return out;
}

DocModel doc_model(const ModelParameters& m) {
  const Calibration& c = m.calibration;
  const auto points = [](const auto& keys, const auto& values) {
    std::vector<std::pair<std::string, double>> out;
    for (size_t i = 0; i < keys.size(); ++i) out.emplace_back(std::to_string(keys[i]), values[i]);
    return out;
  };
  return {c.timeslicing_p99_inflation,
          c.mps_p99_inflation,
          points(kCalibrationCaps, c.mps_capped_p99_inflation),
          points(kCalibrationCaps, c.mps_capped_neighbour_throughput),
          points(kCalibrationClients, c.timeslicing_slowdown),
          points(kCalibrationClients, c.mps_slowdown),
          model_parameters_record(m)};
}

}  // namespace

PlanDocument plan_document(const Scenario& scenario, const Plan& plan, const std::vector<ModeOutcome>& comparison,
                           const ModelParameters& parameters) {
  PlanDocument out;
  long placed = 0;
  for (const PlanGpu& g : plan.gpus) {
    const GpuModel& model = scenario.fleet[static_cast<size_t>(g.fleet_entry)].model;
    DocGpu gpu;
    gpu.id = g.id;
    gpu.node = g.node;
    gpu.model = model.name;
    gpu.mode = g.mode;
    for (const auto& inst : g.mig) {
      const MigProfile& p = model.mig->profiles[static_cast<size_t>(inst.profile)];
      gpu.mig.push_back({p.name, inst.start, p.memory_slices});
    }
    for (size_t i = 0; i < g.slices.size(); ++i) {
      gpu.slices.push_back(doc_slice(scenario, model, g.slices[i], i, parameters));
      placed += static_cast<long>(gpu.slices.back().clients.size());
    }
    gpu.why = g.why;
    for (const RejectedMode& r : g.rejected) gpu.rejected.push_back({r.mode, r.breaks});
    out.gpus.push_back(std::move(gpu));
  }
  for (const Unplaced& u : plan.unplaced) {
    out.unplaced.push_back({scenario.workloads[static_cast<size_t>(u.replica.workload)].name, u.replica.replica, u.code,
                            u.reason});
  }
  const PlanSummary& s = plan.summary;
  out.summary = {s.gpus_used,
                 s.gpus_available,
                 s.lower_bound_gpus,
                 s.exact,
                 total_replicas(scenario),
                 placed,
                 static_cast<long>(plan.unplaced.size()),
                 s.memory_utilisation,
                 s.compute_utilisation,
                 s.cost_per_hour,
                 s.one_per_gpu_cost_per_hour,
                 s.lower_bound_cost_per_hour,
                 scenario.context_overhead_bytes,
                 scenario.cuda.to_string()};
  for (const ModeOutcome& m : comparison) {
    out.comparison.push_back(
        {m.mode ? std::string(to_string(*m.mode)) : std::string("chosen"), m.gpus_used, m.placed, m.unplaced,
         m.slo_misses, m.gpus_needed, m.worst_p99_inflation, m.throughput, m.breaks, m.cost_per_hour,
         m.only_entry ? std::optional<std::string>(scenario.fleet[static_cast<size_t>(*m.only_entry)].model.name)
                      : std::nullopt});
  }
  for (const GpuTypeChoice& c : plan.gpu_types) {
    out.gpu_types.push_back({scenario.workloads[static_cast<size_t>(c.workload)].name,
                             scenario.fleet[static_cast<size_t>(c.fleet_entry)].model.name, c.why});
  }
  for (const Workload& w : scenario.workloads) {
    const std::optional<double> cpu = pod_cpu_cores(w);
    if (w.deploy.empty() && !cpu) continue;
    out.workloads.push_back({w.name, w.deploy.image, w.deploy.namespace_, w.deploy.kind, w.deploy.schedule, cpu,
                             w.deploy.host_memory_bytes});
  }
  out.model = doc_model(parameters);
  number_gpus_by_node(out);
  return out;
}

}  // namespace gpupack
