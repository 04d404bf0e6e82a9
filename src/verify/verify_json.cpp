// The versioned JSON of `gpupack verify` (docs/json.md): fields are only ever added, never renamed.
#include "verify/verify_result.hpp"
#include "verify/model_replay.hpp"
#include "verify/verify_verdict.hpp"

namespace gpupack::verify {

namespace {

template <typename T>
nlohmann::ordered_json opt(const std::optional<T>& v) {
  return v ? nlohmann::ordered_json(*v) : nlohmann::ordered_json(nullptr);
}

nlohmann::ordered_json measured_json(const Measured& m) {
  return {{"mean", opt(m.mean())}, {"spread", opt(m.spread())}, {"runs", m.runs}};
}

}  // namespace

nlohmann::ordered_json to_json(const VerifyReport& report) {
  nlohmann::ordered_json j;
  j["verify_version"] = kVerifyJsonVersion;
  j["node"] = report.node;
  j["warmup_s"] = report.warmup_s;
  j["duration_s"] = report.duration_s;
  j["repeat"] = report.repeat;
  j["tolerance"] = report.tolerance;
  j["sample_interval_s"] = report.sample_interval_s;
  j["ok"] = report.ok();
  // Added 2026-12 (issue 36): the plan's verdict apart from the model's prediction errors.
  const Verdict verdict = report_verdict(report);
  j["verdict"] = verdict_name(verdict);
  j["passed"] = verdict != Verdict::fail;
  j["warnings"] = replicas_off_prediction(report);
  j["strict"] = report.strict;
  // Added 2026-11-28 (issue 36's targets, apart from the tolerance): replicas with both errors, within both.
  const TargetCount targets = replicas_within_targets(report);
  j["targets"] = {{"p99", kReplayP99Target}, {"req_per_s", kReplayReqPerSTarget}, {"judged", targets.judged},
                  {"within_both", targets.within_both}};
  j["notes"] = report.notes;
  j["alone"] = nlohmann::ordered_json::array();
  for (const auto& a : report.alone) {
    j["alone"].push_back({{"workload", a.workload}, {"source", a.source}, {"p99_ms", measured_json(a.p99_ms)},
                          {"req_per_s", measured_json(a.req_per_s)}, {"profile_p99_ms", opt(a.profile_p99_ms)},
                          {"profile_req_per_s", opt(a.profile_req_per_s)},
                          {"profile_scaled_from", opt(a.profile_scaled_from.empty() ? std::nullopt : std::optional(a.profile_scaled_from))},
                          {"p99_drift", opt(a.p99_drift())}, {"req_per_s_drift", opt(a.req_per_s_drift())},
                          {"profile_host_core_work_ms", opt(a.profile_host_core_work_ms)}});  // added 2026-11-29
  }
  j["replicas"] = nlohmann::ordered_json::array();
  for (const auto& r : report.replicas) {
    j["replicas"].push_back({{"workload", r.workload},
                             {"replica", r.replica},
                             {"slice", r.slice},
                             {"reports", r.reports},
                             {"predicted_p99_ms", opt(r.predicted_p99_ms)},
                             {"predicted_worst_copy_p99_ms", opt(r.predicted_worst_copy_p99_ms)},
                             {"prediction_source", r.prediction_source},
                             {"extrapolated", r.extrapolated},
                             {"p99_ms", measured_json(r.p99_ms)},
                             {"p99_error", opt(r.p99_error)},
                             {"predicted_req_per_s", opt(r.predicted_req_per_s)},
                             {"req_per_s", measured_json(r.req_per_s)},
                             {"throughput_error", opt(r.throughput_error)},
                             {"rebased_p99_error", opt(r.rebased_p99_error)},
                             {"rebased_throughput_error", opt(r.rebased_throughput_error)},
                             {"miss_within_profile_runs", opt(r.miss_within_profile_runs)},  // added 2026-11-29
                             {"slo_ms", opt(r.slo_ms)},
                             {"slo_met", opt(r.slo_met)},
                             {"peak_memory_bytes", opt(r.peak_memory_bytes)},
                             {"memory_limit_bytes", r.memory_limit_bytes},
                             {"gpu_seen", r.gpu_seen},
                             {"problems", r.problems()},
                             {"verdict", verdict_name(replica_verdict(r))},
                             {"failures", r.failures},
                             {"warnings", r.warnings},
                             {"stall_hit_fraction", measured_json(r.stall_hit_fraction)},
                             {"p99_without_stalls_ms", measured_json(r.p99_without_stalls_ms)},
                             {"stalls_named", stalls_worth_naming(r)},
                             {"p99_error_without_stalls", opt(r.p99_error_without_stalls)},
                             // Added 2026-12 (issue 36): the plan's correction by observation in its predictions.
                             {"observed_correction", r.observed_p99 || r.observed_req_per_s
                                                         ? nlohmann::ordered_json{{"p99", opt(r.observed_p99)},
                                                                                  {"req_per_s", opt(r.observed_req_per_s)}}
                                                         : nlohmann::ordered_json(nullptr)}});
  }
  j["slices"] = nlohmann::ordered_json::array();
  for (const auto& s : report.slices) {
    j["slices"].push_back({{"slice", s.slice},
                           {"sharing", s.sharing},
                           {"gpu_model", s.gpu_model},  // added 2026-12 (issue 36): what plan --observed keys by
                           {"predicted_req_per_s", opt(s.predicted_req_per_s)},
                           {"req_per_s", opt(s.measured_req_per_s)},
                           {"throughput_error", opt(s.throughput_error)},
                           {"predicted_worst_p99_ms", opt(s.predicted_worst_p99_ms)},
                           {"worst_p99_ms", opt(s.measured_worst_p99_ms)},
                           {"p99_error", opt(s.p99_error)},
                           {"slo_met", opt(s.slo_met)},
                           {"gpu_activity", s.has_activity() ? nlohmann::ordered_json{{"sm_active", measured_json(s.sm_active)},
                                                                                       {"dram_bw", measured_json(s.dram_bw)},
                                                                                       {"tensor_active", measured_json(s.tensor_active)}}
                                                             : nlohmann::ordered_json(nullptr)},
                           // added 2026-11-29: the plan's prediction of the SM activity, and measured - predicted
                           {"predicted_sm_active", opt(s.predicted_sm_active)},
                           {"sm_active_error", opt(s.sm_active_error)},
                           {"shared_stalls",
                            {{"events", s.stalls.events},
                             {"seconds", s.stalls.seconds},
                             {"mean_ms", s.stalls.mean_ms},
                             {"max_ms", s.stalls.max_ms},
                             {"aligned_with", opt(s.stalls.aligned_with)}}}});
  }
  if (report.search) {
    const SearchResult& s = *report.search;
    nlohmann::ordered_json steps = nlohmann::ordered_json::array();
    for (const auto& st : s.steps) {
      steps.push_back({{"replicas", st.replicas}, {"fits", st.fits}, {"worst_p99_ms", opt(st.worst_p99_ms)},
                       {"aggregate_req_per_s", opt(st.aggregate_req_per_s)}, {"why", st.why}});
    }
    j["search"] = {{"workload", s.workload}, {"slice", s.slice},     {"planned", s.planned},
                   {"most_that_fit", s.most_that_fit}, {"capped", s.capped}, {"planned_share", opt(s.planned_share())},
                   {"steps", steps}};
    const auto knee = s.knee();
    j["search"]["knee"] =
        knee ? nlohmann::ordered_json{{"replicas", knee->at->replicas},
                                      {"aggregate_req_per_s", *knee->at->aggregate_req_per_s},
                                      {"next_replicas", knee->next ? nlohmann::ordered_json(knee->next->replicas) : nullptr},
                                      {"next_aggregate_req_per_s", knee->next ? nlohmann::ordered_json(*knee->next->aggregate_req_per_s) : nullptr},
                                      {"growth_share", s.growth_share},
                                      {"planned_share", knee->planned_share}}
             : nlohmann::ordered_json(nullptr);
    j["search"]["unplaced"] = s.unplaced == 0 ? nlohmann::ordered_json(nullptr)
                                              : nlohmann::ordered_json{{"count", s.unplaced}, {"code", s.unplaced_code},
                                                                       {"reason", s.unplaced_reason}};
  } else {
    j["search"] = nullptr;
  }
  // Added 2026-11-29: the node's cores on the fixed CPU work a profile times, before the runs.
  const auto& host = report.host_core_work;
  j["host_core_work"] = host ? nlohmann::ordered_json{{"low_ms", host->low_ms}, {"median_ms", host->median_ms},
                                                      {"high_ms", host->high_ms}, {"samples", host->samples}}
                             : nlohmann::ordered_json(nullptr);
  j["slo_margins"] = nlohmann::ordered_json::array();
  for (const MarginCheck& m : report.margins) {
    j["slo_margins"].push_back({{"workload", m.workload}, {"kept", m.kept}, {"needed", m.needed}, {"replica", m.replica},
                                {"worst_p99_ms", m.worst_p99_ms}, {"predicted_p99_ms", m.predicted_p99_ms}});
  }
  return j;
}

}  // namespace gpupack::verify
