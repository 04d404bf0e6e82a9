// `gpupack plan --observed verify.json` (issue 36, item 5): a recorded verify of mixed13 on an H100 (run 21)
// makes the re-planned predictions of its slice the measured figures, and a verify that says p99 was half
// the prediction lets the density scenario place more replicas, every prediction within its SLO less its
// margin. Bad files are one InputError; a file from another GPU model is ignored with a warning.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/observed_loading.hpp"
#include "core/errors.hpp"
#include "measure/baseline.hpp"
#include "profile_plan_helpers.hpp"

namespace gpupack {
namespace {

using test::from_text;
using test::kData;
using test::load;
using test::plan_with_predictions;

const std::string kRun21 = std::string(GPUPACK_SOURCE_DIR) + "/results/verify-profiled-h100/run21/mixed13-h100/verify.json";

// Per workload: the medians over its replicas of the measured p99 and req/s in a verify JSON.
std::map<std::string, std::pair<double, double>> measured_medians(const std::string& path) {
  std::ifstream in(path);
  const nlohmann::json doc = nlohmann::json::parse(in);
  std::map<std::string, std::pair<std::vector<double>, std::vector<double>>> runs;
  for (const auto& r : doc["replicas"]) {
    runs[r["workload"]].first.push_back(r["p99_ms"]["mean"]);
    runs[r["workload"]].second.push_back(r["req_per_s"]["mean"]);
  }
  std::map<std::string, std::pair<double, double>> out;
  for (auto& [w, v] : runs) out[w] = {*measure::median_of(v.first), *measure::median_of(v.second)};
  return out;
}

// Every client of the plan: workload name, MPS cap, prediction.
struct Placed {
  std::string workload;
  std::optional<int> cap;
  ClientPrediction prediction;
};
std::vector<Placed> placed(const Scenario& s, const Plan& p) {
  std::vector<Placed> out;
  for (const auto& g : p.gpus)
    for (const auto& sl : g.slices)
      for (const auto& c : sl.clients)
        out.push_back({s.workloads[static_cast<size_t>(c.replicas.at(0).workload)].name, c.mps_active_thread_percentage,
                       c.prediction.value()});
  return out;
}

TEST(PlanObserved, ARecordedVerifyMakesTheVerifiedSlicesPredictionsTheMeasured) {
  const Scenario before = load(kData + "/mixed13-h100.yaml");
  Scenario after = before;
  std::ostringstream warnings;
  attach_observed(PosixFilesystem{}, after, {kRun21}, warnings);
  // Run 21's file was written before verify recorded GPU models: the fleet's only one is assumed, and said.
  EXPECT_NE(warnings.str().find("names no GPU model"), std::string::npos) << warnings.str();
  const std::vector<Placed> first = placed(before, plan_with_predictions(before));
  const std::vector<Placed> second = placed(after, plan_with_predictions(after));
  ASSERT_EQ(first.size(), second.size());
  const auto measured = measured_medians(kRun21);
  for (size_t i = 0; i < second.size(); ++i) {
    SCOPED_TRACE(second[i].workload);
    // The same slice, the same caps: only the figures moved.
    EXPECT_EQ(first[i].workload, second[i].workload);
    EXPECT_EQ(first[i].cap, second[i].cap);
    const auto& [p99, req] = measured.at(second[i].workload);
    EXPECT_NEAR(*second[i].prediction.p99_ms, p99, 1e-6 * p99);
    EXPECT_NEAR(*second[i].prediction.req_per_s, req, 1e-6 * req);
    EXPECT_GT(std::abs(*first[i].prediction.p99_ms - p99), 0.05 * p99);  // the first plan was off
    ASSERT_TRUE(second[i].prediction.observed);
    EXPECT_EQ(second[i].prediction.observed->files, std::vector<std::string>{kRun21});
    EXPECT_EQ(second[i].prediction.observed->replicas, second[i].workload == "gemm" ? 1 : 9);
    const auto& notes = second[i].prediction.notes;
    EXPECT_NE(notes.back().find("corrected by observation: p99 x"), std::string::npos) << notes.back();
  }
}

// A verify JSON with one MPS slice on `gpu_model` whose resnet18-b1 replicas measured `p99_factor` x the
// predicted p99 and their predicted req/s; the GEMM beside them where `with_gemm` (a batch job: no prediction).
std::string synthetic_verify(const std::string& gpu_model, double p99_factor, bool with_gemm = true) {
  nlohmann::json doc = {{"verify_version", 1}, {"slices", {{{"slice", "gpu0/s0"}, {"sharing", "mps"}, {"gpu_model", gpu_model}}}}};
  doc["replicas"] = nlohmann::json::array();
  for (int i = 0; i < 4; ++i) {
    doc["replicas"].push_back({{"workload", "resnet18-b1"}, {"replica", i}, {"slice", "gpu0/s0"},
                               {"prediction_source", "profile"}, {"predicted_p99_ms", 6.0},
                               {"p99_ms", {{"mean", 6.0 * p99_factor}}}, {"predicted_req_per_s", 200.0},
                               {"req_per_s", {{"mean", 200.0}}}, {"observed_correction", nullptr}});
  }
  if (with_gemm) {
    doc["replicas"].push_back({{"workload", "gemm"}, {"replica", 0}, {"slice", "gpu0/s0"}, {"prediction_source", "none"}});
  }
  return doc.dump();
}

std::string write_temp(const std::string& name, const std::string& text) {
  const std::string path = (std::filesystem::temp_directory_path() / ("gpupack-observed-" + name)).string();
  std::ofstream(path) << text;
  return path;
}

// 40 resnet18-b1 asked beside the GEMM at 55% on one H100 (density-r40-h100.yaml without the host's cores,
// so that the SLO, not the cores, bounds the count).
Scenario density() {
  return from_text("fleet: [{model: H100-SXM5-80GB, count: 1}]\nworkloads:\n"
                   "  - {name: resnet18-b1, replicas: 40, profile: " + kData +
                       "/profiles-h100-2026-11-23/resnet18-b1.json, latency_slo_ms: 16.4}\n"
                       "  - {name: gemm, profile: " + kData +
                       "/profiles-h100-2026-11-23/gemm.json, compute: 0.55, isolation: memory}\n",
                   "");
}

int resnets(const Scenario& s, const Plan& p) {
  int n = 0;
  for (const Placed& c : placed(s, p)) n += c.workload == "resnet18-b1";
  return n;
}

TEST(PlanObserved, AVerifyThatMeasuredHalfThePredictedP99PacksMore) {
  const Scenario first = density();
  Scenario second = density();
  std::ostringstream warnings;
  attach_observed(PosixFilesystem{}, second, {write_temp("half.json", synthetic_verify("H100-SXM5-80GB", 0.5))}, warnings);
  EXPECT_EQ(warnings.str(), "");
  const Plan a = plan_with_predictions(first);
  const Plan b = plan_with_predictions(second);
  EXPECT_GE(resnets(second, b), resnets(first, a) + 10) << resnets(first, a);  // 20 -> 37 on 2026-12-01
  for (const Placed& c : placed(second, b)) {
    if (c.workload != "resnet18-b1") continue;
    EXPECT_LE(*c.prediction.p99_ms * (1 + *second.workloads[0].slo_margin), 16.4 + 1e-9);
    ASSERT_TRUE(c.prediction.observed);
    EXPECT_DOUBLE_EQ(*c.prediction.observed->p99, 0.5);
  }
}

// run54 on an H200: round 1 verified 3 dlrm-b4096 beside 3 bert-base-b4, dlrm's p99 at 0.87 of the
// prediction. Round 2 took that correction to a slice with the STREAM triad, placed the triad beside dlrm,
// and dlrm broke its 9 ms SLO (10.75 ms against 7.75 predicted). A correction that makes a workload faster
// now holds only beside the workloads it was measured beside; one that makes it slower holds everywhere.
TEST(PlanObserved, AFasterCorrectionHoldsOnlyBesideTheWorkloadsItWasMeasuredBeside) {
  const std::string run = std::string(GPUPACK_SOURCE_DIR) + "/results/run54-memory-default-h200/h200/";
  Scenario s = load(run + "corpus-memory-grid-r2/scenario.yaml");
  std::ostringstream warnings;
  attach_observed(PosixFilesystem{}, s, {run + "corpus-memory-grid-r1/verify.json"}, warnings);
  const Plan p = plan_with_predictions(s);
  int dlrm = 0;
  for (const Placed& c : placed(s, p)) {
    EXPECT_NE(c.workload, "stream-triad");
    if (c.workload != "dlrm-b4096") continue;
    ++dlrm;
    ASSERT_TRUE(c.prediction.observed);  // beside bert alone, as measured: its faster figures hold
    EXPECT_NEAR(*c.prediction.observed->p99, 0.87, 0.01);
  }
  EXPECT_EQ(dlrm, 3);

  // The synthetic verify measured resnet18 at half its predicted p99 with no GEMM beside it: beside the GEMM
  // that correction is left out, and the plan packs as without it.
  Scenario without = density();
  attach_observed(PosixFilesystem{}, without,
                  {write_temp("alone.json", synthetic_verify("H100-SXM5-80GB", 0.5, false))}, warnings);
  ASSERT_EQ(without.workloads[0].observed.size(), 1u);
  EXPECT_TRUE(without.workloads[0].observed[0].beside.empty());
  const Scenario first = density();
  const Plan b = plan_with_predictions(without);
  EXPECT_EQ(resnets(without, b), resnets(first, plan_with_predictions(first)));
  for (const Placed& c : placed(without, b)) {
    if (c.workload != "resnet18-b1") continue;
    ASSERT_TRUE(c.prediction.observed);
    EXPECT_FALSE(c.prediction.observed->p99);  // not applied, so verify divides nothing out
    EXPECT_NE(c.prediction.notes.back().find("not its faster p99 x0.50: measured without gemm beside it"),
              std::string::npos)
        << c.prediction.notes.back();
  }
  // A slower correction from the same verify holds beside the GEMM too.
  Scenario slower = density();
  attach_observed(PosixFilesystem{}, slower, {write_temp("slow.json", synthetic_verify("H100-SXM5-80GB", 1.5, false))},
                  warnings);
  for (const Placed& c : placed(slower, plan_with_predictions(slower))) {
    if (c.workload == "resnet18-b1") {
      EXPECT_DOUBLE_EQ(*c.prediction.observed->p99, 1.5);
    }
  }
}

TEST(PlanObserved, AnotherGpuModelIsIgnoredWithAWarning) {
  Scenario s = density();
  std::ostringstream warnings;
  attach_observed(PosixFilesystem{}, s, {write_temp("h200.json", synthetic_verify("H200-SXM-141GB", 0.5))}, warnings);
  EXPECT_NE(warnings.str().find("measured on H200-SXM-141GB, which the fleet does not have: ignored"), std::string::npos)
      << warnings.str();
  EXPECT_TRUE(s.workloads[0].observed.empty());
}

TEST(PlanObserved, BadFilesAreOneInputError) {
  const auto refused = [](const std::string& text, const std::string& says) {
    Scenario s = density();
    std::ostringstream warnings;
    try {
      attach_observed(PosixFilesystem{}, s, {write_temp("bad.json", text)}, warnings);
      ADD_FAILURE() << "accepted: " << text;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(says), std::string::npos) << e.what();
    }
  };
  refused("{", "--observed");
  refused(R"({"schema_version": 1})", "verify_version");
  refused(R"({"verify_version": 2, "slices": [], "replicas": []})", "verify_version: expected 1");
  refused(R"({"verify_version": 1, "slices": [], "replicas": [{"workload": "resnet18-b1", "slice": "gpu0/s0"}]})",
          "a slice listed in $.slices");
  nlohmann::json other = nlohmann::json::parse(synthetic_verify("H100-SXM5-80GB", 0.5));
  for (auto& r : other["replicas"]) r["workload"] = "bert";
  refused(other.dump(), "none of its verified replicas is of a workload of the scenario");
  nlohmann::json mistyped = nlohmann::json::parse(synthetic_verify("H100-SXM5-80GB", 0.5));
  mistyped["replicas"][0]["predicted_p99_ms"] = "6";
  refused(mistyped.dump(), "predicted_p99_ms: expected a number or null");
}

}  // namespace
}  // namespace gpupack
