#include "verify/model_replay_json.hpp"

namespace gpupack::verify {

namespace {

using nlohmann::ordered_json;

ordered_json or_null(const std::optional<double>& v) { return v ? ordered_json(*v) : ordered_json(nullptr); }

ordered_json stats_json(const ErrorStats& s) {
  const auto some = [&](double v) { return s.count > 0 ? ordered_json(v) : ordered_json(nullptr); };
  return {{"count", s.count}, {"worst", some(s.worst)}, {"mean_abs", some(s.mean_abs())},
          {"within_target", some(s.within_share())}};
}

// Every parameter with its value, source and accepted range: what a fit may vary and within what.
ordered_json parameters_json(const ModelParameters& m) {
  ordered_json out = ordered_json::array();
  for (const ParameterSpec& spec : parameter_specs()) {
    ordered_json value;
    if (spec.size > 1) {
      value = ordered_json::array();
      for (size_t i = 0; i < spec.size; ++i) value.push_back(spec.get(m, i));
    } else {
      value = spec.get(m, 0);
    }
    out.push_back({{"name", spec.name}, {"value", value}, {"source", source_of(m, spec)},
                   {"min", spec.lo}, {"min_inclusive", spec.lo_inclusive}, {"max", spec.hi}, {"integer", spec.integer}});
  }
  return out;
}

ordered_json run_json(const RunReplay& r) {
  ordered_json workloads = ordered_json::array();
  for (const WorkloadReplay& w : r.workloads) {
    ordered_json replicas = ordered_json::array();
    for (const ReplicaError& e : w.replicas) {
      replicas.push_back({{"req_per_s_error", e.req_per_s}, {"p99_error", e.p99}, {"stall_free", e.stall_free},
                          {"p99_error_without_stalls", or_null(e.p99_without_stalls)},
                          {"within_both_or_run_range", e.within_both_or_run_range}});  // added 2026-11-29
    }
    workloads.push_back({{"workload", w.workload}, {"predicted_req_per_s", w.predicted_req_per_s},
                         {"predicted_p99_ms", w.predicted_p99_ms}, {"replicas", replicas}});
  }
  return {{"dir", r.run.dir},
          {"scenario", r.run.scenario},
          {"gpu", r.run.gpu},
          {"machine", r.run.machine},
          {"set", run_set_name(r.run.set)},
          {"workloads", workloads},
          {"predicted_sm_active", or_null(r.predicted_sm_active)},  // added 2026-11-29
          {"measured_sm_active", or_null(r.measured_sm_active)}};
}

}  // namespace

ordered_json replay_json(const ReplayReport& report, const ReplaySource& source, const ModelParameters& m) {
  ordered_json j;
  j["replay_version"] = kReplayJsonVersion;
  j["manifest"] = source.manifest;
  j["root"] = source.root;
  j["set"] = source.set;
  j["model"] = {{"name", source.model}, {"parameters", parameters_json(m)}};
  j["targets"] = {{"p99", kReplayP99Target}, {"req_per_s", kReplayReqPerSTarget}};
  j["runs"] = ordered_json::array();
  for (const RunReplay& r : report.runs) j["runs"].push_back(run_json(r));
  j["summary"] = ordered_json::array();
  for (const WorkloadSummary& s : report.summary) {
    j["summary"].push_back({{"set", s.set},
                            {"workload", s.workload},
                            {"replicas", s.replicas},
                            {"stalled", s.stalled},
                            {"within_both", s.within_both},
                            {"within_both_level_removed", s.within_both_level_removed},
                            {"within_both_or_run_range", s.within_both_or_run_range},  // added 2026-11-29
                            {"req_per_s", stats_json(s.req_per_s)},
                            {"p99", stats_json(s.p99)},
                            {"p99_without_stalls", stats_json(s.p99_without_stalls)}});
  }
  const ActivitySummary& a = report.activity;  // added 2026-11-29
  j["sm_active"] = {{"runs", a.runs},
                    {"within_0_05", a.within_005},
                    {"within_0_10", a.within_010},
                    {"median_abs_difference", a.median_abs},
                    {"worst_difference", a.worst}};
  return j;
}

}  // namespace gpupack::verify
