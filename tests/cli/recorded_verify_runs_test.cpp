// The profile model against every slice `gpupack verify` measured on H100s (results/): the recorded
// plans' slices are predicted again from the recorded profiles (tests/planner/data/profiles-h100-2026-11-23)
// and compared with what verify measured there, replica by replica. A change to the model that fits these
// runs worse fails here; docs/decisions.md ("Measured error") quotes the table this prints.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>

#include "cli/profile_loading.hpp"
#include "core/gpu_catalog.hpp"
#include "io/input_file.hpp"
#include "io/scenario_yaml.hpp"
#include "model/predict_clients.hpp"
#include "model/profile_prediction.hpp"
#include "verify/verify_result.hpp"

namespace gpupack {
namespace {

const std::string kScenarioDir = GPUPACK_PLANNER_TEST_DATA;
const std::string kResults = GPUPACK_RESULTS_DIR;

struct Run {
  std::string dir;       // under results/
  std::string scenario;  // tests/planner/data/<scenario>.yaml, the scenario the run planned
};

const std::vector<Run> kRuns = {
    {"verify-issue15-h100", "issue15-one-h100"},
    {"verify-profiled-h100/run1/issue15-one-h100", "issue15-one-h100"},
    {"verify-profiled-h100/run1/mixed-h100", "mixed-h100"},
    {"verify-profiled-h100/run1/issue15-density-h100", "issue15-density-h100"},
    {"verify-profiled-h100/run2/issue15-one-h100", "issue15-one-h100"},
    {"verify-profiled-h100/run2/mixed-h100", "mixed-h100"},
    {"verify-profiled-h100/run2/issue15-density-h100", "issue15-density-h100"},
    {"verify-profiled-h100/run3/issue15-one-h100", "issue15-one-h100"},
    {"verify-profiled-h100/run3/mixed-h100", "mixed-h100"},
    {"verify-profiled-h100/run4/issue15-one-h100", "issue15-one-h100"},
    {"verify-profiled-h100/run4/mixed-h100", "mixed-h100"},
    {"verify-profiled-h100/run4/issue15-density-h100", "issue15-density-h100"},
    {"verify-profiled-h100/run6/issue15-one-h100", "issue15-one-h100"},
    {"verify-profiled-h100/run6/mixed-h100", "mixed-h100"},
    {"verify-profiled-h100/run6/mixed2-h100", "mixed2-h100"},
    {"verify-profiled-h100/run6/mixed3-h100", "mixed3-h100"},
    {"verify-profiled-h100/run6/issue15-density-h100", "issue15-density-h100"},
    {"verify-profiled-h100/run7/mixed4-h100", "mixed4-h100"},
    {"verify-profiled-h100/run7/mixed3-h100", "mixed3-h100"},
    {"verify-profiled-h100/run7/mixed-h100", "mixed-h100"},
    {"verify-profiled-h100/run7/mixed2-h100", "mixed2-h100"},
    {"verify-profiled-h100/run7/issue15-one-h100", "issue15-one-h100"},
    // The tail probe (2026-11-25, out of sample for the model of that day; colocated_tail_ratio was chosen on
    // machines a and b): machines a and b quiet, c (two sessions) with long tails everywhere.
    {"tail-probe-h100/a/mixed", "mixed-h100"},
    {"tail-probe-h100/a/mixed2", "mixed2-h100"},
    {"tail-probe-h100/a/r4", "probe-r4-h100"},
    {"tail-probe-h100/a/r4g25", "probe-r4-g25-h100"},
    {"tail-probe-h100/a/r4g55", "probe-r4-g55-h100"},
    {"tail-probe-h100/a/r4m1", "probe-r4-m1-h100"},
    {"tail-probe-h100/b/m1g25", "probe-m1-g25-h100"},
    {"tail-probe-h100/b/m75g25", "probe-m75-g25-h100"},
    {"tail-probe-h100/b/mixed3", "mixed3-h100"},
    {"tail-probe-h100/b/r4m1g20", "probe-r4-m1-g20-h100"},
    {"tail-probe-h100/b/r4m60g40", "probe-r4-m60-g40-h100"},
    {"tail-probe-h100/b/r4m70g25", "probe-r4-m70-g25-h100"},
    {"tail-probe-h100/c1/mixed", "mixed-h100"},
    {"tail-probe-h100/c1/mixed2", "mixed2-h100"},
    {"tail-probe-h100/c1/mixed3", "mixed3-h100"},
    {"tail-probe-h100/c1/mixed4", "mixed4-h100"},
    {"tail-probe-h100/c1/r4m1g20", "probe-r4-m1-g20-h100"},
    {"tail-probe-h100/c2/mixed", "mixed-h100"},
    {"tail-probe-h100/c2/mixed3", "mixed3-h100"},
    {"tail-probe-h100/c2/mixed4", "mixed4-h100"},
    {"tail-probe-h100/c2/r4m1g20", "probe-r4-m1-g20-h100"},
    // Run 8 (2026-11-26, machine d: quiet; the model of 77f81da, committed before the run): out of sample for
    // every constant, the tail cap included.
    {"verify-profiled-h100/run8/mixed-h100", "mixed-h100"},
    {"verify-profiled-h100/run8/mixed4-h100", "mixed4-h100"},
    {"verify-profiled-h100/run8/issue15-one-h100", "issue15-one-h100"},
    {"verify-profiled-h100/run8/mixed2-h100", "mixed2-h100"},
    {"verify-profiled-h100/run8/mixed3-h100", "mixed3-h100"},
    {"verify-profiled-h100/run8/issue15-density-h100", "issue15-density-h100"},
    // Run 9 (2026-11-26, machine e: tails between the quiet machines' and c's; the same model).
    {"verify-profiled-h100/run9/mixed-h100", "mixed-h100"},
    {"verify-profiled-h100/run9/mixed4-h100", "mixed4-h100"},
    {"verify-profiled-h100/run9/probe-r4-m60-g40-h100", "probe-r4-m60-g40-h100"},
    // Run 10 (2026-11-26, machine f: the resnets' p99 6.3-7.5 ms; the same model).
    {"verify-profiled-h100/run10/mixed-h100", "mixed-h100"},
    {"verify-profiled-h100/run10/mixed4-h100", "mixed4-h100"},
    // Run 11 (2026-11-26, machine g: resnet p99 6.7-8.4 ms, shared stalls in step with no client).
    {"verify-profiled-h100/run11/mixed-h100", "mixed-h100"},
    {"verify-profiled-h100/run11/mixed4-h100", "mixed4-h100"},
    // Run 12 (2026-11-26, machine h: both scenarios within both of issue 15's targets; the same model).
    {"verify-profiled-h100/run12/mixed-h100", "mixed-h100"},
    {"verify-profiled-h100/run12/mixed4-h100", "mixed4-h100"},
    // Run 13 (2026-11-26, machine i: resnet p99 6-11 ms; the same model): the DRAM sweep, 4 resnets beside
    // 2, 3 and 4 MLPs, 4 MLPs capped at 20%, 4 MLPs alone, mixed3 less one MLP, mixed3 and mixed.
    {"verify-profiled-h100/run13/probe-r4-m2-h100", "probe-r4-m2-h100"},
    {"verify-profiled-h100/run13/probe-r4-m3-h100", "probe-r4-m3-h100"},
    {"verify-profiled-h100/run13/probe-r4-m4-h100", "probe-r4-m4-h100"},
    {"verify-profiled-h100/run13/probe-r4-m4c20-h100", "probe-r4-m4c20-h100"},
    {"verify-profiled-h100/run13/probe-m4-h100", "probe-m4-h100"},
    {"verify-profiled-h100/run13/probe-r5-m2-g30-h100", "probe-r5-m2-g30-h100"},
    {"verify-profiled-h100/run13/mixed3-h100", "mixed3-h100"},
    {"verify-profiled-h100/run13/mixed-h100", "mixed-h100"},
    // Run 14 (2026-11-26, machine j; the model with the bursts of wider neighbours, committed before the run,
    // fitted on runs 1-13): the new mixed5 and mixed6 out of sample, then mixed3, mixed and mixed4.
    {"verify-profiled-h100/run14/mixed5-h100", "mixed5-h100"},
    {"verify-profiled-h100/run14/mixed6-h100", "mixed6-h100"},
    {"verify-profiled-h100/run14/mixed3-h100", "mixed3-h100"},
    {"verify-profiled-h100/run14/mixed-h100", "mixed-h100"},
    {"verify-profiled-h100/run14/mixed4-h100", "mixed4-h100"},
    // Run 15 (2026-11-26, machine k; the same model): the new mixed7 and mixed8 out of sample, the issue's
    // scenario and mixed5 again.
    {"verify-profiled-h100/run15/mixed7-h100", "mixed7-h100"},
    {"verify-profiled-h100/run15/mixed8-h100", "mixed8-h100"},
    {"verify-profiled-h100/run15/issue15-one-h100", "issue15-one-h100"},
    {"verify-profiled-h100/run15/mixed5-h100", "mixed5-h100"},
    // Run 16 (2026-11-26, machine l; the same model): mixed, mixed4, the density search and mixed6.
    {"verify-profiled-h100/run16/mixed-h100", "mixed-h100"},
    {"verify-profiled-h100/run16/mixed4-h100", "mixed4-h100"},
    {"verify-profiled-h100/run16/issue15-density-h100", "issue15-density-h100"},
    {"verify-profiled-h100/run16/mixed6-h100", "mixed6-h100"},
    // Run 17 (2026-11-26, machine m; the same model): the new mixed9 and mixed10 out of sample (committed
    // before the run), the issue's scenario and mixed.
    {"verify-profiled-h100/run17/mixed9-h100", "mixed9-h100"},
    {"verify-profiled-h100/run17/mixed10-h100", "mixed10-h100"},
    {"verify-profiled-h100/run17/issue15-one-h100", "issue15-one-h100"},
    {"verify-profiled-h100/run17/mixed-h100", "mixed-h100"},
    // Run 18 (2026-11-26, machine n; the model with the tail excess of the client's own, committed before
    // the run): the new mixed11 and mixed12 out of sample, and mixed9.
    {"verify-profiled-h100/run18/mixed11-h100", "mixed11-h100"},
    {"verify-profiled-h100/run18/mixed12-h100", "mixed12-h100"},
    {"verify-profiled-h100/run18/mixed9-h100", "mixed9-h100"},
    // Run 19 (2026-11-26, machine o; the same model as run 18): mixed11, mixed9, mixed4, mixed7 and mixed10.
    {"verify-profiled-h100/run19/mixed11-h100", "mixed11-h100"},
    {"verify-profiled-h100/run19/mixed9-h100", "mixed9-h100"},
    {"verify-profiled-h100/run19/mixed4-h100", "mixed4-h100"},
    {"verify-profiled-h100/run19/mixed7-h100", "mixed7-h100"},
    {"verify-profiled-h100/run19/mixed10-h100", "mixed10-h100"},
    // Run 20 (2026-11-26, machine p, a long-tail machine; the same model): mixed (--measure-alone), the
    // issue's scenario, mixed9, mixed4 and mixed11.
    {"verify-profiled-h100/run20/mixed-h100", "mixed-h100"},
    {"verify-profiled-h100/run20/issue15-one-h100", "issue15-one-h100"},
    {"verify-profiled-h100/run20/mixed9-h100", "mixed9-h100"},
    {"verify-profiled-h100/run20/mixed4-h100", "mixed4-h100"},
    {"verify-profiled-h100/run20/mixed11-h100", "mixed11-h100"},
    // Run 21 (2026-11-26, machine q, quiet; the model with the capped GEMM's tail kept beyond its mean,
    // cap_to, committed before the run): the new mixed13 and mixed14 out of sample, mixed9, the issue's
    // scenario and the density search.
    {"verify-profiled-h100/run21/mixed13-h100", "mixed13-h100"},
    {"verify-profiled-h100/run21/mixed14-h100", "mixed14-h100"},
    {"verify-profiled-h100/run21/mixed9-h100", "mixed9-h100"},
    {"verify-profiled-h100/run21/issue15-one-h100", "issue15-one-h100"},
    {"verify-profiled-h100/run21/issue15-density-h100", "issue15-density-h100"},
    // Run 22 (2026-11-26, machine r; the model with host cores at the predicted rate and a wait for a core
    // past them, committed before the run): 20 and 28 resnet18-b1 beside the GEMM on 16 cores, and the
    // density scenario (24) with its search.
    {"verify-profiled-h100/run22/density-r20-h100", "density-r20-h100"},
    {"verify-profiled-h100/run22/density-r28-h100", "density-r28-h100"},
    {"verify-profiled-h100/run22/issue15-density-h100", "issue15-density-h100"},
    // Run 23 (2026-11-26, machine s; one wait per full set of cores, committed before the run): the density
    // scenario asking 40 (the plan places 30) and the new density-mlp out of sample, both with the search.
    {"verify-profiled-h100/run23/density-r40-h100", "density-r40-h100"},
    {"verify-profiled-h100/run23/density-mlp-h100", "density-mlp-h100"},
    // Run 24 (2026-11-26, machine t; the same model): density-r40 with the search.
    {"verify-profiled-h100/run24/density-r40-h100", "density-r40-h100"},
    // Run 25 (2026-11-26, machine u, a long-tail machine; a call that named nvidia-h200 ran on an H100; the
    // same model): the issue's scenario and mixed9.
    {"verify-profiled-h100/run25/issue15-one-h100", "issue15-one-h100"},
    {"verify-profiled-h100/run25/mixed9-h100", "mixed9-h100"},
    // Runs 26-28 (2026-11-26; the 12% SLO margin, committed before them, so density-r40 places 27): machine
    // v (long tail: a 23 ms shared stall every second), w (five verifications, with and without nvidia-smi
    // dmon and verify's 0.5 s sampling) and x (20 s windows; the issue's scenario and mixed14 too).
    {"verify-profiled-h100/run26/density-r40-h100", "density-r40-h100"},
    {"verify-profiled-h100/run27/density-r40-h100-A", "density-r40-h100"},
    {"verify-profiled-h100/run27/density-r40-h100-B", "density-r40-h100"},
    {"verify-profiled-h100/run27/density-r40-h100-C", "density-r40-h100"},
    {"verify-profiled-h100/run27/density-r40-h100-D", "density-r40-h100"},
    {"verify-profiled-h100/run27/density-r40-h100-E", "density-r40-h100"},
    {"verify-profiled-h100/run28/density-r40-h100-a", "density-r40-h100"},
    {"verify-profiled-h100/run28/density-r40-h100-b", "density-r40-h100"},
    {"verify-profiled-h100/run28/issue15-one-h100", "issue15-one-h100"},
    {"verify-profiled-h100/run28/mixed14-h100", "mixed14-h100"},
    // Run 29 (machine y; 20 s windows): density-r40 with the search.
    {"verify-profiled-h100/run29/density-r40-h100", "density-r40-h100"},
};

nlohmann::json read_json(const std::string& path) {
  return nlohmann::json::parse(read_input_file(PosixFilesystem{}, path));
}

// Predicted (req/s, p99 ms) per workload of the run's one MPS slice, from its recorded plan.
std::map<std::string, ClientPrediction> predict_recorded(const Run& run) {
  const GpuCatalog catalog = builtin_catalog();
  const PosixFilesystem fs;
  const std::string path = kScenarioDir + "/" + run.scenario + ".yaml";
  Scenario s = parse_scenario_yaml(read_input_file(fs, path), path, catalog);
  attach_profiles(fs, s, path, "", catalog);
  const nlohmann::json plan = read_json(kResults + "/" + run.dir + "/plan.json");
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

// Whether a replica's p99 is its own, the tail the model predicts: verify would not name shared stalls
// beside it (verify::stalls_worth_naming on the run's stall_hit_fraction and p99_without_stalls_ms, where
// the run recorded them) and p99 under 2x its mean request time. In the tail probe
// (results/tail-probe-h100) every slice with GEMM-aligned stalls had p99 2.4-3.1x the mean and every
// quiet one 1.1-1.8x; on machine c and in runs 2 and 3 the long tail was everywhere (docs/decisions.md,
// "Tail").
bool stall_free(const nlohmann::json& r) {
  if (r.contains("stall_hit_fraction")) {
    verify::ReplicaVerdict v;
    v.stall_hit_fraction.runs = r["stall_hit_fraction"]["runs"].get<std::vector<double>>();
    v.p99_without_stalls_ms.runs = r["p99_without_stalls_ms"]["runs"].get<std::vector<double>>();
    v.p99_ms.runs = r.at("p99_ms").at("runs").get<std::vector<double>>();
    if (verify::stalls_worth_naming(v)) return false;
  }
  const double mean_ms = 1000.0 / r.at("req_per_s").at("mean").get<double>();
  return r.at("p99_ms").at("mean").get<double>() < 2 * mean_ms;
}

// One replica of a recorded run: its workload and errors (predicted / measured - 1) under the current model.
struct ReplicaError {
  std::string workload;
  double req = 0, p99 = 0;
  double predicted_p99_ms = 0;
  const nlohmann::json* recorded = nullptr;  // its entry in the run's verify.json
};

std::vector<ReplicaError> replica_errors(const Run& run, const nlohmann::json& verify) {
  const auto preds = predict_recorded(run);
  std::vector<ReplicaError> out;
  for (const auto& r : verify.at("replicas")) {
    const std::string w = r.at("workload");
    const ClientPrediction& p = preds.at(w);
    out.push_back({w, *p.req_per_s / r.at("req_per_s").at("mean").get<double>() - 1,
                   *p.p99_ms / r.at("p99_ms").at("mean").get<double>() - 1, *p.p99_ms, &r});
  }
  return out;
}

// Error = predicted / measured - 1 for every replica, per workload; prints one line per run and workload.
std::map<std::string, Worst> errors_over_runs() {
  std::map<std::string, Worst> worst;
  for (const Run& run : kRuns) {
    const nlohmann::json verify = read_json(kResults + "/" + run.dir + "/verify.json");
    std::map<std::string, std::pair<double, double>> req_range, p99_range;
    std::map<std::string, int> stalled;
    for (const ReplicaError& err : replica_errors(run, verify)) {
      const nlohmann::json& r = *err.recorded;
      const std::string& w = err.workload;
      const double req = err.req, p99 = err.p99;
      auto widen = [](std::pair<double, double>& range, double e, bool first) {
        range = first ? std::make_pair(e, e)
                      : std::make_pair(std::min(range.first, e), std::max(range.second, e));
      };
      const bool first = !req_range.contains(w);
      widen(req_range[w], req, first);
      widen(p99_range[w], p99, first);
      worst[w].req = std::max(worst[w].req, std::abs(req));
      worst[w].req_abs_sum += std::abs(req);
      ++worst[w].replicas;
      if (stall_free(r)) {
        worst[w].p99 = std::max(worst[w].p99, std::abs(p99));
        worst[w].p99_abs_sum += std::abs(p99);
        ++worst[w].stall_free;
      } else {
        stalled[w] += 1;
        const auto& without =
            r.contains("p99_without_stalls_ms") ? r["p99_without_stalls_ms"]["mean"] : nlohmann::json();
        if (without.is_number() && without.get<double>() > 0) {
          const double e = err.predicted_p99_ms / without.get<double>() - 1;
          worst[w].quiet_p99 = std::max(worst[w].quiet_p99, std::abs(e));
          worst[w].quiet_p99_abs_sum += std::abs(e);
          ++worst[w].quiet;
        }
      }
    }
    for (const auto& [w, range] : req_range) {
      std::printf("%-48s %-12s req/s %+4.0f%% to %+4.0f%%  p99 %+4.0f%% to %+4.0f%%%s\n", run.dir.c_str(),
                  w.c_str(), 100 * range.first, 100 * range.second, 100 * p99_range[w].first,
                  100 * p99_range[w].second, stalled[w] ? " (shared stalls)" : "");
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
TEST(RecordedVerifyRuns, TheModelStaysWithinItsMeasuredErrors) {
  const auto worst = errors_over_runs();
  ASSERT_EQ(worst.size(), 3u);
  for (const auto& [w, e] : worst) {
    std::printf(
        "%-12s req/s error worst %.0f%%, mean %.1f%% over %d replicas; p99 error worst %.0f%%, mean %.1f%% "
        "over the %d "
        "without shared stalls\n",
        w.c_str(), 100 * e.req, 100 * e.req_abs_sum / e.replicas, e.replicas, 100 * e.p99,
        100 * e.p99_abs_sum / std::max(1, e.stall_free), e.stall_free);
    std::printf(
        "%-12s   the others' p99 without the requests shared stalls met: error worst %.0f%%, mean %.1f%% "
        "over %d\n",
        w.c_str(), 100 * e.quiet_p99, 100 * e.quiet_p99_abs_sum / std::max(1, e.quiet), e.quiet);
    EXPECT_LT(e.req, 0.30) << w;
    EXPECT_LT(e.req_abs_sum / e.replicas, 0.10) << w;
    // The bounds below speak for a large share of the replicas: since run 13 (machine i, shared stalls in
    // every scenario) just under half of resnet18-b1's replicas have a tail of their own (173 of 348).
    EXPECT_GE(5 * e.stall_free, 2 * e.replicas) << w;
    EXPECT_LT(e.p99, 0.45) << w;
    EXPECT_LT(e.p99_abs_sum / std::max(1, e.stall_free), 0.15) << w;
  }
}

// Issue 15's targets (every replica's p99 within 25% and req/s within 15%), with the current model, on the
// mixed scenarios of the quiet machines where they were met (results/README.md, the targets table):
// h (run 12), j (14), k (15), l (16), m (17), o (19) and q (21). A model change that takes one of them out of
// its targets fails here; the long-tail machines (shared stalls, not predicted) are not in this list.
const std::vector<Run> kQuietRuns = {
    {"verify-profiled-h100/run12/mixed-h100", "mixed-h100"},
    {"verify-profiled-h100/run12/mixed4-h100", "mixed4-h100"},
    {"verify-profiled-h100/run14/mixed-h100", "mixed-h100"},
    {"verify-profiled-h100/run14/mixed4-h100", "mixed4-h100"},
    {"verify-profiled-h100/run15/mixed7-h100", "mixed7-h100"},
    {"verify-profiled-h100/run15/mixed8-h100", "mixed8-h100"},
    {"verify-profiled-h100/run16/mixed-h100", "mixed-h100"},
    {"verify-profiled-h100/run16/mixed4-h100", "mixed4-h100"},
    {"verify-profiled-h100/run17/mixed-h100", "mixed-h100"},
    {"verify-profiled-h100/run17/mixed10-h100", "mixed10-h100"},
    {"verify-profiled-h100/run17/mixed9-h100", "mixed9-h100"},
    {"verify-profiled-h100/run19/mixed11-h100", "mixed11-h100"},
    {"verify-profiled-h100/run19/mixed4-h100", "mixed4-h100"},
    {"verify-profiled-h100/run19/mixed7-h100", "mixed7-h100"},
    {"verify-profiled-h100/run19/mixed9-h100", "mixed9-h100"},
    {"verify-profiled-h100/run21/mixed9-h100", "mixed9-h100"},
};

TEST(RecordedVerifyRuns, IssueFifteensTargetsHoldOnTheQuietMachines) {
  for (const auto& run : kQuietRuns) {
    const nlohmann::json verify = read_json(kResults + "/" + run.dir + "/verify.json");
    for (const ReplicaError& e : replica_errors(run, verify)) {
      EXPECT_LE(std::abs(e.req), 0.15) << run.dir << " " << e.workload << " req/s";
      EXPECT_LE(std::abs(e.p99), 0.25) << run.dir << " " << e.workload << " p99";
    }
  }
}

}  // namespace
}  // namespace gpupack
