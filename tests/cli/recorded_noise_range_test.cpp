// Which misses of the corpus replay are the model's: a replica missed by no more than the runs of the baseline
// its prediction rests on were apart alone (`gpupack model replay`, "OR RUN RANGE") is one the profile could
// not have told from the machine's noise; the rest is the model's miss.
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "replay_output.hpp"

namespace gpupack {
namespace {

using test::replay_output;

// The counts as of runs 33-101 (results/model-runs.json, set corpus); a model change that moves fewer replicas
// within the targets or their baselines' range fails here.
TEST(RecordedVerifyRuns, MissesWithinTheBaselinesRunsAloneAreToldApartFromTheModels) {
  const nlohmann::json corpus = nlohmann::json::parse(replay_output({"--set", "corpus", "--format", "json"}));
  std::map<std::string, nlohmann::json> by_workload;
  int replicas = 0, within = 0, or_range = 0;
  for (const auto& s : corpus["summary"]) {
    if (s["set"] != "corpus") continue;
    const int both = s["within_both"].get<int>();
    const int range = s["within_both_or_run_range"].get<int>();
    EXPECT_GE(range, both) << s["workload"];  // within both is within the range
    replicas += s["replicas"].get<int>();
    within += both;
    or_range += range;
    by_workload[s["workload"].get<std::string>()] = s;
  }
  EXPECT_EQ(replicas, 972);
  EXPECT_GE(within, 545);
  EXPECT_GE(or_range, 687);
  // bert-base-b4 was the model's largest miss beyond the noise (46 of 181 within either, runs 33-91); with the
  // launch cost within its baseline's noise left out and its DRAM cells pooled, 97, and with run92 (measured
  // after both changes) 126 of 225. mobilenet-v3-b8: 215 of 283, with run92 250 of 318, and its
  // mean request beside neighbours that fill the SMs held to its cell's tail (model/saturation_wait.hpp) 262.
  // With runs 98-101: bert 135 of 261, mobilenet 296 of 352.
  EXPECT_GE(by_workload["bert-base-b4"]["within_both_or_run_range"].get<int>(), 135);
  EXPECT_GE(by_workload["mobilenet-v3-b8"]["within_both_or_run_range"].get<int>(), 296);
  // Per replica, the flag agrees with the count.
  int flagged = 0;
  for (const auto& run : corpus["runs"]) {
    for (const auto& w : run["workloads"]) {
      for (const auto& r : w["replicas"]) flagged += r["within_both_or_run_range"].get<bool>() ? 1 : 0;
    }
  }
  EXPECT_EQ(flagged, or_range);
}

}  // namespace
}  // namespace gpupack
