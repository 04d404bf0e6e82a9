// The profile model against every slice `gpupack verify` measured on H100s (docs/results): the recorded
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
#include "planner/profile_prediction.hpp"

namespace gpupack {
namespace {

const std::string kScenarioDir = GPUPACK_PLANNER_TEST_DATA;
const std::string kResults = GPUPACK_RESULTS_DIR;

struct Run {
  std::string dir;       // under docs/results
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
    const auto w = std::find_if(s.workloads.begin(), s.workloads.end(), [&](const Workload& x) { return x.name == name; });
    if (w == s.workloads.end()) throw std::runtime_error(run.dir + ": no workload " + name);
    in.push_back({&*w, static_cast<int>(c.at("replicas").size()), c.at("compute").get<double>(),
                  c.at("mps_active_thread_percentage").get<int>(), 1.0});
    names.push_back(name);
  }
  const std::vector<ClientPrediction> preds =
      predict_slice(Sharing::mps, slice_capacity(catalog.get("H100-SXM5-80GB")), 1.0, in);
  std::map<std::string, ClientPrediction> out;
  for (size_t i = 0; i < preds.size(); ++i) out[names[i]] = preds[i];
  return out;
}

struct Worst {
  double req = 0;
  double p99 = 0;
  double req_abs_sum = 0;  // for the mean absolute req/s error
  int replicas = 0;
};

// Error = predicted / measured - 1 for every replica, per workload; prints one line per run and workload.
std::map<std::string, Worst> errors_over_runs() {
  std::map<std::string, Worst> worst;
  for (const Run& run : kRuns) {
    const auto preds = predict_recorded(run);
    const nlohmann::json verify = read_json(kResults + "/" + run.dir + "/verify.json");
    std::map<std::string, std::pair<double, double>> req_range, p99_range;
    for (const auto& r : verify.at("replicas")) {
      const std::string w = r.at("workload");
      const ClientPrediction& p = preds.at(w);
      const double req = *p.req_per_s / r.at("req_per_s").at("mean").get<double>() - 1;
      const double p99 = *p.p99_ms / r.at("p99_ms").at("mean").get<double>() - 1;
      auto widen = [](std::pair<double, double>& range, double e, bool first) {
        range = first ? std::make_pair(e, e) : std::make_pair(std::min(range.first, e), std::max(range.second, e));
      };
      const bool first = !req_range.contains(w);
      widen(req_range[w], req, first);
      widen(p99_range[w], p99, first);
      worst[w].req = std::max(worst[w].req, std::abs(req));
      worst[w].req_abs_sum += std::abs(req);
      ++worst[w].replicas;
      worst[w].p99 = std::max(worst[w].p99, std::abs(p99));
    }
    for (const auto& [w, range] : req_range) {
      std::printf("%-48s %-12s req/s %+4.0f%% to %+4.0f%%  p99 %+4.0f%% to %+4.0f%%\n", run.dir.c_str(), w.c_str(),
                  100 * range.first, 100 * range.second, 100 * p99_range[w].first, 100 * p99_range[w].second);
    }
  }
  return worst;
}

// Throughput is what the model predicts best. Its three constants (launch path 0.10, DRAM queueing 0.4, and
// the kernel-width weighting's form) were chosen on runs 1-6; run 7 (mixed4-h100 new) is out of sample
// (docs/decisions.md, "Measured error"). Over all these runs: every replica within 30% (worst: resnet18-b1
// in the crowded mixed3-h100, +28% in run 7), and the mean absolute error per workload within 10%. p99 of
// the GEMM and the MLP within 40% (the GEMM profile has no SM-share curve, so its p99 under a cap is
// extrapolated; mlp-b8's p99 beside 4 resnets moved 0.24-0.50 ms between runs). resnet18-b1's p99 is
// bimodal from run to run on the same plan (3.7-4.8 ms or 7-10 ms, on one machine too): printed, not bounded.
TEST(RecordedVerifyRuns, TheModelStaysWithinItsMeasuredErrors) {
  const auto worst = errors_over_runs();
  ASSERT_EQ(worst.size(), 3u);
  for (const auto& [w, e] : worst) {
    std::printf("%-12s worst req/s error %.0f%%, mean %.1f%% over %d replicas; worst p99 error %.0f%%\n", w.c_str(),
                100 * e.req, 100 * e.req_abs_sum / e.replicas, e.replicas, 100 * e.p99);
    EXPECT_LT(e.req, 0.30) << w;
    EXPECT_LT(e.req_abs_sum / e.replicas, 0.10) << w;
    if (w != "resnet18-b1") {
      EXPECT_LT(e.p99, 0.40) << w;
    }
  }
}

}  // namespace
}  // namespace gpupack
