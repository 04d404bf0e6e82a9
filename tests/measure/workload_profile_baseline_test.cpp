// The baseline in the workload profile: written and read back, derived fields recomputed from the runs,
// bad values refused naming the field, the plan entry's comment, and every committed profile (written
// before the baseline existed) still read.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/errors.hpp"
#include "measure/workload_profile.hpp"

namespace gpupack::measure {
namespace {

WorkloadProfile with_baselines() {
  WorkloadProfile p;
  p.name = "cnn-b8";
  p.command = {"python3", "cnn.py"};
  p.device = {"H200-SXM-141GB", "NVIDIA H200", "GPU-2"};
  p.window = {"ready-line", 3, 10, true, 6.0};
  p.memory = {1ull << 30, 1234173952, "processes"};
  p.activity = {0.3, 0.2, 0.1, 0.05, 0.6, "gpm", 20};
  p.requests = ProfileRequests{191, 5.0, 7.5, 1910, 4.1, 4.9};
  p.report = {true, 0, std::nullopt};
  p.host_cpu_cores = 1.1;
  p.compute_demand = {0.5, "sweep", 0.1, 0.1, 0.1};
  p.baseline = summarize_baseline(
      "alone", {{133, 7.0, 9.0, 1.0}, {228, 4.2, 6.0, 1.2}, {191, 5.0, 7.5, 1.1, std::nullopt, std::nullopt, 4.1, 4.9}}, 0.10);
  p.mps_baseline = summarize_baseline("mps-100", {{200, 4.9, 6.6, std::nullopt}, {204, 4.8, 6.9, std::nullopt}}, 0.10);
  return p;
}

TEST(ProfileBaseline, RoundTripsWithItsRunsAndDerivedFields) {
  const auto j = profile_to_json(with_baselines());
  const auto& b = j.at("baseline");
  EXPECT_EQ(b.at("source"), "median of 3 runs");
  EXPECT_DOUBLE_EQ(b.at("req_per_s").get<double>(), 191);
  EXPECT_NEAR(b.at("spread").at("req_per_s").get<double>(), 95.0 / 191, 1e-12);
  EXPECT_EQ(b.at("repeatable"), false);
  EXPECT_EQ(b.at("flag"), "req/s spread 50%, p50 spread 56% over 3 runs (limit 10%)");
  EXPECT_EQ(b.at("runs").size(), 3u);
  EXPECT_EQ(b.at("mps").at("setting"), "mps-100");
  EXPECT_EQ(b.at("mps").at("repeatable"), true);
  const auto back = profile_from_json(nlohmann::json::parse(j.dump()));
  ASSERT_TRUE(back.baseline && back.mps_baseline);
  EXPECT_EQ(back.baseline->runs.size(), 3u);
  EXPECT_DOUBLE_EQ(*back.baseline->runs[1].host_cpu_cores, 1.2);
  EXPECT_DOUBLE_EQ(b.at("runs")[2].at("p50_by_second").at("low_ms").get<double>(), 4.1);
  EXPECT_DOUBLE_EQ(b.at("runs")[2].at("p50_by_second").at("high_ms").get<double>(), 4.9);
  EXPECT_TRUE(b.at("runs")[0].at("p50_by_second").is_null());
  EXPECT_DOUBLE_EQ(*back.baseline->runs[2].p50_second_high_ms, 4.9);
  EXPECT_DOUBLE_EQ(*back.requests->p50_second_low_ms, 4.1);
  EXPECT_EQ(profile_to_json(back).dump(), j.dump());
}

TEST(ProfileBaseline, DerivedFieldsAreRecomputedFromTheRuns) {
  auto j = nlohmann::json::parse(profile_to_json(with_baselines()).dump());
  j["baseline"]["req_per_s"] = 1e6;  // a hand-edited median
  j["baseline"]["repeatable"] = true;
  j["baseline"]["spread_limit"] = 0.6;  // the limit is not derived: a wider one passes these runs
  const auto back = profile_from_json(j);
  EXPECT_DOUBLE_EQ(back.baseline->req_per_s, 191);
  EXPECT_EQ(back.baseline->repeatable, true);
  EXPECT_FALSE(back.baseline->flag);
}

TEST(ProfileBaseline, BadBaselinesAreRefusedNamingTheField) {
  const std::string good = profile_to_json(with_baselines()).dump();
  auto error_with = [&](const std::string& pointer, const std::string& value) -> std::string {
    auto j = nlohmann::json::parse(good);
    j[nlohmann::json::json_pointer(pointer)] = nlohmann::json::parse(value);
    try {
      read_workload_profile(j.dump(), "p.json");
    } catch (const InputError& e) {
      return e.what();
    }
    return "accepted";
  };
  EXPECT_NE(error_with("/baseline/runs", "[]").find("baseline.runs must be a non-empty array"), std::string::npos);
  EXPECT_NE(error_with("/baseline/setting", "\"solo\"").find("baseline.setting must be"), std::string::npos);
  EXPECT_NE(error_with("/baseline/spread_limit", "-0.1").find("baseline.spread_limit must be"), std::string::npos);
  EXPECT_NE(error_with("/baseline/runs/0/req_per_s", "-1").find("baseline.runs[].req_per_s must be"), std::string::npos);
  EXPECT_NE(error_with("/baseline/mps/runs/0/p99_ms", "\"slow\"").find("baseline.mps.runs[].p99_ms must be"), std::string::npos);
  EXPECT_NE(error_with("/baseline", "7").find("baseline must be an object"), std::string::npos);
  EXPECT_EQ(error_with("/baseline/mps", "null"), "accepted");
  EXPECT_NE(error_with("/baseline/runs/0/p50_by_second", "3").find("baseline.runs[].p50_by_second must be an object"),
            std::string::npos);
  EXPECT_NE(error_with("/requests/p50_by_second/low_ms", "-2").find("requests.p50_by_second.low_ms must be"),
            std::string::npos);
  EXPECT_EQ(error_with("/requests/p50_by_second", "null"), "accepted");
}

TEST(ProfileBaseline, ThePlanEntryStatesTheBaselineAndItsFlag) {
  const std::string y = plan_entry_yaml(with_baselines());
  EXPECT_NE(y.find("# requests, median of 3 runs: 191 req/s, p50 5 ms, p99 7.5 ms (spread req/s 49.7%)\n"), std::string::npos) << y;
  EXPECT_NE(y.find("# baseline not repeatable: req/s spread 50%, p50 spread 56% over 3 runs (limit 10%)\n"), std::string::npos) << y;
  EXPECT_EQ(y.find("MPS 100% baseline not repeatable"), std::string::npos) << y;
}

// Every profile committed before the baseline existed reads, without one.
TEST(ProfileBaseline, CommittedProfilesStillRead) {
  int read = 0;
  for (const char* dir : {"tests/planner/data", "results"}) {
    for (const auto& e : std::filesystem::recursive_directory_iterator(std::string(GPUPACK_SOURCE_DIR) + "/" + dir)) {
      if (e.path().extension() != ".json") continue;
      std::ifstream in(e.path());
      std::stringstream text;
      text << in.rdbuf();
      const std::string s = text.str();
      if (s.find("\"compute_demand\"") == std::string::npos || s.find("\"schema_version\"") == std::string::npos) continue;
      EXPECT_NO_THROW(read_workload_profile(s, e.path().string())) << e.path();
      ++read;
    }
  }
  EXPECT_GT(read, 10);
}

// The host's cores timed beside each run (os/cpu_work_probe.hpp): written per run and for the profile, read
// back, absent in older files, and a summary whose order is wrong refused naming the field.
TEST(ProfileBaseline, TheHostCoreWorkRoundTripsAndIsChecked) {
  WorkloadProfile p = with_baselines();
  p.host_core_work = HostCoreWork{1.4, 1.6, 3.1, 20};
  std::vector<BaselineRun> runs = p.baseline->runs;
  runs[0].host_core_work = HostCoreWork{1.4, 2.9, 3.1, 20};
  runs[1].host_core_work = HostCoreWork{1.4, 1.5, 1.6, 20};
  p.baseline = summarize_baseline("alone", runs, 0.10);
  auto j = profile_to_json(p);
  EXPECT_DOUBLE_EQ(j.at("host_core_work").at("median_ms").get<double>(), 1.6);
  EXPECT_TRUE(j.at("baseline").at("runs")[2].at("host_core_work").is_null());
  const WorkloadProfile back = profile_from_json(nlohmann::json::parse(j.dump()));
  ASSERT_TRUE(back.host_core_work && back.baseline->runs[0].host_core_work);
  EXPECT_DOUBLE_EQ(back.baseline->runs[0].host_core_work->median_ms, 2.9);
  EXPECT_EQ(back.baseline->runs[1].host_core_work->samples, 20);
  EXPECT_FALSE(back.baseline->runs[2].host_core_work);
  EXPECT_EQ(*back.baseline->flag, *p.baseline->flag);
  // Older profiles have no such field: none.
  nlohmann::json old = nlohmann::json::parse(j.dump());
  old.erase("host_core_work");
  EXPECT_FALSE(profile_from_json(old).host_core_work);
  nlohmann::json bad = nlohmann::json::parse(j.dump());
  bad["baseline"]["runs"][0]["host_core_work"]["median_ms"] = 9.0;
  try {
    profile_from_json(bad);
    FAIL() << "accepted a median above the slowest sample";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("baseline.runs[].host_core_work must be low_ms <= median_ms <= high_ms"), std::string::npos) << e.what();
  }
  bad = nlohmann::json::parse(j.dump());
  bad["host_core_work"]["samples"] = 0;
  EXPECT_THROW(profile_from_json(bad), InputError);
}

}  // namespace
}  // namespace gpupack::measure
