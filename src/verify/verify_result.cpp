#include "verify/verify_result.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>

#include "model/host_cpu_grid.hpp"
#include "verify/measurement_notes.hpp"

namespace gpupack::verify {

namespace {

std::optional<double> error_of(const std::optional<double>& measured, const std::optional<double>& predicted) {
  if (!measured || !predicted || *predicted <= 0) return std::nullopt;
  return (*measured - *predicted) / *predicted;
}

const AloneFigures* alone_of(const std::vector<AloneFigures>& alone, const std::string& workload) {
  for (const auto& a : alone) {
    if (a.workload == workload) return &a;
  }
  return nullptr;
}

// Whether a replica off its profile's prediction by more than the tolerance missed by no more than the
// profile's baseline runs alone were apart (verify/run_range.hpp); verify's errors are measured / predicted - 1,
// the range's predicted / measured - 1.
std::optional<bool> miss_within_profile_runs(const ReplicaVerdict& v, const AloneFigures* alone, double tolerance) {
  if (!alone || v.prediction_source != "profile") return std::nullopt;
  const RunRange& range = alone->profile_runs;
  if (!range.req_low && !range.p99_low) return std::nullopt;
  const auto beyond = [&](const std::optional<double>& e) { return e && std::fabs(*e) > tolerance; };
  if (!beyond(v.throughput_error) && !beyond(v.p99_error)) return std::nullopt;
  const auto as_predicted_over_measured = [](const std::optional<double>& e) {
    return e && *e > -1 ? 1 / (1 + *e) - 1 : 0.0;
  };
  return within_run_range(range, as_predicted_over_measured(v.throughput_error), tolerance,
                          as_predicted_over_measured(v.p99_error), tolerance);
}

std::optional<double> scaled(const std::optional<double>& v, double factor) {
  return v ? std::optional<double>(*v * factor) : std::nullopt;
}

// A replica's predictions: the plan's profile figures where it has them, else the plan's inflation (p99)
// and slice throughput (req/s) x what the workload did alone.
void predict(ReplicaVerdict& v, const ReplicaSetup& r, const SliceSetup& slice, const AloneFigures* alone) {
  const auto alone_p99 = alone ? scaled(alone->p99_ms.mean(), r.predicted_p99_inflation) : std::nullopt;
  const auto alone_req = alone ? scaled(alone->req_per_s.mean(), slice.predicted_throughput) : std::nullopt;
  v.predicted_p99_ms = r.profile_p99_ms ? r.profile_p99_ms : alone_p99;
  v.predicted_req_per_s = r.profile_req_per_s ? r.profile_req_per_s : alone_req;
  if (r.profile_p99_ms) v.predicted_worst_copy_p99_ms = r.profile_worst_copy_p99_ms;
  if (r.profile_p99_ms || r.profile_req_per_s) {
    v.prediction_source = "profile";
    v.extrapolated = r.extrapolated;
  } else if (v.predicted_p99_ms || v.predicted_req_per_s) {
    v.prediction_source = "inflation x solo";
  }
  // The plan's correction is in its inflation (so in p99 either way) and in its profile's req/s; the slice
  // throughput x solo carries none.
  v.observed_p99 = r.observed_p99;
  if (v.prediction_source == "profile") v.observed_req_per_s = r.observed_req_per_s;
}

// The profile's prediction rebased on this machine: x (measured alone here / profile alone), when both are known.
std::optional<double> rebased_error(const std::optional<double>& measured, const std::optional<double>& predicted,
                                    const std::optional<double>& drift) {
  if (!predicted || !drift) return std::nullopt;
  return error_of(measured, *predicted * (1 + *drift));
}

// A replica that ended by itself: a crash (non-zero) or a program that stopped before the window's end.
std::optional<std::string> ended_problem(const ReplicaRun& r) {
  if (!r.exit_code || !r.ended_early) return std::nullopt;
  std::string what = *r.exit_code == 0 ? "ended before the window's end (exit code 0)"
                                       : fmt::format("crashed (exit code {})", *r.exit_code);
  if (!r.log_tail.empty()) what += ": " + r.log_tail;
  return what;
}

// The slice's shared stalls in each run, and their sum over the runs.
std::vector<SharedStalls> stalls_per_run(const std::vector<SessionRun>& runs, size_t slice, SliceStalls& sum) {
  std::vector<SharedStalls> out;
  std::map<std::string, int> aligned;
  double excess = 0;
  for (const auto& run : runs) {
    std::vector<ClientSpans> spans;
    for (const auto& r : run.slices[slice]) spans.push_back({r.name, r.requests});
    out.push_back(find_shared_stalls(spans));
    const SharedStalls& s = out.back();
    sum.events += s.events;
    sum.seconds += run.window_s;
    excess += s.mean_ms * s.events;
    sum.max_ms = std::max(sum.max_ms, s.max_ms);
    if (s.aligned_with) ++aligned[*s.aligned_with];
  }
  if (sum.events > 0) sum.mean_ms = excess / sum.events;
  int most = 0;
  for (const auto& [name, n] : aligned) {
    if (n > most) {
      most = n;
      sum.aligned_with = name;
    }
  }
  return out;
}

const StalledClient* stalled(const SharedStalls& s, const std::string& name) {
  for (const auto& c : s.clients) {
    if (c.name == name) return &c;
  }
  return nullptr;
}

// What a p99 miss owes to shared stalls, when enough of the replica's requests met one.
std::string stall_note(const ReplicaVerdict& v, const SliceStalls& s) {
  const auto hit = v.stall_hit_fraction.mean();
  if (!hit || !stalls_worth_naming(v) || s.events == 0) return "";
  std::string note = fmt::format("; {:.1f}% of its requests met stalls shared with its neighbours ({:.1f} a second, {:.1f} ms each",
                                 *hit * 100, s.per_second(), s.mean_ms);
  if (s.aligned_with) note += ", in step with " + *s.aligned_with + "'s requests";
  note += ")";
  if (const auto w = v.p99_without_stalls_ms.mean()) note += fmt::format(": p99 {:.2f} ms without them", *w);
  if (v.p99_error_without_stalls) note += fmt::format(", {:+.0f}% off the prediction", *v.p99_error_without_stalls * 100);
  return note;
}

}  // namespace

bool stalls_worth_naming(const ReplicaVerdict& v) {
  const auto hit = v.stall_hit_fraction.mean();
  if (!hit || *hit <= 0) return false;
  if (*hit >= kStallsWorthNaming) return true;
  const auto p99 = v.p99_ms.mean(), without = v.p99_without_stalls_ms.mean();
  return p99 && without && *p99 > 0 && *without <= *p99 * (1 - kStallsP99Lift);
}

std::string SearchResult::planned_share_text() const {
  const auto share = planned_share();
  return share ? fmt::format("; plan / density {}{:.2f}", capped ? "at most " : "", *share) : "";
}

std::optional<SearchResult::Knee> SearchResult::knee() const {
  std::vector<const SearchStep*> fit;
  for (const SearchStep& st : steps) {
    if (st.fits && st.aggregate_req_per_s && st.replicas > 0) fit.push_back(&st);
  }
  if (fit.empty()) return std::nullopt;
  std::sort(fit.begin(), fit.end(), [](const SearchStep* x, const SearchStep* y) { return x->replicas < y->replicas; });
  const auto knee_at = [&](size_t i, const SearchStep* next) {
    return Knee{fit[i], next, static_cast<double>(planned) / fit[i]->replicas};
  };
  for (size_t i = 0; i + 1 < fit.size(); ++i) {
    if (!still_grew(fit[i]->replicas, *fit[i]->aggregate_req_per_s, fit[i + 1]->replicas,
                    *fit[i + 1]->aggregate_req_per_s, growth_share))
      return knee_at(i, fit[i + 1]);
  }
  return knee_at(fit.size() - 1, nullptr);
}

std::string SearchResult::knee_text() const {
  const auto k = knee();
  if (!k) return "";
  if (!k->next) {
    return fmt::format("; its req/s together grew to {} replicas ({:.0f} req/s): plan / knee {:.2f}", k->at->replicas,
                       *k->at->aggregate_req_per_s, k->planned_share);
  }
  return fmt::format("; its req/s together stopped growing after {} replicas ({:.0f} req/s, {:.0f} at {}): plan / knee {:.2f}",
                     k->at->replicas, *k->at->aggregate_req_per_s, *k->next->aggregate_req_per_s, k->next->replicas,
                     k->planned_share);
}

std::string SearchResult::unplaced_text() const {
  if (unplaced == 0) return "";
  return fmt::format("the plan left {} more of {} unplaced ({}): {}", unplaced, workload, unplaced_code, unplaced_reason);
}

std::optional<double> AloneFigures::p99_drift() const {
  return source == "solo run" && profile_p99_ms ? error_of(p99_ms.mean(), profile_p99_ms) : std::nullopt;
}

std::optional<double> AloneFigures::req_per_s_drift() const {
  return source == "solo run" && profile_req_per_s ? error_of(req_per_s.mean(), profile_req_per_s) : std::nullopt;
}

std::optional<double> Measured::mean() const {
  if (runs.empty()) return std::nullopt;
  return std::accumulate(runs.begin(), runs.end(), 0.0) / static_cast<double>(runs.size());
}

std::optional<double> Measured::spread() const {
  const auto m = mean();
  if (!m || runs.size() < 2 || *m <= 0) return std::nullopt;
  const auto [lo, hi] = std::minmax_element(runs.begin(), runs.end());
  return (*hi - *lo) / *m;
}

std::string SliceVerdict::activity_text() const {
  std::vector<std::string> parts;
  if (const auto v = sm_active.mean()) {
    parts.push_back(fmt::format("SM active {:.2f}", *v) +
                    (predicted_sm_active ? fmt::format(" (predicted {:.2f})", *predicted_sm_active) : std::string()));
  }
  if (const auto v = dram_bw.mean()) parts.push_back(fmt::format("DRAM bandwidth {:.2f}", *v));
  if (const auto v = tensor_active.mean()) parts.push_back(fmt::format("tensor {:.2f}", *v));
  return fmt::format("{}", fmt::join(parts, ", "));
}

std::vector<std::string> ReplicaVerdict::problems() const {
  std::vector<std::string> all = failures;
  all.insert(all.end(), warnings.begin(), warnings.end());
  return all;
}

bool VerifyReport::ok() const {
  for (const auto& r : replicas) {
    if (!r.failures.empty() || !r.warnings.empty() || r.slo_met == false) return false;
  }
  return true;
}

VerifyReport compare(const VerifySetup& setup, const std::vector<SessionRun>& runs, const std::vector<AloneFigures>& alone,
                     double tolerance) {
  VerifyReport report;
  report.node = setup.node;
  report.tolerance = tolerance;
  report.repeat = static_cast<int>(runs.size());
  report.notes = setup.notes;
  report.alone = alone;
  std::vector<std::pair<std::string, std::string>> few_requests;
  for (size_t i = 0; i < setup.slices.size(); ++i) {
    const SliceSetup& slice = setup.slices[i];
    SliceVerdict sv;
    sv.slice = slice.name();
    sv.sharing = slice.sharing;
    sv.gpu_model = slice.gpu_model;
    double predicted_sum = 0, measured_sum = 0;
    bool sums_known = true;
    const std::vector<SharedStalls> stalls = stalls_per_run(runs, i, sv.stalls);
    for (const auto& run : runs) {
      if (i >= run.activity.size() || !run.activity[i]) continue;
      const WindowActivity& a = *run.activity[i];
      if (a.sm_active) sv.sm_active.runs.push_back(*a.sm_active);
      if (a.dram_bw) sv.dram_bw.runs.push_back(*a.dram_bw);
      if (a.tensor_active) sv.tensor_active.runs.push_back(*a.tensor_active);
    }
    sv.predicted_sm_active = slice.predicted_sm_active;
    if (const auto measured = sv.sm_active.mean(); measured && sv.predicted_sm_active) {
      sv.sm_active_error = *measured - *sv.predicted_sm_active;
    }
    for (size_t j = 0; j < slice.replicas.size(); ++j) {
      const ReplicaSetup& setup_r = slice.replicas[j];
      ReplicaVerdict v;
      v.workload = setup_r.workload;
      v.replica = setup_r.replica;
      v.slice = slice.name();
      v.reports = setup_r.reports;
      v.slo_ms = setup_r.slo_ms;
      v.memory_limit_bytes = setup_r.memory_limit_bytes;
      double worst_p99 = 0;
      std::optional<long> fewest;
      for (size_t k = 0; k < runs.size(); ++k) {
        const ReplicaRun& r = runs[k].slices[i][j];
        if (r.figures && r.figures->requests > 0) fewest = std::min(fewest.value_or(r.figures->requests), r.figures->requests);
        if (const StalledClient* c = stalled(stalls[k], r.name)) {
          v.stall_hit_fraction.runs.push_back(c->hit_fraction);
          if (c->p99_without_ms) v.p99_without_stalls_ms.runs.push_back(*c->p99_without_ms);
        }
        if (r.figures && r.figures->p99_ms) {
          v.p99_ms.runs.push_back(*r.figures->p99_ms);
          worst_p99 = std::max(worst_p99, *r.figures->p99_ms);
        }
        if (r.figures && r.figures->requests > 0) v.req_per_s.runs.push_back(r.figures->req_per_s);
        if (r.peak_memory_bytes) v.peak_memory_bytes = std::max(v.peak_memory_bytes.value_or(0), *r.peak_memory_bytes);
        v.gpu_seen = v.gpu_seen || r.gpu_seen;
        if (const auto p = ended_problem(r)) v.failures.push_back(*p);
        if (setup_r.reports && r.reported && !(r.figures && r.figures->requests > 0)) {
          v.failures.push_back("reported no request in the window");
        }
      }
      if (v.peak_memory_bytes && v.memory_limit_bytes > 0 && *v.peak_memory_bytes > v.memory_limit_bytes) {
        v.failures.push_back(fmt::format("used {:.0f} MiB of GPU memory, over its limit of {:.0f} MiB",
                                         static_cast<double>(*v.peak_memory_bytes) / 1048576.0,
                                         static_cast<double>(v.memory_limit_bytes) / 1048576.0));
      }
      if (fewest && *fewest < kSteadyP99Requests) {
        few_requests.emplace_back(v.workload + "-" + std::to_string(v.replica), std::to_string(*fewest));
      }
      const AloneFigures* a = alone_of(alone, v.workload);
      if (setup_r.reports) predict(v, setup_r, slice, a);
      v.p99_error = error_of(v.p99_ms.mean(), v.predicted_p99_ms);
      v.throughput_error = error_of(v.req_per_s.mean(), v.predicted_req_per_s);
      if (stalls_worth_naming(v)) v.p99_error_without_stalls = error_of(v.p99_without_stalls_ms.mean(), v.predicted_p99_ms);
      if (a && v.prediction_source == "profile") {
        v.rebased_p99_error = rebased_error(v.p99_ms.mean(), v.predicted_p99_ms, a->p99_drift());
        v.rebased_throughput_error = rebased_error(v.req_per_s.mean(), v.predicted_req_per_s, a->req_per_s_drift());
      }
      if (v.p99_error && std::fabs(*v.p99_error) > tolerance) {
        v.warnings.push_back(fmt::format("p99 {:+.0f}% off the prediction (tolerance {:.0f}%){}", *v.p99_error * 100, tolerance * 100,
                                         stall_note(v, sv.stalls)));
      }
      if (v.throughput_error && std::fabs(*v.throughput_error) > tolerance) {
        v.warnings.push_back(fmt::format("throughput {:+.0f}% off the prediction (tolerance {:.0f}%)",
                                         *v.throughput_error * 100, tolerance * 100));
      }
      v.miss_within_profile_runs = miss_within_profile_runs(v, a, tolerance);
      // The SLO must hold in every repeat: the worst one decides.
      if (v.slo_ms && !v.p99_ms.runs.empty()) v.slo_met = worst_p99 <= *v.slo_ms;
      if (v.slo_met) sv.slo_met = sv.slo_met.value_or(true) && *v.slo_met;
      if (v.predicted_req_per_s && v.req_per_s.mean()) {
        predicted_sum += *v.predicted_req_per_s;
        measured_sum += *v.req_per_s.mean();
      } else {
        sums_known = false;
      }
      if (v.predicted_p99_ms) {
        const double worst_predicted = v.predicted_worst_copy_p99_ms.value_or(*v.predicted_p99_ms);
        sv.predicted_worst_p99_ms = std::max(sv.predicted_worst_p99_ms.value_or(0), worst_predicted);
      }
      if (v.p99_ms.mean()) sv.measured_worst_p99_ms = std::max(sv.measured_worst_p99_ms.value_or(0), *v.p99_ms.mean());
      report.replicas.push_back(std::move(v));
    }
    if (sums_known && !slice.replicas.empty()) {
      sv.predicted_req_per_s = predicted_sum;
      sv.measured_req_per_s = measured_sum;
      sv.throughput_error = error_of(sv.measured_req_per_s, sv.predicted_req_per_s);
    }
    sv.p99_error = error_of(sv.measured_worst_p99_ms, sv.predicted_worst_p99_ms);
    report.slices.push_back(std::move(sv));
  }
  add_measurement_notes(report, few_requests);
  return report;
}

bool run_fits(const std::vector<SliceSetup>& slices, const SessionRun& run, std::string& why) {
  for (size_t i = 0; i < slices.size(); ++i) {
    for (size_t j = 0; j < slices[i].replicas.size(); ++j) {
      const ReplicaSetup& s = slices[i].replicas[j];
      const ReplicaRun& r = run.slices[i][j];
      if (const auto p = ended_problem(r)) {
        why = s.name() + " " + *p;
        return false;
      }
      if (!s.reports || !s.slo_ms) continue;
      if (!r.figures || !r.figures->p99_ms) {
        why = s.name() + " reported no request in the window";
        return false;
      }
      if (*r.figures->p99_ms > *s.slo_ms) {
        why = fmt::format("{} p99 {:.2f} ms > SLO {:.2f} ms", s.name(), *r.figures->p99_ms, *s.slo_ms);
        return false;
      }
    }
  }
  return true;
}

}  // namespace gpupack::verify
