// A client's kernel time beside neighbours that oversubscribe the SMs, read from its own SM-share curve
// (model/kernel_share_stretch.hpp), and the profile model predicting with it: the STREAM triad capped at 30%
// kept 58-61% of its req/s alone in every memory mix of issue 36's corpus, where growing its kernel time with
// the contention predicted 29-34% (docs/decisions.md, "The triad's share of oversubscribed SMs").
#include "model/kernel_share_stretch.hpp"

#include <gtest/gtest.h>

#include <string>

#include "model/prediction.hpp"
#include "model/prediction_notes.hpp"
#include "planner/scenario_builder.hpp"

namespace gpupack {
namespace {

const SliceCapacity kTriadSlice{132, 3350};
const double kSteadyShare = ModelParameters{}.steady_kernel_share;

// stream-triad on an H100 (results/run34-corpus-h100/corpus-memory/profiles): its kernels run 97.7% of the
// time on 95% of the SMs, drawing 84% of the DRAM bandwidth, and its curve hardly moves from 25% to 100%.
ProfileFacts triad() {
  ProfileFacts p = *test::h100_profile(0.931, 424.3, 2.39);
  p.kernel_time = 0.977;
  p.dram_bw = 0.842;
  p.share_curve = {{25, 402.3, 2.5}, {50, 427.8, 2.4}, {100, 419.0, 2.39}};
  return p;
}

// The request time on the segment through (25, r25) and (50, r50): A + B / s through both.
double hyperbola(double r25, double r50, double pct) {
  const double b = (1 / r25 - 1 / r50) / (1.0 / 25 - 1.0 / 50);
  const double a = 1 / r25 - b / 25;
  return a + b / pct;
}

TEST(KernelShareStretch, ABandwidthBoundKernelSlowsAsItsCurveSaysAtTheShareTheContentionLeavesIt) {
  // Capped at 30% beside neighbours that oversubscribe the SMs 2.76 times (run34's memory mix): 10.9% of
  // the SMs, below the curve's lowest point, so its lowest segment carries on.
  const auto s = curve_kernel_stretch(triad(), 0.30, 2.76, kSteadyShare);
  ASSERT_TRUE(s);
  EXPECT_NEAR(s->share, 0.30 / 2.76, 1e-12);
  EXPECT_EQ(s->from_pct, 25);
  EXPECT_EQ(s->to_pct, 50);
  EXPECT_TRUE(s->below_curve);
  EXPECT_NEAR(s->stretch, hyperbola(402.3, 427.8, 30 / 2.76) / hyperbola(402.3, 427.8, 30), 1e-12);
  // Its kernels take about a fifth longer, not 2.76 times as long.
  EXPECT_GT(s->stretch, 1.1);
  EXPECT_LT(s->stretch, 1.25);
}

TEST(KernelShareStretch, AComputeBoundKernelSlowsInProportionAsBefore) {
  // A GEMM whose curve halves with the SMs: all of its time is on the SMs.
  ProfileFacts p = triad();
  p.share_curve = {{25, 100, std::nullopt}, {50, 200, std::nullopt}, {100, 400, std::nullopt}};
  const auto s = curve_kernel_stretch(p, 1.0, 2.0, kSteadyShare);
  ASSERT_TRUE(s);
  // Uncapped, its kernels fill 95% of the SMs: 47.7% beside the contention, on the segment 25-50.
  EXPECT_NEAR(s->share, 0.931 / 0.977 / 2, 1e-12);
  EXPECT_FALSE(s->below_curve);
  EXPECT_NEAR(s->stretch, 2.0, 1e-9);
}

TEST(KernelShareStretch, TheSegmentHoldingTheShareIsRead) {
  // 60% of the SMs: the segment from 50% to 100%, where this curve still grows.
  ProfileFacts p = triad();
  p.share_curve = {{25, 300, std::nullopt}, {50, 380, std::nullopt}, {100, 400, std::nullopt}};
  const double own = 100 * 0.931 / 0.977;
  const auto s = curve_kernel_stretch(p, 1.0, own / 60, kSteadyShare);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->from_pct, 50);
  EXPECT_EQ(s->to_pct, 100);
  EXPECT_FALSE(s->below_curve);
  const double b = (1.0 / 380 - 1.0 / 400) / (1.0 / 50 - 1.0 / 100);
  const double a = 1.0 / 380 - b / 50;
  EXPECT_NEAR(s->stretch, (a + b / 60) / (a + b / own), 1e-12);
}

TEST(KernelShareStretch, ACurveFasterOnFewerSmsCostsNothingAndNoStretchPassesTheContention) {
  // Noise: its req/s rose from 50% to 25% (no part of it is taken to gain from losing SMs).
  ProfileFacts p = triad();
  p.share_curve = {{25, 440, std::nullopt}, {50, 420, std::nullopt}, {100, 419, std::nullopt}};
  const auto flat = curve_kernel_stretch(p, 0.30, 2.76, kSteadyShare);
  ASSERT_TRUE(flat);
  EXPECT_DOUBLE_EQ(flat->stretch, 1.0);
  // Faster than in proportion to the SMs between its points: at most the contention.
  p.share_curve = {{25, 50, std::nullopt}, {50, 400, std::nullopt}};
  const auto steep = curve_kernel_stretch(p, 0.50, 3, kSteadyShare);
  ASSERT_TRUE(steep);
  EXPECT_DOUBLE_EQ(steep->stretch, 3.0);
}

TEST(KernelShareStretch, OnlyWhereTheCurveMeasuresTheKernelsThemselves) {
  // Nothing oversubscribed.
  EXPECT_FALSE(curve_kernel_stretch(triad(), 0.30, 1.0, kSteadyShare));
  // Kernels that run half the time: its curve mixes launch and host time into their rate.
  ProfileFacts launch_bound = triad();
  launch_bound.sm_active = 0.3;
  launch_bound.kernel_time = 0.5;
  EXPECT_FALSE(curve_kernel_stretch(launch_bound, 0.30, 2.0, kSteadyShare));
  // Kernels that fill a fifth of the SMs: no cap of the curve cut them, a flat curve says nothing.
  ProfileFacts narrow = triad();
  narrow.sm_active = 0.19;
  narrow.kernel_time = 0.96;
  EXPECT_FALSE(curve_kernel_stretch(narrow, 0.30, 2.0, kSteadyShare));
  // One point is no curve; without SM activity no width.
  ProfileFacts one = triad();
  one.share_curve.resize(1);
  EXPECT_FALSE(curve_kernel_stretch(one, 0.30, 2.0, kSteadyShare));
  ProfileFacts no_activity = triad();
  no_activity.sm_active.reset();
  EXPECT_FALSE(curve_kernel_stretch(no_activity, 0.30, 2.0, kSteadyShare));
}

// The profile model with it: the triad at 30% beside three SM-heavy clients keeps far more of its req/s than
// the contention's x2.7, and its note says how; the neighbours' predictions do not move (its DRAM draw is
// what it draws alone at its cap, as before).
TEST(KernelShareStretch, TheTriadBesideSmHeavyNeighboursKeepsWhatItsCurveSays) {
  Workload t = test::workload("stream-triad", 3, 0.3);
  t.profile = std::make_shared<const ProfileFacts>(triad());
  Workload heavy = test::workload("dlrm", 3, 0.8);
  auto hp = test::h100_profile(0.77, 412, 2.5);
  hp->kernel_time = 0.897;
  hp->dram_bw = 0.21;
  heavy.profile = hp;
  heavy.latency_slo_ms = 9;
  const ModelParameters m;
  const std::vector<ModelClient> clients{{&t, 1, 0.3, 30}, {&heavy, 1, 0.8, 100}, {&heavy, 1, 0.8, 100},
                                         {&heavy, 1, 0.8, 100}};
  const SliceOutcome o = predict({Sharing::mps, kTriadSlice}, clients, m);
  const double capped = 402.3 + (427.8 - 402.3) * 5 / 25;  // its curve at 30%
  const double kept = *o.clients[0].req_per_s / capped;
  EXPECT_GT(kept, 0.6);  // x2.7 on its kernel time would have left it about a third
  EXPECT_LT(kept, 0.95);  // the contention and the DRAM queueing still cost it
  EXPECT_TRUE(o.clients[0].extrapolated);  // below the curve's lowest point
  bool noted = false;
  for (const std::string& n : explain_outcome(o.clients[0], t, Sharing::mps, m)) {
    noted = noted || n.rfind("its SM-share curve from 25% to 50% at the ", 0) == 0;
  }
  EXPECT_TRUE(noted);
  // The heavy clients are not steady (kernels 90% of the time): the contention as before, no such note.
  for (const std::string& n : explain_outcome(o.clients[1], heavy, Sharing::mps, m)) {
    EXPECT_EQ(n.find("its SM-share curve from"), std::string::npos) << n;
  }
}

}  // namespace
}  // namespace gpupack
