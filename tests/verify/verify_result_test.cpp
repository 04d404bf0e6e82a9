#include "verify/verify_result.hpp"

#include <gtest/gtest.h>

namespace gpupack::verify {
namespace {

VerifySetup one_slice(double inflation, std::optional<double> slo) {
  SliceSetup s;
  s.gpu_id = "gpu0";
  s.slice_id = "s0";
  s.sharing = "mps";
  s.predicted_throughput = 0.5;
  for (int i = 0; i < 2; ++i) {
    ReplicaSetup r;
    r.workload = "fast";
    r.replica = i;
    r.predicted_p99_inflation = inflation;
    r.slo_ms = slo;
    s.replicas.push_back(r);
  }
  return {"node-0", {s}, {}, {}};
}

ReplicaRun measured(double p99, double rps) {
  ReplicaRun r;
  r.reported = true;
  measure::ReportFigures f;
  f.requests = 100;
  f.p99_ms = p99;
  f.req_per_s = rps;
  r.figures = f;
  return r;
}

SessionRun run_of(double p99_a, double p99_b, double rps) { return {{{measured(p99_a, rps), measured(p99_b, rps)}}, 10}; }

AloneFigures alone(double p99, double rps) {
  AloneFigures a;
  a.workload = "fast";
  a.source = "solo run";
  a.p99_ms.runs = {p99, p99};
  a.req_per_s.runs = {rps};
  return a;
}

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

TEST(VerifyCompare, AnErrorOverTheToleranceFails) {
  const VerifyReport r = compare(one_slice(2.0, std::nullopt), {run_of(20, 20, 50)}, {alone(5, 100)}, 0.25);
  EXPECT_FALSE(r.replicas[0].slo_met.has_value());
  ASSERT_EQ(r.replicas[0].problems.size(), 1u);
  EXPECT_EQ(r.replicas[0].problems[0], "p99 +100% off the prediction (tolerance 25%)");
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

}  // namespace
}  // namespace gpupack::verify
