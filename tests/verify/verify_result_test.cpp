#include "verify/verify_result.hpp"

#include <gtest/gtest.h>

#include "stall_traces.hpp"
#include "verify_reports.hpp"

namespace gpupack::verify {
namespace {

using testing::alone;
using testing::measured;
using testing::one_slice;
using testing::run_of;

TEST(VerifyCompare, PredictionIsInflationTimesP99AloneAndShareTimesThroughputAlone) {
  const VerifyReport r = compare(one_slice(2.0, 30.0), {run_of(10, 12, 50), run_of(12, 12, 40)}, {alone(5, 100)}, 0.25);
  ASSERT_EQ(r.replicas.size(), 2u);
  const auto& v = r.replicas[0];
  EXPECT_DOUBLE_EQ(*v.predicted_p99_ms, 10);
  EXPECT_DOUBLE_EQ(*v.p99_ms.mean(), 11);
  EXPECT_NEAR(*v.p99_error, 0.1, 1e-12);
  EXPECT_NEAR(*v.p99_ms.spread(), 2.0 / 11, 1e-12);
  EXPECT_DOUBLE_EQ(*v.predicted_req_per_s, 50);
  EXPECT_NEAR(*v.throughput_error, -0.1, 1e-12);
  EXPECT_EQ(v.slo_met, true);
  EXPECT_TRUE(r.ok());
  ASSERT_EQ(r.slices.size(), 1u);
  EXPECT_DOUBLE_EQ(*r.slices[0].predicted_req_per_s, 100);
  EXPECT_DOUBLE_EQ(*r.slices[0].measured_req_per_s, 90);
  EXPECT_DOUBLE_EQ(*r.slices[0].measured_worst_p99_ms, 12);
}

TEST(VerifyCompare, CopiesFromTheirGridAreComparedWithTheMedianCopyAndTheSliceWithTheWorst) {
  // Two copies predicted from their grid: each at the median copy's 10 ms, the worst copy at 12.
  verify::VerifySetup setup = one_slice(2.4, 30.0);
  for (auto& r : setup.slices[0].replicas) {
    r.profile_p99_ms = 10.0;
    r.profile_req_per_s = 50.0;
    r.profile_worst_copy_p99_ms = 12.0;
  }
  const VerifyReport r = compare(setup, {run_of(9, 11.5, 50)}, {}, 0.25);
  ASSERT_EQ(r.replicas.size(), 2u);
  EXPECT_DOUBLE_EQ(*r.replicas[0].predicted_p99_ms, 10);
  EXPECT_DOUBLE_EQ(*r.replicas[0].predicted_worst_copy_p99_ms, 12);
  EXPECT_NEAR(*r.replicas[1].p99_error, 0.15, 1e-12);
  EXPECT_DOUBLE_EQ(*r.slices[0].predicted_worst_p99_ms, 12);
  EXPECT_NEAR(*r.slices[0].p99_error, 11.5 / 12 - 1, 1e-12);
}

TEST(VerifyCompare, ABrokenSloInAnyRepeatFails) {
  const VerifyReport r = compare(one_slice(2.0, 11.5), {run_of(10, 10, 50), run_of(12, 10, 50)}, {alone(5, 100)}, 0.25);
  EXPECT_EQ(r.replicas[0].slo_met, false);  // 12 ms in the second repeat
  EXPECT_EQ(r.replicas[1].slo_met, true);
  EXPECT_EQ(r.slices[0].slo_met, false);
  EXPECT_FALSE(r.ok());
  const auto j = to_json(r);
  EXPECT_EQ(j["verify_version"], kVerifyJsonVersion);
  EXPECT_EQ(j["ok"], false);
  EXPECT_EQ(j["replicas"][0]["slo_met"], false);
  EXPECT_EQ(j["replicas"][0]["p99_ms"]["runs"].size(), 2u);
}

TEST(VerifyCompare, AnErrorOverTheToleranceIsAWarning) {
  const VerifyReport r = compare(one_slice(2.0, std::nullopt), {run_of(20, 20, 50)}, {alone(5, 100)}, 0.25);
  EXPECT_FALSE(r.replicas[0].slo_met.has_value());
  ASSERT_EQ(r.replicas[0].warnings.size(), 1u);
  EXPECT_EQ(r.replicas[0].warnings[0], "p99 +100% off the prediction (tolerance 25%)");
  EXPECT_FALSE(r.ok());
  EXPECT_TRUE(compare(one_slice(2.0, std::nullopt), {run_of(20, 20, 50)}, {alone(5, 100)}, 1.5).ok());
}

TEST(VerifyCompare, WithoutAloneFiguresThereIsNoPredictionOnlyMeasurements) {
  const VerifyReport r = compare(one_slice(2.0, 30.0), {run_of(10, 10, 50)}, {}, 0.25);
  EXPECT_FALSE(r.replicas[0].predicted_p99_ms.has_value());
  EXPECT_FALSE(r.replicas[0].p99_error.has_value());
  EXPECT_TRUE(r.ok());
}

TEST(VerifyRunFits, AnSloBreachOrAMissingMeasurementDoesNotFit) {
  const VerifySetup s = one_slice(2.0, 11.0);
  std::string why;
  EXPECT_TRUE(run_fits(s.slices, run_of(10, 11, 50), why));
  EXPECT_FALSE(run_fits(s.slices, run_of(10, 11.5, 50), why));
  EXPECT_EQ(why, "fast-1 p99 11.50 ms > SLO 11.00 ms");
  SessionRun none = run_of(10, 10, 50);
  none.slices[0][0].figures.reset();
  EXPECT_FALSE(run_fits(s.slices, none, why));
  EXPECT_EQ(why, "fast-0 reported no request in the window");
}

// The GPU's GPM activity per run reaches the slice's verdict, its wording and the JSON; a run without it
// (a GPU without GPM) adds nothing.
TEST(VerifyCompare, TheGpusActivityIsReportedPerSlice) {
  const VerifySetup s = one_slice(1.0, std::nullopt);
  SessionRun a = run_of(10, 10, 50), b = run_of(10, 10, 50), none = run_of(10, 10, 50);
  a.activity = {WindowActivity{0.5, 0.9, 0.25, 8, 16}};
  b.activity = {WindowActivity{0.7, 1.0, std::nullopt, 8, 16}};
  const VerifyReport r = compare(s, {a, b, none}, {}, 0.25);
  const SliceVerdict& v = r.slices[0];
  EXPECT_DOUBLE_EQ(*v.sm_active.mean(), 0.6);
  EXPECT_NEAR(*v.dram_bw.spread(), 0.1 / 0.95, 1e-12);
  EXPECT_EQ(v.activity_text(), "SM active 0.60, DRAM bandwidth 0.95, tensor 0.25");
  const auto j = to_json(r);
  EXPECT_DOUBLE_EQ(j["slices"][0]["gpu_activity"]["dram_bw"]["mean"].get<double>(), 0.95);
  EXPECT_EQ(j["slices"][0]["gpu_activity"]["tensor_active"]["runs"].size(), 1u);
  EXPECT_TRUE(to_json(compare(s, {none}, {}, 0.25))["slices"][0]["gpu_activity"].is_null());
  EXPECT_TRUE(j["slices"][0]["predicted_sm_active"].is_null());
  // The plan's predicted SM activity (model/slice_activity.hpp) beside the measured, and their difference.
  VerifySetup predicted = s;
  predicted.slices[0].predicted_sm_active = 0.55;
  const VerifyReport rp = compare(predicted, {a, b, none}, {}, 0.25);
  EXPECT_NEAR(*rp.slices[0].sm_active_error, 0.05, 1e-12);
  EXPECT_EQ(rp.slices[0].activity_text(), "SM active 0.60 (predicted 0.55), DRAM bandwidth 0.95, tensor 0.25");
  const auto jp = to_json(rp);
  EXPECT_DOUBLE_EQ(jp["slices"][0]["predicted_sm_active"].get<double>(), 0.55);
  EXPECT_NEAR(jp["slices"][0]["sm_active_error"].get<double>(), 0.05, 1e-12);
  // Predicted but not measured (no GPM): no difference.
  EXPECT_FALSE(compare(predicted, {none}, {}, 0.25).slices[0].sm_active_error);
}

// The stall trace's four clients as one MPS slice, each predicted at 5 ms p99, one run of it.
TEST(VerifyCompare, SharedStallsAreReportedPerSliceAndExplainAP99Miss) {
  const auto trace = gpupack::testing::stall_trace(10, 16);
  VerifySetup setup = one_slice(1.0, std::nullopt);
  SliceSetup& slice = setup.slices[0];
  slice.replicas.clear();
  SessionRun run{{{}}, 10, {}};
  for (const auto& c : trace.clients) {
    ReplicaSetup r;
    const auto dash = c.name.rfind('-');
    r.workload = c.name.substr(0, dash);
    r.replica = std::stoi(c.name.substr(dash + 1));
    r.profile_p99_ms = 5;
    slice.replicas.push_back(r);
    std::vector<double> lat;
    for (const auto& q : c.requests) lat.push_back((q.end_s - q.start_s) * 1000);
    ReplicaRun m = measured(measure::quantile_of(lat, 0.99), static_cast<double>(lat.size()) / 10);
    m.name = c.name;
    m.requests = c.requests;
    run.slices[0].push_back(m);
  }
  const VerifyReport r = compare(setup, {run, run}, {}, 0.25);
  EXPECT_NEAR(r.slices[0].stalls.events, 2 * trace.stalls, 4);
  EXPECT_DOUBLE_EQ(r.slices[0].stalls.seconds, 20);
  EXPECT_EQ(r.slices[0].stalls.aligned_with, "gemm-0");
  const ReplicaVerdict& cnn = r.replicas[2];
  ASSERT_EQ(cnn.workload, "resnet18-b1");
  EXPECT_GT(*cnn.stall_hit_fraction.mean(), 0.02);
  EXPECT_LT(*cnn.p99_without_stalls_ms.mean(), 3.3);
  ASSERT_FALSE(cnn.warnings.empty());
  EXPECT_NE(cnn.warnings[0].find("in step with gemm-0's requests"), std::string::npos) << cnn.warnings[0];
  EXPECT_NE(cnn.warnings[0].find("ms without them, -"), std::string::npos) << cnn.warnings[0];
  // Predicted 5 ms, its own tail under 3.3 ms: the model's error on the quiet machine is that gap.
  ASSERT_TRUE(cnn.p99_error_without_stalls);
  EXPECT_DOUBLE_EQ(*cnn.p99_error_without_stalls, *cnn.p99_without_stalls_ms.mean() / 5 - 1);
  const auto j = to_json(r);
  EXPECT_EQ(j["slices"][0]["shared_stalls"]["aligned_with"], "gemm-0");
  EXPECT_EQ(j["replicas"][2]["stall_hit_fraction"]["runs"].size(), 2u);
  EXPECT_EQ(j["replicas"][2]["stalls_named"], true);
  EXPECT_DOUBLE_EQ(j["replicas"][2]["p99_error_without_stalls"].get<double>(), *cnn.p99_error_without_stalls);
  // The GEMM's p99 is within the tolerance here, so no verdict of it speaks of stalls.
  for (const auto& p : r.replicas[0].warnings) EXPECT_EQ(p.find("stalls"), std::string::npos) << p;
}

// 100 requests a window: the p99 is the second slowest, and the report says a longer window steadies it.
TEST(VerifyCompare, AP99OverFewRequestsIsNoted) {
  const VerifyReport few = compare(one_slice(2.0, 30.0), {run_of(10, 12, 50)}, {alone(5, 100)}, 0.25);
  ASSERT_EQ(few.notes.size(), 1u);
  EXPECT_EQ(few.notes[0],
            "fewer than 1000 requests in a window (the fewest in brackets), so a p99 rests on the slowest 1% of them: "
            "fast-0 (100), fast-1 (100); a longer --duration steadies it");
  SessionRun many = run_of(10, 12, 50);
  for (auto& r : many.slices[0]) r.figures->requests = 1000;
  EXPECT_TRUE(compare(one_slice(2.0, 30.0), {many}, {alone(5, 100)}, 0.25).notes.empty());
  many.slices[0][1].figures->requests = 999;
  const VerifyReport one = compare(one_slice(2.0, 30.0), {many}, {alone(5, 100)}, 0.25);
  ASSERT_EQ(one.notes.size(), 1u);
  EXPECT_NE(one.notes[0].find(": fast-1 (999);"), std::string::npos) << one.notes[0];
  // The fewest of any window counts.
  const VerifyReport two = compare(one_slice(2.0, 30.0), {many, run_of(10, 12, 50)}, {alone(5, 100)}, 0.25);
  ASSERT_EQ(two.notes.size(), 1u);
  EXPECT_NE(two.notes[0].find("fast-0 (100), fast-1 (100)"), std::string::npos) << two.notes[0];
}

// Run 11 (machine g, mixed4): resnet18-b1-7 met stalls in 0.55% and 1.33% of its requests (mean 0.94%),
// p99 6.65 and 9.79 ms, 5.30 and 5.99 ms without them; the GEMM met them in 3.3%, p99 4.00 ms either way.
TEST(VerifyCompare, StallsAreNamedWhereTheyCanHoldTheP99) {
  ReplicaVerdict v;
  v.p99_ms.runs = {6.65, 9.79};
  v.stall_hit_fraction.runs = {0.0055, 0.0133};
  v.p99_without_stalls_ms.runs = {5.30, 5.99};
  EXPECT_TRUE(stalls_worth_naming(v));  // under 1% on average, but its p99 is 31% lower without them
  v.p99_without_stalls_ms.runs = {7.0, 8.5};
  EXPECT_FALSE(stalls_worth_naming(v));  // 6% lower: its tail is its own
  ReplicaVerdict gemm;
  gemm.p99_ms.runs = {4.0, 4.0};
  gemm.stall_hit_fraction.runs = {0.026, 0.041};
  gemm.p99_without_stalls_ms.runs = {4.01, 3.99};
  EXPECT_TRUE(stalls_worth_naming(gemm));  // 3.3% of its requests: enough to hold a p99
  ReplicaVerdict quiet;
  quiet.p99_ms.runs = {4.0};
  EXPECT_FALSE(stalls_worth_naming(quiet));  // no request lines: nothing to name
  quiet.stall_hit_fraction.runs = {0};
  quiet.p99_without_stalls_ms.runs = {4.0};
  EXPECT_FALSE(stalls_worth_naming(quiet));
}

}  // namespace
}  // namespace gpupack::verify
