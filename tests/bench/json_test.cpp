#include "bench/bench_json.hpp"

#include <gtest/gtest.h>

#include "bench/recorded_results.hpp"

namespace gpupack::bench {
namespace {

using testing::recorded_results;

TEST(BenchJson, CalibrationFollowsThePlannerContract) {
  const auto j = to_json(recorded_results());
  const auto& c = j.at("calibration");
  EXPECT_NEAR(c.at("timeslicing_p99_inflation").get<double>(), 8.4, 1e-9);
  EXPECT_NEAR(c.at("mps_p99_inflation").get<double>(), 1.74, 1e-9);
  for (const char* cap : {"25", "50", "75"}) {
    EXPECT_TRUE(c.at("mps_capped_p99_inflation").at(cap).is_number()) << cap;
    EXPECT_TRUE(c.at("mps_capped_neighbour_throughput").at(cap).is_number()) << cap;
  }
  for (const char* k : {"2", "4", "8"}) {
    EXPECT_TRUE(c.at("timeslicing_slowdown").at(k).is_number()) << k;
    EXPECT_TRUE(c.at("mps_slowdown").at(k).is_number()) << k;
  }
  EXPECT_FALSE(c.at("timeslicing_slowdown").contains("1"));
  EXPECT_NEAR(c.at("mps_capped_neighbour_throughput").at("50").get<double>(), 0.52, 1e-12);
}

TEST(BenchJson, AbsentMeasurementsAreLeftOutOfCalibration) {
  BenchResults r = recorded_results();
  r.isolation.clear();
  r.clients.erase(r.clients.begin() + 4, r.clients.end());  // no MPS runs
  const auto c = to_json(r).at("calibration");
  EXPECT_FALSE(c.contains("mps_p99_inflation"));
  EXPECT_FALSE(c.contains("mps_slowdown"));
  EXPECT_FALSE(c.contains("mps_capped_p99_inflation"));
  EXPECT_TRUE(c.contains("timeslicing_slowdown"));
}

TEST(BenchJson, KeepsEverySampleAndTheDevice) {
  const BenchResults r = recorded_results();
  const auto j = to_json(r);
  EXPECT_EQ(j.at("schema_version").get<int>(), kSchemaVersion);
  EXPECT_EQ(j.at("device").at("name"), "NVIDIA H200");
  EXPECT_EQ(j.at("device").at("driver_version"), "580.159.04");
  EXPECT_EQ(j.at("device").at("mig_mode"), "Disabled");
  EXPECT_EQ(j.at("device").at("compute_mode"), "Default");
  EXPECT_EQ(j.at("device").at("sm_count").get<int>(), 132);
  EXPECT_EQ(j.at("isolation").at(1).at("latency_us").size(), 2000u);
  EXPECT_EQ(j.at("clients").at(3).at("seconds").size(), 8u);
  EXPECT_EQ(j.at("streams").at("kernels").at(0).at("serial_ms").size(), 3u);
  EXPECT_EQ(j.at("limits").at("pinned_device_memory").at("beyond_error"), "cudaErrorMemoryAllocation");
  EXPECT_EQ(j.at("skipped").at(0).at("part"), "mig");
  EXPECT_EQ(j.at("settings").at("ks").size(), 4u);
  EXPECT_EQ(j.at("schema_version").get<int>(), 2);
}

TEST(BenchJson, ColocationGridIsTheProfilesObject) {
  const BenchResults r = recorded_results();
  const auto j = to_json(r).at("colocation");
  EXPECT_EQ(j.at("cells").size(), r.colocation->cells.size());
  EXPECT_NEAR(j.at("curves").at("mps").at("aggregate_req_per_s").at("8").get<double>(), 2111, 1e-9);
  EXPECT_NEAR(j.at("curves").at("timeslicing").at("p99_ms").at("8").get<double>(), 20, 1e-9);
  // What bench writes, the workload profile's reader takes back unchanged.
  EXPECT_EQ(measure::to_json(measure::colocation_grid_from_json(nlohmann::json::parse(j.dump()))).dump(), j.dump());
  BenchResults none = r;
  none.colocation.reset();
  EXPECT_TRUE(to_json(none).at("colocation").is_null());
}

TEST(BenchJson, VerdictsCarryOutcomes) {
  const auto j = to_json(recorded_results());
  ASSERT_EQ(j.at("verdicts").size(), 5u);
  for (const auto& v : j.at("verdicts")) EXPECT_EQ(v.at("outcome"), "pass") << v.at("id");
}

}  // namespace
}  // namespace gpupack::bench
