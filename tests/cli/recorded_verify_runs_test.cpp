// The profile model replayed on every recorded verify run of results/model-runs.json (`gpupack model
// replay`, docs/model-parameters.md): each run's one MPS slice predicted again from the recorded profiles
// (tests/planner/data/profiles-h100-2026-11-23) and compared with what verify measured there, replica by
// replica. A regression guard, not a validation: the in-sample runs are those the model's constants were
// fitted on, and the bounds sit just above today's errors; the held-out runs (measured with a model committed
// before them and fitted on nothing since) are in the same bounds. The corpus runs (programs no constant was
// fitted on, issue 36) have bounds of their own, far wider: TheCorpusStaysWithinItsOutOfSampleErrors. A change to the model that fits these runs
// worse fails here; docs/decisions.md ("Measured error") quotes the table this prints. The replay tool's
// numbers are checked against this test's own computation (predicted through the model's test helper, the
// profiles the scenarios name).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <nlohmann/json.hpp>

#include "cli/command.hpp"
#include "cli/profile_loading.hpp"
#include "core/gpu_catalog.hpp"
#include "io/input_file.hpp"
#include "io/scenario_yaml.hpp"
#include "model/predict_clients.hpp"
#include "model/profile_prediction.hpp"
#include "verify/recorded_run.hpp"
#include "verify/run_manifest.hpp"
#include "replay_output.hpp"

