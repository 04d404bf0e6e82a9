#include "verify/margin_check.hpp"

#include <gtest/gtest.h>

namespace gpupack::verify {
namespace {

ReplicaVerdict replica(const std::string& workload, int index, std::optional<double> slo, double predicted,
                       std::vector<double> p99_runs) {
  ReplicaVerdict v;
  v.workload = workload;
  v.replica = index;
  v.slo_ms = slo;
  v.predicted_p99_ms = predicted;
  v.p99_ms.runs = std::move(p99_runs);
  return v;
}

VerifyReport report() {
  VerifyReport r;
  r.replicas.push_back(replica("resnet", 0, 16.4, 14.0, {13.0, 14.5}));
  r.replicas.push_back(replica("resnet", 1, 16.4, 14.0, {15.96, 13.2}));  // the worst window: 14% above
  r.replicas.push_back(replica("gemm", 0, std::nullopt, 7.0, {9.0, 9.1}));  // no SLO: no margin to check
  return r;
}

TEST(MarginCheck, NamesTheMarginTheWorstWindowNeeded) {
  VerifyReport r = report();
  add_margin_checks(r, {{"resnet", 0.12}});
  ASSERT_EQ(r.margins.size(), 1u);
  const MarginCheck& m = r.margins[0];
  EXPECT_EQ(m.workload, "resnet");
  EXPECT_EQ(m.replica, "resnet-1");
  EXPECT_DOUBLE_EQ(m.kept, 0.12);
  EXPECT_NEAR(m.needed, 0.14, 1e-9);
  ASSERT_EQ(r.notes.size(), 1u);
  EXPECT_EQ(r.notes[0],
            "resnet's worst window ran 14% above its predicted p99 (resnet-1: 15.96 ms against 14.00), more than the 12% "
            "SLO margin its plan kept: on this machine a plan needs slo_margin: 0.14 or more for it");
}

TEST(MarginCheck, NoNoteWhereTheKeptMarginCoveredIt) {
  VerifyReport r = report();
  add_margin_checks(r, {{"resnet", 0.15}});
  ASSERT_EQ(r.margins.size(), 1u);
  EXPECT_TRUE(r.notes.empty());
  // Without --scenario's margins the plan kept none.
  VerifyReport bare = report();
  add_margin_checks(bare, {});
  EXPECT_DOUBLE_EQ(bare.margins.at(0).kept, 0);
  EXPECT_EQ(bare.notes.size(), 1u);
}

TEST(MarginCheck, CopiesFromTheirGridAreJudgedAgainstTheWorstCopyTheSloCheckRead) {
  // Four copies predicted at the median copy's 10 ms; the SLO check read the worst copy's 12 ms. The slowest
  // window, 12.6 ms, is 5% over what the plan checked, not 26% over the median.
  VerifyReport r;
  for (int i = 0; i < 4; ++i) {
    r.replicas.push_back(replica("decode", i, 20.0, 10.0, {9.0 + i, 9.5 + i}));
    r.replicas.back().predicted_worst_copy_p99_ms = 12.0;
  }
  r.replicas[3].p99_ms.runs = {12.6, 11.0};
  add_margin_checks(r, {{"decode", 0.12}});
  ASSERT_EQ(r.margins.size(), 1u);
  EXPECT_NEAR(r.margins[0].needed, 0.05, 1e-9);
  EXPECT_DOUBLE_EQ(r.margins[0].predicted_p99_ms, 12.0);
  EXPECT_TRUE(r.notes.empty());
}

TEST(MarginCheck, AllBelowThePredictionNeedsNone) {
  VerifyReport r;
  r.replicas.push_back(replica("mlp", 0, 1.0, 0.5, {0.4, 0.45}));
  add_margin_checks(r, {{"mlp", 0.12}});
  ASSERT_EQ(r.margins.size(), 1u);
  EXPECT_LT(r.margins[0].needed, 0);
  EXPECT_TRUE(r.notes.empty());
}

}  // namespace
}  // namespace gpupack::verify
