#pragma once
// The comparison `gpupack verify` reports (pure): per replica and per slice the predicted and measured
// p99 and throughput over the repeats, the prediction error beside the run-to-run spread, the SLO, the
// checks made on programs that do not speak the client report; and its versioned JSON (docs/verify.md).
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "measure/baseline.hpp"
#include "model/model_parameters.hpp"
#include "verify/verify_session.hpp"
#include "verify/verify_setup.hpp"

namespace gpupack::verify {

// The JSON's verify_version: fields are only ever added.
inline constexpr int kVerifyJsonVersion = 1;

// A measured quantity over the repeats: the mean, and (max - min) / mean as the run-to-run spread.
struct Measured {
  std::vector<double> runs;
  std::optional<double> mean() const;
  std::optional<double> spread() const;
};

// What a workload does alone on a whole GPU (the solo runs), the base of the predictions.
struct AloneFigures {
  std::string workload;
  // "solo run"; "profile": not run, the plan's profile predicts every replica of it; "none" (--no-solo, or
  // it does not report)
  std::string source;
  Measured p99_ms, req_per_s;
  // Its profile's figures alone (--scenario with profiles); with a solo run here, the drift of this machine
  // from the profile's: measured here / profile - 1.
  std::optional<double> profile_p99_ms, profile_req_per_s;
  std::string profile_scaled_from;  // the GPU model the profile was measured on, when scaled to this one
  RunRange profile_runs = {};       // how far apart its profile's baseline runs alone were (ProfileAlone::runs)
  // How long the fixed CPU work took on its profile's host (ProfileAlone::host_core_work_ms).
  std::optional<double> profile_host_core_work_ms = std::nullopt;
  std::optional<double> p99_drift() const;
  std::optional<double> req_per_s_drift() const;
};

struct ReplicaVerdict {
  std::string workload, slice;  // slice: gpu/slice
  int replica = 0;
  bool reports = true;
  std::optional<double> predicted_p99_ms, predicted_req_per_s;
  // Copies of one workload from their grid: the worst copy's p99 the plan's SLO check read (predicted_p99_ms
  // is the median copy's); none otherwise. The margin check and the slice's worst predicted p99 read it.
  std::optional<double> predicted_worst_copy_p99_ms;
  // "profile": the plan's profile predictions (a figure the profile leaves out: inflation x solo);
  // "inflation x solo": the plan's inflation and slice throughput x the solo run; "none": no prediction.
  std::string prediction_source = "none";
  bool extrapolated = false;  // the plan's profile prediction lies outside what the profile measured
  // The plan's correction by observation in the predictions above (ReplicaSetup), for plan --observed.
  std::optional<double> observed_p99, observed_req_per_s;
  Measured p99_ms, req_per_s;
  std::optional<double> p99_error, throughput_error;  // (measured - predicted) / predicted
  // The profile's predictions rebased on this machine's solo runs (x measured alone here / profile alone):
  // the error left to the co-location model once the machine's drift is taken out (--measure-alone).
  std::optional<double> rebased_p99_error, rebased_throughput_error;
  // Off the prediction beyond the tolerance, and by no more than its profile's baseline runs alone were apart
  // (verify/run_range.hpp): a miss its profile could not have told from this machine's noise. None where
  // within the tolerance, not predicted from a profile, or its baseline has one run.
  std::optional<bool> miss_within_profile_runs;
  std::optional<double> slo_ms;
  std::optional<bool> slo_met;
  std::optional<std::uint64_t> peak_memory_bytes;
  std::uint64_t memory_limit_bytes = 0;
  bool gpu_seen = false;
  // What fails the plan on this machine: a crash, memory over its limit, no request reported (with a
  // broken SLO, slo_met, these make its verdict "fail"; verify/verify_verdict.hpp).
  std::vector<std::string> failures;
  // A prediction error over the tolerance: the model's miss, not the plan's; a warning unless --strict.
  std::vector<std::string> warnings;
  // The JSON's "problems" as before the split: the failures, then the warnings.
  std::vector<std::string> problems() const;
  // Per run, from its request lines (verify/shared_stalls.hpp): the share of its requests that met a
  // shared stall, and its p99 over the others.
  Measured stall_hit_fraction, p99_without_stalls_ms;
  // Where the stalls are named (stalls_worth_naming): the p99 error over the requests they did not meet,
  // the model's error on the quiet machine it predicts (docs/verify.md, "Shared stalls").
  std::optional<double> p99_error_without_stalls;
};

// The shared stalls of a slice over the repeats (verify/shared_stalls.hpp).
struct SliceStalls {
  int events = 0;
  double seconds = 0;              // the windows they were found in, summed
  double mean_ms = 0, max_ms = 0;  // time beyond the stalled requests' medians
  std::optional<std::string> aligned_with;  // the replica whose requests they lined up with, in most runs
  double per_second() const { return seconds > 0 ? events / seconds : 0.0; }
};

// A replica whose requests met shared stalls this often (or more) has them named beside its p99: from 1%
// of its requests, they can hold its p99.
inline constexpr double kStallsWorthNaming = 0.01;
// ... as has one whose p99 drops by this share (or more) without the requests that met one: its mean hit
// share can stay under 1% while one repeat's passes it (run 11, machine g: 0.94%, p99 8.2 ms, 5.6 without).
inline constexpr double kStallsP99Lift = 0.10;

// A p99 over fewer requests than this in a window rests on its slowest 10 or fewer: verify notes that a
// longer --duration steadies it (resnet18-b1's p99 varied by up to 51% between 8 s windows of ~2000).
inline constexpr long kSteadyP99Requests = 1000;

// Whether shared stalls are named beside the replica's p99 (kStallsWorthNaming, kStallsP99Lift).
bool stalls_worth_naming(const ReplicaVerdict& v);

struct SliceVerdict {
  std::string slice, sharing;
  std::string gpu_model;  // the plan's GPU model of its GPU
  std::optional<double> predicted_req_per_s, measured_req_per_s, throughput_error;  // sum over its replicas
  std::optional<double> predicted_worst_p99_ms, measured_worst_p99_ms, p99_error;
  std::optional<bool> slo_met;
  SliceStalls stalls;
  // The GPU's GPM activity over each run's window (verify/window_activity.hpp); empty without GPM.
  Measured sm_active, dram_bw, tensor_active;
  // The SM activity the plan predicted from the clients' profiles (model/slice_activity.hpp), and the measured
  // mean less it (a difference of shares, not a ratio); none where either is missing.
  std::optional<double> predicted_sm_active, sm_active_error;
  bool has_activity() const { return !sm_active.runs.empty() || !dram_bw.runs.empty() || !tensor_active.runs.empty(); }
  // "SM active 0.62 (predicted 0.58), DRAM bandwidth 0.97, tensor 0.30" (means over the runs): the table's
  // and the HTML report's one wording; empty without GPM.
  std::string activity_text() const;
};

struct SearchStep {
  int replicas = 0;  // of the searched workload on the slice
  bool fits = false;
  std::optional<double> worst_p99_ms;
  // The searched workload's req/s summed over its replicas in the step's window: past the host's cores its
  // copies may keep the SLO and add nothing (issue 37: a decode loop's aggregate stopped at 16 copies on 16
  // cores while 19 kept a loose SLO), which the count alone does not show.
  std::optional<double> aggregate_req_per_s;
  std::string why;   // why it does not fit
};

struct SearchResult {
  std::string workload, slice;
  int planned = 0;       // replicas of the workload the plan put on the slice
  int most_that_fit = 0;
  bool capped = false;   // the search stopped at --search-max without breaking an SLO
  std::vector<SearchStep> steps;
  // Replicas of the workload the plan asked for but left unplaced, and the plan's reason for the first of
  // them (code and text): why the plan stopped where it did.
  int unplaced = 0;
  std::string unplaced_code, unplaced_reason;
  // The plan's replicas over the most that fit (issue 15's target is 0.9 or more); an upper bound when
  // capped (more may fit); none when not even one fits.
  std::optional<double> planned_share() const {
    return most_that_fit > 0 ? std::optional<double>(static_cast<double>(planned) / most_that_fit) : std::nullopt;
  }
  // "; plan / density 0.63" ("at most 0.63" when capped), or empty when none fit: the table's and the
  // HTML report's one wording of it.
  std::string planned_share_text() const;
  // Where the workload's req/s together stopped growing, read from the fitting steps in order of replicas by
  // the rule that reads a profile's MPS grid (model parameter host_cpu_knee_growth_share): the first step
  // after which the next fitting one grew by less than `growth_share` of what its added replicas would add
  // at the step's rate a replica. A flat sum is noise around one level (run44: 2498-2677 req/s from 15 to
  // 30 mobilenet on an H200's 16 cores), so its highest step says nothing; the first that did not grow does.
  struct Knee {
    const SearchStep* at = nullptr;    // the last step that still grew (or the most that fit, where all grew)
    const SearchStep* next = nullptr;  // the fitting step after it that did not grow; none where all grew
    double planned_share = 0;          // the plan's replicas over `at`'s
  };
  double growth_share = ModelParameters{}.host_cpu_knee_growth_share;
  // None without a fitting step that measured its req/s together.
  std::optional<Knee> knee() const;
  // The plan's replicas over the knee's ("; its req/s together stopped growing after 15 replicas (2547 req/s,
  // 2653 at 19): plan / knee 1.00"), or empty without one.
  std::string knee_text() const;
  // "the plan left 9 more of resnet18-b1 unplaced (no_host_cores): no host cores left: ...", or empty.
  std::string unplaced_text() const;
};

// A workload's SLO margin against this run (verify/margin_check.hpp).
struct MarginCheck {
  std::string workload;
  double kept = 0;    // the slo_margin its plan kept (from --scenario)
  double needed = 0;  // its worst window's p99 / its predicted p99 - 1, over its replicas
  std::string replica;
  double worst_p99_ms = 0, predicted_p99_ms = 0;
};

struct VerifyReport {
  std::string node;
  double warmup_s = 0, duration_s = 0, tolerance = 0;
  double sample_interval_s = 0;  // how often the GPU was read (--sample-interval)
  int repeat = 0;
  std::vector<std::string> notes;
  std::vector<AloneFigures> alone;
  std::vector<ReplicaVerdict> replicas;
  std::vector<SliceVerdict> slices;
  std::optional<SearchResult> search;
  std::vector<MarginCheck> margins;  // per workload with an SLO and a predicted p99
  // The node's cores timed on a fixed piece of CPU work before the runs (SessionDeps::cpu_probe), the same
  // work a profile times (measure::HostCoreWork): this host's speed beside its profiles' hosts'.
  std::optional<measure::HostCoreWork> host_core_work;
  // --strict: a prediction error over the tolerance fails the run too (verify/verify_verdict.hpp).
  bool strict = false;
  bool ok() const;  // every SLO met, every error within the tolerance, no crash, no memory over its limit
};

// `runs`: the configuration's repeats, each parallel to the setup. `alone`: per workload.
VerifyReport compare(const VerifySetup& setup, const std::vector<SessionRun>& runs, const std::vector<AloneFigures>& alone,
                     double tolerance);

// Whether every replica of one run met its SLO and none failed (the density search's test); `why` names
// the first that did not.
bool run_fits(const std::vector<SliceSetup>& slices, const SessionRun& run, std::string& why);

nlohmann::ordered_json to_json(const VerifyReport& report);

}  // namespace gpupack::verify
