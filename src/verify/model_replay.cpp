#include "verify/model_replay.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "bench/stats.hpp"
#include "core/errors.hpp"
#include "io/input_file.hpp"
#include "model/prediction.hpp"
#include "model/profile_baseline.hpp"
#include "model/slice_activity.hpp"
#include "verify/recorded_run.hpp"

namespace gpupack::verify {

namespace {

std::string under_root(const std::string& root, const std::string& path) {
  return root.empty() || root == "." ? path : root + "/" + path;
}

// The run's slice's clients as the model takes them.
std::vector<ModelClient> model_clients(const Scenario& s, const std::vector<RecordedClient>& slice, const std::string& plan_path) {
  std::vector<ModelClient> clients;
  for (const RecordedClient& c : slice) {
    const auto w = std::find_if(s.workloads.begin(), s.workloads.end(), [&](const Workload& x) { return x.name == c.workload; });
    if (w == s.workloads.end()) throw InputError(plan_path + ": its slice runs " + c.workload + ", which the scenario lacks");
    clients.push_back({&*w, c.replicas, c.compute, c.cap_pct});
  }
  return clients;
}

// The run's slice (`capacity`, shared under MPS) predicted with `m`: (req/s, p99 ms) per workload, as the plan
// would record them.
std::map<std::string, ClientPrediction> predict_slice(SliceCapacity capacity, const std::vector<RecordedClient>& slice,
                                                      const std::vector<ModelClient>& clients, const ModelParameters& m,
                                                      const std::string& plan_path) {
  const SliceOutcome outcome = predict({Sharing::mps, capacity}, clients, m);
  std::map<std::string, ClientPrediction> out;
  for (size_t i = 0; i < slice.size(); ++i) {
    ClientPrediction p = plan_prediction(outcome.clients[i], *clients[i].workload, Sharing::mps, m);
    if (!p.req_per_s || !p.p99_ms) {
      throw InputError(plan_path + ": the model predicts no req/s and p99 for " + slice[i].workload +
                       " (its profile lacks them)");
    }
    out[slice[i].workload] = std::move(p);
  }
  return out;
}

RunReplay replay_run(const RecordedRun& run, const Scenario& s, const ReplayInputs& in) {
  if (s.fleet.empty() || s.fleet.front().model.name != run.gpu) {
    throw InputError(run.scenario + ": its first GPU is not the run's " + run.gpu + " (" + run.dir + ")");
  }
  const std::string plan_path = under_root(in.root, run.dir + "/plan.json");
  const std::string verify_path = under_root(in.root, run.dir + "/verify.json");
  const auto slice = recorded_slice_clients(read_input_file(in.fs, plan_path), plan_path);
  const std::vector<ModelClient> clients = model_clients(s, slice, plan_path);
  const SliceCapacity capacity = slice_capacity_on(s.fleet.front());
  const auto predicted = predict_slice(capacity, slice, clients, in.parameters, plan_path);
  const std::string verify_text = read_input_file(in.fs, verify_path);
  std::map<std::string, WorkloadReplay> by_workload;
  for (const RecordedReplica& r : recorded_replicas(verify_text, verify_path)) {
    const auto p = predicted.find(r.workload);
    if (p == predicted.end()) throw InputError(verify_path + ": replica of " + r.workload + ", which the plan's slice lacks");
    WorkloadReplay& w = by_workload[r.workload];
    if (w.workload.empty()) {
      const auto c = std::find_if(clients.begin(), clients.end(), [&](const ModelClient& x) { return x.workload->name == r.workload; });
      const ProfileFacts* profile = c != clients.end() ? c->workload->profile.get() : nullptr;
      w.baseline_runs = run_range_of(profile ? mps_planning_baseline(*profile) : nullptr);
    }
    w.workload = r.workload;
    w.predicted_req_per_s = *p->second.req_per_s;
    w.predicted_p99_ms = *p->second.p99_ms;
    ReplicaError e{w.predicted_req_per_s / r.req_per_s - 1, w.predicted_p99_ms / r.p99_ms - 1, r.stall_free, {}};
    if (!r.stall_free && r.p99_without_stalls_ms) e.p99_without_stalls = w.predicted_p99_ms / *r.p99_without_stalls_ms - 1;
    e.within_both_or_run_range = within_run_range(w.baseline_runs, e.req_per_s, kReplayReqPerSTarget, e.p99, kReplayP99Target);
    w.replicas.push_back(e);
  }
  RunReplay out{run, {}, predicted_sm_active(Sharing::mps, capacity, clients),
                recorded_sm_active(verify_text, verify_path)};
  for (auto& [_, w] : by_workload) out.workloads.push_back(std::move(w));
  return out;
}

}  // namespace

void ErrorStats::add(double error, double target) {
  const double a = std::abs(error);
  ++count;
  worst = std::max(worst, a);
  abs_sum += a;
  if (a <= target) ++within;
}

ReplayReport replay_runs(const RunManifest& manifest, const ReplayInputs& in) {
  // Runs share their scenarios and profiles: each pair is read once.
  std::map<std::pair<std::string, std::string>, Scenario> scenarios;
  ReplayReport report;
  for (const RecordedRun& run : manifest.runs) {
    if (in.only && run.set != *in.only) continue;
    const std::string profiles = under_root(in.root, run.profiles.empty() ? manifest.profiles : run.profiles);
    const auto key = std::make_pair(run.scenario, profiles);
    auto s = scenarios.find(key);
    if (s == scenarios.end()) {
      s = scenarios.emplace(key, in.load_scenario(under_root(in.root, run.scenario), profiles)).first;
    }
    report.runs.push_back(replay_run(run, s->second, in));
  }
  report.summary = summarise(report.runs);
  report.activity = summarise_activity(report.runs);
  return report;
}

ActivitySummary summarise_activity(const std::vector<RunReplay>& runs) {
  ActivitySummary out;
  std::vector<double> abs_differences;
  for (const RunReplay& r : runs) {
    if (!r.predicted_sm_active || !r.measured_sm_active) continue;
    const double d = *r.measured_sm_active - *r.predicted_sm_active;
    ++out.runs;
    if (std::abs(d) <= 0.05) ++out.within_005;
    if (std::abs(d) <= 0.10) ++out.within_010;
    if (std::abs(d) > std::abs(out.worst)) out.worst = d;
    abs_differences.push_back(std::abs(d));
  }
  if (!abs_differences.empty()) out.median_abs = bench::median(abs_differences);
  return out;
}

bool within_both_targets(double req_per_s_error, double p99_error) {
  return std::abs(req_per_s_error) <= kReplayReqPerSTarget && std::abs(p99_error) <= kReplayP99Target;
}

namespace {

// The median replica's errors of one workload in one run (WorkloadSummary::within_both_level_removed).
struct RunLevel {
  double req_per_s = 0, p99 = 0;
};

RunLevel run_level(const WorkloadReplay& w) {
  std::vector<double> req, p99;
  for (const ReplicaError& e : w.replicas) {
    req.push_back(e.req_per_s);
    p99.push_back(e.p99);
  }
  return {bench::median(req), bench::median(p99)};
}

// An error as a ratio to the level's: (1 + e) / (1 + level) - 1.
double level_removed(double error, double level) { return level > -1 ? (1 + error) / (1 + level) - 1 : error; }

}  // namespace

std::vector<WorkloadSummary> summarise(const std::vector<RunReplay>& runs) {
  std::map<std::pair<int, std::string>, WorkloadSummary> by;  // (set order, workload): "all" after every set
  const auto add = [&](int order, std::string_view set, const WorkloadReplay& w) {
    WorkloadSummary& s = by[{order, w.workload}];
    s.set = set;
    s.workload = w.workload;
    const RunLevel level = run_level(w);
    for (const ReplicaError& e : w.replicas) {
      ++s.replicas;
      if (within_both_targets(e.req_per_s, e.p99)) ++s.within_both;
      if (e.within_both_or_run_range) ++s.within_both_or_run_range;
      if (within_both_targets(level_removed(e.req_per_s, level.req_per_s), level_removed(e.p99, level.p99))) {
        ++s.within_both_level_removed;
      }
      s.req_per_s.add(e.req_per_s, kReplayReqPerSTarget);
      if (e.stall_free) {
        s.p99.add(e.p99, kReplayP99Target);
        continue;
      }
      ++s.stalled;
      if (e.p99_without_stalls) s.p99_without_stalls.add(*e.p99_without_stalls, kReplayP99Target);
    }
  };
  for (const RunReplay& r : runs) {
    for (const WorkloadReplay& w : r.workloads) {
      add(static_cast<int>(r.run.set), run_set_name(r.run.set), w);
      add(static_cast<int>(RunSet::corpus) + 1, "all", w);
    }
  }
  std::vector<WorkloadSummary> out;
  for (auto& [_, s] : by) out.push_back(std::move(s));
  return out;
}

}  // namespace gpupack::verify