namespace gpupack {
namespace {

const std::string kRoot = GPUPACK_SOURCE_DIR;
using test::kManifest;
using test::replay_output;

const verify::RunManifest& manifest() {
  static const verify::RunManifest m =
      verify::parse_run_manifest(read_input_file(PosixFilesystem{}, kManifest), kManifest);
  return m;
}

// Predicted (req/s, p99 ms) per workload of the run's one MPS slice, from its recorded plan and the profiles
// its scenario names (relative to it: the corpus runs' scenarios sit beside their profiles/), or where a
// scenario names a path of the machine it ran on (run38's /root/out/...), from the run's own profiles.
std::map<std::string, ClientPrediction> predict_recorded(const verify::RecordedRun& run) {
  const GpuCatalog catalog = builtin_catalog();
  const PosixFilesystem fs;
  const std::string path = kRoot + "/" + run.scenario;
  Scenario s = parse_scenario_yaml(read_input_file(fs, path), path, catalog);
  bool device_paths = false;
  for (Workload& w : s.workloads) {
    if (!w.profile_path || !w.profile_path->starts_with("/")) continue;
    w.profile_path.reset();
    device_paths = true;
  }
  attach_profiles(fs, s, path, device_paths ? kRoot + "/" + run.profiles : "", catalog);
  const std::string plan_path = kRoot + "/" + run.dir + "/plan.json";
  const nlohmann::json plan = nlohmann::json::parse(read_input_file(fs, plan_path));
  const nlohmann::json& slice = plan.at("gpus").at(0).at("slices").at(0);
  std::vector<PredictionInput> in;
  std::vector<std::string> names;
  for (const auto& c : slice.at("clients")) {
    const std::string name = c.at("replicas").at(0).at("workload");
    const auto w = std::find_if(s.workloads.begin(), s.workloads.end(),
                                [&](const Workload& x) { return x.name == name; });
    if (w == s.workloads.end()) throw std::runtime_error(run.dir + ": no workload " + name);
    in.push_back({&*w, static_cast<int>(c.at("replicas").size()), c.at("compute").get<double>(),
                  c.at("mps_active_thread_percentage").get<int>(), 1.0});
    names.push_back(name);
  }
  const std::vector<ClientPrediction> preds =
      test::predict_clients(Sharing::mps, slice_capacity_on(s.fleet.front()), in);
  std::map<std::string, ClientPrediction> out;
  for (size_t i = 0; i < preds.size(); ++i) out[names[i]] = preds[i];
  return out;
}

struct Worst {
  double req = 0;
  double p99 = 0;          // over the replicas without shared stalls
  double req_abs_sum = 0;  // for the mean absolute req/s error
  double p99_abs_sum = 0;  // over the replicas without shared stalls
  int replicas = 0;
  int stall_free = 0;
  // The others, where verify recorded their p99 without the requests shared stalls met.
  double quiet_p99 = 0, quiet_p99_abs_sum = 0;
  int quiet = 0;
};

// One replica of a recorded run: its workload and errors (predicted / measured - 1) under the current model.
struct ReplicaError {
  std::string workload;
  double req = 0, p99 = 0;
  double predicted_p99_ms = 0;
  verify::RecordedReplica recorded;  // its entry in the run's verify.json (stall_free: verify/recorded_run.hpp)
};

std::vector<ReplicaError> replica_errors(const verify::RecordedRun& run) {
  const auto preds = predict_recorded(run);
  const std::string path = kRoot + "/" + run.dir + "/verify.json";
  std::vector<ReplicaError> out;
  for (const verify::RecordedReplica& r : verify::recorded_replicas(read_input_file(PosixFilesystem{}, path), path)) {
    const ClientPrediction& p = preds.at(r.workload);
    out.push_back({r.workload, *p.req_per_s / r.req_per_s - 1, *p.p99_ms / r.p99_ms - 1, *p.p99_ms, r});
  }
  return out;
}

// Error = predicted / measured - 1 for every replica of every run of the manifest in `sets`, per workload.
std::map<std::string, Worst> errors_over_runs(const std::set<verify::RunSet>& sets) {
  std::map<std::string, Worst> worst;
  for (const verify::RecordedRun& run : manifest().runs) {
    if (!sets.contains(run.set)) continue;
    for (const ReplicaError& err : replica_errors(run)) {
      Worst& w = worst[err.workload];
      w.req = std::max(w.req, std::abs(err.req));
      w.req_abs_sum += std::abs(err.req);
      ++w.replicas;
      if (err.recorded.stall_free) {
        w.p99 = std::max(w.p99, std::abs(err.p99));
        w.p99_abs_sum += std::abs(err.p99);
        ++w.stall_free;
      } else if (err.recorded.p99_without_stalls_ms) {
        const double e = err.predicted_p99_ms / *err.recorded.p99_without_stalls_ms - 1;
        w.quiet_p99 = std::max(w.quiet_p99, std::abs(e));
        w.quiet_p99_abs_sum += std::abs(e);
        ++w.quiet;
      }
    }
  }
  return worst;
}

// Throughput is what the model predicts best. Its constants (launch path 0.10, DRAM queueing 0.4, the
// kernel-width weighting's form) were chosen on runs 1-6, the bursts of wider neighbours (0.4, 2) on runs
// 1-13; run 7, the tail probe and runs 8-12 were out of sample for the first, runs 14-16 for the second
// (docs/decisions.md, "Measured error"). Over all these runs: every replica within 30% (worst: resnet18-b1
// beside MLPs held to 60%, +27% in run 16's mixed6, and +26% on the probe's machine c; before the bursts
// term 46%), and the mean absolute error per workload within 10%. p99 where it is the replica's
// own (stall_free above): every replica within 45%, the mean absolute error within 15% (the GEMM profile
// has no SM-share curve, so its p99 under a cap is extrapolated: 14.7% with p99 / kept, 12.5% with the tail
// beyond the mean kept as alone (worst 30% -> 24%, through run 20); the 1.3x tail cap,
// colocated_tail_ratio, took resnet18-b1 from 69% to 14% and mlp-b8 from 27% to 13% over these runs; the
// tail excess of the client's own, colocated_tail_excess, from 15.9% to 12.1% and 13.7% to 10.7% through
// run 17, and the worst from 36% to 41%: 3 replicas of run 4's density slice, -41%, whose p99 was 1.97-1.99x
// their mean, just under the 2x counted as a tail of their own; the other 12 had 2.0-2.4x).
// Printed, not bounded: the others' p99 without the requests shared stalls met (resnet18-b1 through run
// 16: mean 16.0%, worst 62%, on machine c, whose tail was long outside its stalls too).
const std::set<verify::RunSet> kFittedPrograms = {verify::RunSet::in_sample, verify::RunSet::held_out};

TEST(RecordedVerifyRuns, TheModelStaysWithinItsMeasuredErrors) {
  std::cout << replay_output({});
  const auto worst = errors_over_runs(kFittedPrograms);
  ASSERT_EQ(worst.size(), 3u);
  for (const auto& [w, e] : worst) {
    EXPECT_LT(e.req, 0.30) << w;
    EXPECT_LT(e.req_abs_sum / e.replicas, 0.10) << w;
    // The bounds below speak for a large share of the replicas: since run 13 (machine i, shared stalls in
    // every scenario) just under half of resnet18-b1's replicas have a tail of their own (173 of 348).
    EXPECT_GE(5 * e.stall_free, 2 * e.replicas) << w;
    EXPECT_LT(e.p99, 0.45) << w;
    EXPECT_LT(e.p99_abs_sum / std::max(1, e.stall_free), 0.15) << w;
  }
}

// One of the replay's error summaries against this test's count, worst and sum of absolute errors; null
// figures where no replica counted.
void expect_stats(const nlohmann::json& stats, int count, double worst, double abs_sum, const std::string& what) {
  EXPECT_EQ(stats["count"], count) << what;
  if (count == 0) {
    EXPECT_TRUE(stats["worst"].is_null() && stats["mean_abs"].is_null()) << what;
    return;
  }
  EXPECT_NEAR(stats["worst"].get<double>(), worst, 1e-12) << what;
  EXPECT_NEAR(stats["mean_abs"].get<double>(), abs_sum / count, 1e-12) << what;
}

// `gpupack model replay --format json` gives this test's numbers: every run of the manifest in its set, and
// per set and workload the same worst and mean errors over the same replicas: the runs of the programs the
// constants were fitted on, and the corpus runs (each predicted from the profiles measured in it).
void expect_replay_reproduces(const nlohmann::json& replay, const std::string& set, const std::map<std::string, Worst>& errors) {
  std::set<std::string> seen;
  for (const auto& [w, e] : errors) {
    for (const auto& s : replay.at("summary")) {
      if (s["set"] != set || s["workload"] != w) continue;
      seen.insert(w);
      EXPECT_EQ(s["replicas"], e.replicas) << w;
      EXPECT_NEAR(s["req_per_s"]["worst"].get<double>(), e.req, 1e-12) << w;
      EXPECT_NEAR(s["req_per_s"]["mean_abs"].get<double>(), e.req_abs_sum / e.replicas, 1e-12) << w;
      expect_stats(s["p99"], e.stall_free, e.p99, e.p99_abs_sum, w + " p99");
      expect_stats(s["p99_without_stalls"], e.quiet, e.quiet_p99, e.quiet_p99_abs_sum, w + " p99 without stalls");
    }
  }
  EXPECT_EQ(seen.size(), errors.size()) << set;
}

TEST(RecordedVerifyRuns, TheReplayToolReproducesTheseErrors) {
  const nlohmann::json replay = nlohmann::json::parse(replay_output({"--format", "json"}));
  ASSERT_EQ(replay.at("runs").size(), manifest().runs.size());
  for (size_t i = 0; i < manifest().runs.size(); ++i) {
    EXPECT_EQ(replay["runs"][i]["dir"], manifest().runs[i].dir);
    EXPECT_EQ(replay["runs"][i]["set"], verify::run_set_name(manifest().runs[i].set));
  }
  const auto fitted = errors_over_runs(kFittedPrograms);
  EXPECT_EQ(fitted.size(), 3u);
  const auto corpus = errors_over_runs({verify::RunSet::corpus});
  EXPECT_EQ(corpus.size(), 9u);  // the corpus's nine programs
  for (const auto& [w, _] : corpus) EXPECT_FALSE(fitted.contains(w)) << w << " is one the constants were fitted on";
  const nlohmann::json corpus_replay = nlohmann::json::parse(replay_output({"--set", "corpus", "--format", "json"}));
  expect_replay_reproduces(corpus_replay, "corpus", corpus);
  std::map<std::string, Worst> both = fitted;
  both.insert(corpus.begin(), corpus.end());
  expect_replay_reproduces(replay, "all", both);
}

// The corpus (issue 36: nine programs no constant was fitted on, each run predicted from the profiles measured
// in it; results/model-runs.json, set "corpus"): a regression guard, not a validation. Out of sample the
// model is far from issue 36's targets: with the built-in parameters of 2026-11-27 and the DRAM residual
// (model/dram_sensitivity.hpp; run 41 added, its check) and run 42's density scenario on two H200s (22 and
// 20 mobilenet-v3-b8 on 16 cores; their rate a copy from their own grid past the cores: the rule was made on
// this run, so in sample for it; and its last call, on an H100 from the H200 profiles) and run 43's closed loop
// on the memory scenario (both rounds, on an H200 and an H100, predicted from their profiles alone) and run
// 44's density plan at the knee on another H200 (run 42's rules out of sample) and run 45's closed loops (the
// triad scenario from runs 39-40's profiles; the inference scenario from profiles measured in it) and runs 46-48
// (the inference scenario with an MPS grid in the profiles: its closed loop on an H200 and an H100, and the
// H200's plan verified again on another H200) and run 49 (run 45's H200 profiles, no grid, planned again and
// verified on another H200) and runs 51-52 (the neighbour scenario's closed loop on an H200 and the triad
// scenario's on an H100, from profiles with the short grid and the standard neighbour `profile --sweep` now
// runs by default) and run 53 (run 51's plan verified again on another H200), 184 of 361 replicas within both
// (p99 as verify
// measured it, shared stalls or not), and beside the DRAM-saturating stream-triad (the memory runs of
// profiles without a neighbour cell) req/s errors of +50..+160% (docs/decisions.md, "Out of sample: the
// corpus"). Since the triad's kernels slow as its own SM-share curve says (model/kernel_share_stretch.hpp,
// made on the six memory runs it ran in, so in sample for it), it is within both targets in all six (req/s
// mean 7.1%, p99 16.7%; before 48.6% and 69.8%).
// The bounds sit 3 points above the mean absolute errors per workload of the day they were set: a model change that predicts a corpus
// program worse fails here; one that predicts it better should lower its bound here. Run 44 raised two: on its
// H200 the training job ran its p99 45% under the prediction (its slowdown beside 15 mobilenet), and two of the
// 15 mobilenet had a tail of their own 28-64% over it. Run 45 raised two more: on its H200 the launch-bound
// bert and mobilenet ran 1.5-1.6x the req/s predicted beside 9 others (the launch path's cost, fitted on H100s,
// without a grid in their profiles to measure it), their p99 predicted 30-74% too high. Runs 46-48 lowered
// three: resnet50-b32's copies saturating the GPU in its own grid give its demand (grid_gpu_demand; made on run
// 46, out of sample on 47 and 48), and bert's and mobilenet's errors there were small; mobilenet's again once
// kernels stretched below the SM-share curve lengthen a request only past its whole time (model/profile_alone.cpp,
// made on runs 46 and 48). Run 51 raised one: unet-step-b4, until then one replica, ran 17-21% under its
// predicted req/s beside the training job and 6 mobilenet on an H200. Counting neighbours as copies by their
// SM activity for a launch-path cost read from the grid (contention::copy_equivalents; made on runs 51-53, so in
// sample for it) lowered train-resnet18-b64's (req/s 27.5% -> 20.5%) and raised unet-step-b4's (19.1% -> 22.3%).
// A replica of copies predicted from its grid at the median copy's p99, not the worst's (which the SLO check
// still reads) lowered decode-b1's p99 from 32.1% to 11.5%. Run 54 (the memory scenario on an H200, out of
// sample) raised stream-triad's (req/s 9.2% -> 13.0%, p99 19.0% -> 23.4%): at 30% of the SMs beside three dlrm
// it ran twice the req/s predicted (11.1% and 19.1% once a grid whose copies filled the DRAM no longer gives a
// GPU demand); and bert-base-b4's req/s (28.5% -> 31.7%), half as fast as predicted beside
// three dlrm that kept the SMs 0.96 busy. Run 55 (the inference scenario on an H200 whose baselines spread
// 30-50%, out of sample) raised bert-base-b4's req/s to 34.0% and resnet50-b32's from 11.2% to 17.3%: every
// workload ran 11-35% under its predicted req/s. Run 64 and its repeat (the inference scenario on H200s,
// resnet50-b32's profile from run55, out of sample) raised bert-base-b4's p99 to 31.0% (predicted slower than it
// ran: the wait for SMs beside neighbours whose caps add past 100% but which left the SMs 0.75 busy),
// mobilenet-v3-b8's to 18.2%, and resnet50-b32's req/s to 22.1% (it ran 128-137 req/s against 204 predicted).
// Run 81 (run 64's scenarios from the same profiles on another H200, out of sample) raised bert-base-b4's
// (req/s 35.9% -> 37.1%, p99 31.0% -> 33.4%), mobilenet-v3-b8's p99 (18.2% -> 19.4%) and resnet50-b32's req/s
// (22.1% -> 24.4%): the same wait for SMs in the inference scenario, and resnet50 alone 35% under its profile.
// Carrying that wait on how far the neighbours and the program go past every SM, not on the neighbours' whole
// SM activity (contention::sm_overload; made on runs 64, 76, 77 and 81, so in sample for it) lowered
// bert-base-b4's (req/s 37.1% -> 34.2%, p99 33.4% -> 25.5%) and mobilenet-v3-b8's p99 (19.4% -> 13.8%).
// Run 82 (that rule's plans on another H200, out of sample) raised bert-base-b4's p99 (25.5% -> 27.3%) and
// resnet50-b32's req/s (24.4% -> 27.4%: it ran 64-66% of its predicted req/s, its profile from run55).
// Run 83 (two new mixes on another H200, out of sample) added 17 replicas, 6 within both in replay; run 84 (the
// saturated and inference plans of run 82 again, before their searches) 16, 6 within both, and raised
// resnet50-b32's req/s (29.3% -> 30.1%: it ran 68-70% of its predicted req/s again). Run 85 (the saturated
// plan with 8 mobilenet and the inference plan with 10 bert, out of sample) added 28 replicas, 8 within both,
// and raised bert-base-b4's (req/s 35.9% -> 37.4%, p99 29.0% -> 31.5%: ten copies ran 2.0-2.4x the req/s
// predicted) and resnet50-b32's req/s (30.1% -> 32.2%: 0.57 of its predicted req/s beside them). Run 86 (run 85
// again on another H200, and a closed-loop round replayed without its correction) added 42 replicas, 12 within both,
// and raised bert-base-b4's (req/s 37.4% -> 38.7%, p99 31.5% -> 34.4%: ten copies 2.1-2.4x their predicted req/s
// again) and resnet50-b32's req/s (32.2% -> 34.2%). Run 87 (the inference scenario at the plan's own most: 10
// mobilenet, then 12 bert twice, the second planned with --observed; out of sample) added 48 replicas, 13 within
// both, and raised bert-base-b4's (req/s 38.7% -> 41.1%, p99 34.4% -> 39.8%: 28 copies 2.2-2.4x their predicted
// req/s) and resnet50-b32's (req/s 34.2% -> 39.2%, p99 -> 19.0%: 0.53-0.56 of its predicted req/s). Run 88 (run
// 87's mobilenet round planned again with --observed, replayed without the correction) added 16 replicas, none
// within both, and raised mobilenet-v3-b8's req/s (13.7% -> 14.6%: 11 copies 0.72-0.75 of their predicted req/s),
// bert-base-b4's p99 (39.8% -> 40.7%) and resnet50-b32's req/s (39.2% -> 40.2%). Run 90 (the neighbour scenario
// from run56's profiles on another H200, and its closed-loop round, out of sample) added 22 replicas, 20 within both.
// Run 91 (run 85's inference and saturated scenarios from run64's profiles on another H200, out of sample) added
// 28 replicas, 8 within both, and raised bert-base-b4's (req/s 41.2% -> 42.2%: ten copies 2.2-2.5x their
// predicted req/s; p99 40.7% -> 43.0%) and resnet50-b32's req/s (40.2% -> 42.0%: 0.53-0.54 of its prediction).
// The launch cost read from a grid whose copies kept no less than the slowest baseline run alone is not counted
// (model/profile_prediction.cpp): bert-base-b4's req/s 42.2% -> 33.3%, p99 43.0% -> 24.6%, within both 31 -> 37;
// unet-step-b4's req/s 24.5% -> 28.6%, p99 5.1% -> 8.0% (7 replicas, 1 within both either way). A profile's
// DRAM cells' req/s slowdowns pooled where one at a larger draw lost less (model/dram_sensitivity.cpp):
// bert-base-b4's req/s 33.3% -> 28.9%, p99 24.6% -> 21.1%, within both 37 -> 51. run92 (measured after both,
// run64's profiles): resnet50-b32's 3 replicas ran 38-47% under their predicted req/s again (its run55 profile):
// req/s 42.0% -> 43.6%, p99 19.9% -> 20.5%. Beside neighbours that fill the SMs a request's mean is no
// shorter than its p99 over the tail its profile's cell beside such a neighbour measured
// (model/saturation_wait.hpp): mobilenet-v3-b8's req/s 14.7% -> 11.6%, within both 157 -> 195 of 318. Runs
// 98-99 (19 more mobilenet replicas): 208 of 337. No shorter than its p99 less that cell's tail in ms either,
// whichever is longer: req/s 11.6% -> 9.6%, within both 208 -> 241 of 337; run101 (measured after it): 256 of 352.
struct CorpusBound {
  double req_per_s_mean_abs;
  double p99_mean_abs;  // over the replicas whose tail is their own
};
const std::map<std::string, CorpusBound> kCorpusBounds = {
    {"bert-base-b4", {0.30, 0.22}},    {"decode-b1", {0.18, 0.15}},       {"dlrm-b4096", {0.42, 0.35}},
    {"mobilenet-v3-b8", {0.10, 0.17}}, {"resnet50-b32", {0.44, 0.21}},    {"stream-triad", {0.12, 0.20}},
    {"train-resnet18-b64", {0.24, 0.29}}, {"unet-step-b4", {0.30, 0.09}}, {"wav2vec-b8", {0.57, 0.35}},
};

TEST(RecordedVerifyRuns, TheCorpusStaysWithinItsOutOfSampleErrors) {
  const std::string table = replay_output({"--set", "corpus"});
  std::cout << table;
  int replicas = 0, within_both = 0;
  std::map<std::string, Worst> errors;
  for (const verify::RecordedRun& run : manifest().runs) {
    if (run.set != verify::RunSet::corpus) continue;
    for (const ReplicaError& e : replica_errors(run)) {
      ++replicas;
      if (std::abs(e.req) <= 0.15 && std::abs(e.p99) <= 0.25) ++within_both;
      Worst& w = errors[e.workload];
      w.req_abs_sum += std::abs(e.req);
      ++w.replicas;
      if (!e.recorded.stall_free) continue;
      w.p99_abs_sum += std::abs(e.p99);
      ++w.stall_free;
    }
  }
  EXPECT_EQ(replicas, 972);  // runs 33-56, 59-62, 64, 66, 81-88, 90-92 and 98-101 (run39, run41-h200, run42 but its last
                             // call, run43-h200, run44, run45-h200, run46, run48, run49, run51, run53-56, run59-62,
                             // run64, run66, runs 81-88, runs 90-92 and 98-101 on H200s;
                             // run92 with its four --observed rounds and two rounds with a
                             // fresh resnet50-b32 profile; run99's two with a fresh bert-base-b4 profile)
  EXPECT_GE(within_both, 545);
  std::cout << "corpus replicas within both targets: " << within_both << " of " << replicas << "\n";
  // The replay's own count, which its table ends with, is the same.
  EXPECT_NE(table.find("corpus: " + std::to_string(within_both) + " of " + std::to_string(replicas) +
                       " replicas within both targets"),
            std::string::npos);
  ASSERT_EQ(errors.size(), kCorpusBounds.size());
  for (const auto& [w, e] : errors) {
    ASSERT_TRUE(kCorpusBounds.contains(w)) << w;
    EXPECT_LT(e.req_abs_sum / e.replicas, kCorpusBounds.at(w).req_per_s_mean_abs) << w;
    ASSERT_GT(e.stall_free, 0) << w;
    EXPECT_LT(e.p99_abs_sum / e.stall_free, kCorpusBounds.at(w).p99_mean_abs) << w;
  }
}

// Issue 15's targets (every replica's p99 within 25% and req/s within 15%), with the current model, on the
// mixed scenarios of the quiet machines where they were met (results/README.md, the targets table):
// h (run 12), j (14), k (15), l (16), m (17), o (19) and q (21). A model change that takes one of them out of
// its targets fails here; the long-tail machines (shared stalls, not predicted) are not in this list.
const std::vector<std::string> kQuietRuns = {
    "run12/mixed-h100",   "run12/mixed4-h100",  "run14/mixed-h100",  "run14/mixed4-h100",
    "run15/mixed7-h100",  "run15/mixed8-h100",  "run16/mixed-h100",  "run16/mixed4-h100",
    "run17/mixed-h100",   "run17/mixed10-h100", "run17/mixed9-h100", "run19/mixed11-h100",
    "run19/mixed4-h100",  "run19/mixed7-h100",  "run19/mixed9-h100", "run21/mixed9-h100",
};

TEST(RecordedVerifyRuns, IssueFifteensTargetsHoldOnTheQuietMachines) {
  for (const std::string& dir : kQuietRuns) {
    const std::string full = "results/verify-profiled-h100/" + dir;
    const auto run = std::find_if(manifest().runs.begin(), manifest().runs.end(),
                                  [&](const verify::RecordedRun& r) { return r.dir == full; });
    ASSERT_NE(run, manifest().runs.end()) << full << " is not in the manifest";
    for (const ReplicaError& e : replica_errors(*run)) {
      EXPECT_LE(std::abs(e.req), 0.15) << dir << " " << e.workload << " req/s";
      EXPECT_LE(std::abs(e.p99), 0.25) << dir << " " << e.workload << " p99";
    }
  }
}

}  // namespace
}  // namespace gpupack
