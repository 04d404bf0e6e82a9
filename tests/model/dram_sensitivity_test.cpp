// A workload's slowdown beside others drawing DRAM bandwidth, from its own profile's neighbour cells
// (model/dram_sensitivity.hpp), and predict() holding a client to it: the memory scenario of issue 36, where
// a transformer encoder beside a STREAM triad broke its SLO because the model's DRAM queueing, fitted on
// programs that draw little bandwidth, predicted a few percent.
#include "model/dram_sensitivity.hpp"

#include <gtest/gtest.h>

#include "model/prediction.hpp"
#include "model/prediction_notes.hpp"
#include "planner/scenario_builder.hpp"

namespace gpupack {
namespace {

const SliceCapacity kWholeH100{132, 3350};

ProfileFacts measured_beside(std::vector<ProfileDramPoint> points) {
  ProfileFacts p = *test::h100_profile(0.6, 400, 4);
  p.dram_bw = 0.1;
  p.dram_neighbour = std::move(points);
  return p;
}

// The model's own slowdown of every cell (a stand-in for model/profile_prediction.cpp's).
ModelledCell modelled_as(double factor) {
  return [factor](const ProfileDramPoint&) { return DramCellModel{factor, factor}; };
}

double growth(double rho) { return rho / (1 - rho); }

TEST(DramSensitivity, TheResidualIsTheMeasuredSlowdownOverTheModelsAtTheMeasuredDraw) {
  // Kept half its req/s and its p99 grew x3 beside others drawing 0.8 of the bandwidth (its own 0.1), where
  // the model predicts x1.25.
  const ProfileFacts p = measured_beside({{30, 0.8, 0.5, 3.0}});
  EXPECT_FALSE(measured_dram_residual(p, 0, modelled_as(1.25)));
  const auto at = measured_dram_residual(p, 0.8, modelled_as(1.25));
  ASSERT_TRUE(at);
  EXPECT_DOUBLE_EQ(at->req_factor, 1.6);
  EXPECT_DOUBLE_EQ(at->p99_factor, 2.4);
  EXPECT_DOUBLE_EQ(at->measured_others, 0.8);
  EXPECT_FALSE(at->beyond);
  // A model as slow as measured leaves nothing over, and never less than nothing.
  const auto none = measured_dram_residual(p, 0.8, modelled_as(4.0));
  EXPECT_DOUBLE_EQ(none->req_factor, 1.0);
  EXPECT_DOUBLE_EQ(none->p99_factor, 1.0);
}

// Run64's bert-base-b4 on an H200: beside the triad at 25% of the threads (others drawing 0.48) it kept 0.61
// of its req/s alone, beside it at 50% (0.71) 0.77. A neighbour drawing more on more SMs does not leave it
// faster: the two cells' req/s slowdowns are pooled to their mean, and the residual read says so; the p99
// growths stay as measured (the safe side of an SLO); a rising pair is read as measured.
TEST(DramSensitivity, ACellAtALargerDrawThatLostLessIsPooledWithTheOneBelow) {
  const ProfileFacts p = measured_beside({{25, 0.48, 0.61, 1.10}, {50, 0.71, 0.77, 1.00}});
  const auto low = measured_dram_residual(p, 0.48, modelled_as(1.0));
  ASSERT_TRUE(low);
  EXPECT_DOUBLE_EQ(low->req_factor, (1 / 0.61 + 1 / 0.77) / 2);
  EXPECT_DOUBLE_EQ(low->p99_factor, 1.10);
  EXPECT_TRUE(low->pooled);
  // Pooled before the model's own factor is divided out: a model slower at the larger draw leaves a residual
  // there that is the pooled slowdown over it, not a pooled residual.
  const ModelledCell growing = [](const ProfileDramPoint& d) {
    return d.others_dram > 0.6 ? DramCellModel{1.2, 1.2} : DramCellModel{1.0, 1.0};
  };
  EXPECT_DOUBLE_EQ(measured_dram_residual(p, 0.71, growing)->req_factor, (1 / 0.61 + 1 / 0.77) / 2 / 1.2);
  const auto high = measured_dram_residual(p, 0.71, modelled_as(1.0));
  EXPECT_DOUBLE_EQ(high->req_factor, low->req_factor);
  EXPECT_TRUE(high->pooled);
  const ProfileFacts rising = measured_beside({{25, 0.48, 0.77, 1.00}, {50, 0.71, 0.61, 1.10}});
  const auto measured = measured_dram_residual(rising, 0.48, modelled_as(1.0));
  EXPECT_DOUBLE_EQ(measured->req_factor, 1 / 0.77);
  EXPECT_FALSE(measured->pooled);
  EXPECT_DOUBLE_EQ(measured_dram_residual(rising, 0.71, modelled_as(1.0))->req_factor, 1 / 0.61);
}

TEST(DramSensitivity, BelowTheMeasuredDrawItGrowsAsAQueueAtTheDramsLoad) {
  const ProfileFacts p = measured_beside({{30, 0.8, 0.5, 3.0}});
  // Others drawing 0.3 (load 0.4) against 0.8 (load 0.9): a queue's growth there is 6% of the way, where a
  // line in the draw would have given 37%.
  const auto low = measured_dram_residual(p, 0.3, modelled_as(1.0));
  ASSERT_TRUE(low);
  const double share = (growth(0.4) - growth(0.1)) / (growth(0.9) - growth(0.1));
  EXPECT_NEAR(share, 0.0625, 1e-3);
  EXPECT_DOUBLE_EQ(low->req_factor, 1 + share * 1.0);
  EXPECT_DOUBLE_EQ(low->p99_factor, 1 + share * 2.0);
}

TEST(DramSensitivity, BetweenPointsAndBeyondTheLastTheResidualIsCarriedAndSaid) {
  const ProfileFacts p = measured_beside({{25, 0.4, 0.8, 1.5}, {50, 0.8, 0.5, 3.0}});
  const auto between = measured_dram_residual(p, 0.6, modelled_as(1.0));
  const double t = (growth(0.7) - growth(0.5)) / (growth(0.9) - growth(0.5));
  EXPECT_DOUBLE_EQ(between->req_factor, 1.25 + t * (2.0 - 1.25));
  EXPECT_DOUBLE_EQ(between->p99_factor, 1.5 + t * (3.0 - 1.5));
  const auto beyond = measured_dram_residual(p, 1.0, modelled_as(1.0));
  ASSERT_TRUE(beyond);
  EXPECT_TRUE(beyond->beyond);
  EXPECT_DOUBLE_EQ(beyond->req_factor, 2.0);
  EXPECT_DOUBLE_EQ(beyond->p99_factor, 3.0);
}

TEST(DramSensitivity, ANeighbourNeverMakesItFasterAndAMissingTailFollowsItsRate) {
  const ProfileFacts p = measured_beside({{30, 0.5, 1.1, std::nullopt}});
  const auto d = measured_dram_residual(p, 0.5, modelled_as(1.0));
  EXPECT_DOUBLE_EQ(d->req_factor, 1.0);
  EXPECT_DOUBLE_EQ(d->p99_factor, 1.0);
  const ProfileFacts slow = measured_beside({{30, 0.5, 0.5, std::nullopt}});
  EXPECT_DOUBLE_EQ(measured_dram_residual(slow, 0.5, modelled_as(1.0))->p99_factor, 2.0);
  EXPECT_FALSE(measured_dram_residual(measured_beside({}), 0.5, modelled_as(1.0)));
}

// A latency client beside a bandwidth-bound batch job under MPS: without its own measurement the model
// predicts it barely slower; with it, at least as slow as measured at that draw, and the note says so.
TEST(DramSensitivity, PredictHoldsAClientToItsMeasuredSlowdownBesideADramHeavyNeighbour) {
  Workload encoder = test::workload("encoder", 1, 0.6);
  encoder.latency_slo_ms = 18;
  auto facts = test::h100_profile(0.6, 400, 4);
  facts->dram_bw = 0.1;
  encoder.profile = facts;
  Workload triad = test::workload("triad", 1, 0.3);
  auto triad_facts = test::h100_profile(0.25, 420, 2.4);
  triad_facts->dram_bw = 0.84;
  triad.profile = triad_facts;
  const ModelParameters m;
  const std::vector<ModelClient> clients{{&encoder, 1, 0.6, 60}, {&triad, 1, 0.3, 30}};
  const SliceOutcome guessed = predict({Sharing::mps, kWholeH100}, clients, m);

  auto sensitive = std::make_shared<ProfileFacts>(*facts);
  sensitive->dram_neighbour = {{30, 0.8, 0.36, 4.7}};  // bert-like beside the triad (run34's memory scenario)
  encoder.profile = sensitive;
  const SliceOutcome measured = predict({Sharing::mps, kWholeH100}, clients, m);
  const ClientOutcome& e = measured.clients[0];
  ASSERT_TRUE(e.p99_ms && e.req_per_s && guessed.clients[0].p99_ms);
  EXPECT_GT(*e.p99_ms, 1.5 * *guessed.clients[0].p99_ms);
  // The mix is the cell the profile measured (the triad at 30%, drawing 0.84 against the 0.8 measured: the
  // last residual carried, marked extrapolated): the model times the residual gives back what was measured.
  EXPECT_TRUE(e.extrapolated);
  EXPECT_NEAR(*e.req_per_s, 400 * 0.36, 400 * 0.36 * 0.1) << *e.req_per_s;
  EXPECT_NEAR(*e.p99_ms, 4 * 4.7, 4 * 4.7 * 0.1) << *e.p99_ms;
  bool noted = false;
  for (const std::string& n : explain_outcome(e, encoder, Sharing::mps, m)) {
    noted = noted || (n.find("others draw 0.84 of the DRAM bandwidth: beside its profile's neighbour (0.80 drawn) it "
                            "measured req/s /") != std::string::npos &&
                          n.find("beyond the rest of the model (at the largest draw measured") != std::string::npos);
  }
  EXPECT_TRUE(noted) << ::testing::PrintToString(explain_outcome(e, encoder, Sharing::mps, m));
  // The triad's own prediction is untouched: its profile measured no neighbour.
  EXPECT_DOUBLE_EQ(*measured.clients[1].p99_ms, *guessed.clients[1].p99_ms);
}

}  // namespace
}  // namespace gpupack
