// The wait of a launch-bound program's kernels for SMs its neighbours hold (model/saturation_wait.hpp): read
// from its profile's cell beside a neighbour that can hold every SM, carried in proportion to the SM activity
// of neighbours whose caps together can hold them all, and not beside neighbours that leave SMs free.
#include "model/saturation_wait.hpp"

#include <gtest/gtest.h>

#include "model/prediction.hpp"
#include "model/prediction_notes.hpp"
#include "model/slice_contention.hpp"
#include "planner/scenario_builder.hpp"

namespace gpupack {
namespace {

const SliceCapacity kWholeH100Slice{132, 3350};

ModelledCell cell_modelled_as(double factor) {
  return [factor](const ProfileDramPoint&) { return DramCellModel{factor, factor}; };
}

// bert-base-b4 on an H200 (run58): its kernels 0.2 of its request, beside the standard neighbour at 100% of
// the threads (SM activity 0.96 alone) it kept half its req/s.
std::shared_ptr<ProfileFacts> launch_bound(bool with_full_cell) {
  auto p = test::h100_profile(0.12, 400, 4);
  p->kernel_time = 0.2;
  p->dram_bw = 0.01;
  p->dram_neighbour.push_back({25, 0.55, 1.0, 1.0});
  if (with_full_cell) p->dram_neighbour.push_back({100, 0.79, 0.5, 2.5, 0.96});
  return p;
}

// A neighbour whose kernels fill the GPU while they run (dlrm-b4096-like: SM activity 0.83, kernels 0.9 of
// its request).
Workload dlrm_like() {
  Workload dlrm = test::workload("dlrm", 2, 0.83);
  auto facts = test::h100_profile(0.83, 400, 3);
  facts->kernel_time = 0.9;
  facts->dram_bw = 0.15;
  dlrm.profile = facts;
  return dlrm;
}

TEST(SaturationWait, IsWhatTheFullCellMeasuredBeyondTheModelPerUnitOfTheNeighboursSmActivity) {
  EXPECT_FALSE(measured_saturation_wait(*launch_bound(false), cell_modelled_as(1.1)));
  const auto w = measured_saturation_wait(*launch_bound(true), cell_modelled_as(1.1));
  ASSERT_TRUE(w);
  EXPECT_DOUBLE_EQ(w->per_sm, (2.0 - 1.1) / 0.96);
  EXPECT_DOUBLE_EQ(w->measured_sm, 0.96);
  // A cell the model predicts as slow as measured leaves no wait; never a negative one.
  EXPECT_DOUBLE_EQ(measured_saturation_wait(*launch_bound(true), cell_modelled_as(2.5))->per_sm, 0.0);
  // The DRAM residual leaves that cell out: beside a capped neighbour drawing the same DRAM the wait does not
  // come.
  auto only_full = launch_bound(true);
  only_full->dram_neighbour.erase(only_full->dram_neighbour.begin());
  EXPECT_FALSE(measured_dram_residual(*only_full, 0.79, cell_modelled_as(1.1)));
  // Without the neighbour's SM activity alone (an old profile) nothing is read.
  auto old = launch_bound(true);
  old->dram_neighbour.back().neighbour_sm.reset();
  EXPECT_FALSE(measured_saturation_wait(*old, cell_modelled_as(1.1)));
}

// Beside neighbours that fill the SMs every request waits for them, so its requests grow more alike: they spread
// past their mean by no more than in its cell beside such a neighbour, in ms (its p99 less its mean request
// there) or as a share (its p99 over it). Its mean request is no shorter than its predicted p99 less the one or
// over the other, whichever leaves the longer. Both come from the cell beside the busiest such neighbour.
TEST(SaturationWait, TheMeanRequestIsNoShorterThanTheFullCellsTailAllows) {
  auto p = launch_bound(true);
  p->dram_neighbour.back().tail_excess_ms = 0.4;
  p->dram_neighbour.back().tail_ratio = 1.05;
  p->dram_neighbour.push_back({std::nullopt, 0.80, 0.6, 2.0, 0.90, 3.0, 1.5});  // a less busy full neighbour
  const auto w = measured_saturation_wait(*p, cell_modelled_as(1.1));
  EXPECT_DOUBLE_EQ(*w->tail_excess_ms, 0.4);
  EXPECT_DOUBLE_EQ(*w->tail_ratio, 1.05);
  Workload encoder = test::workload("encoder", 1, 0.12);
  const Workload dlrm = dlrm_like();
  const ModelParameters m;
  const auto beside_three_dlrm = [&](std::optional<double> excess, std::optional<double> ratio) {
    auto facts = launch_bound(true);
    facts->dram_neighbour.back().tail_excess_ms = excess;
    facts->dram_neighbour.back().tail_ratio = ratio;
    encoder.profile = facts;
    const std::vector<ModelClient> clients{{&encoder, 1, 0.12, std::nullopt}, {&dlrm, 1, 1.0, std::nullopt},
                                           {&dlrm, 1, 1.0, std::nullopt}, {&dlrm, 1, 1.0, std::nullopt}};
    return predict({Sharing::mps, kWholeH100Slice}, clients, m).clients[0];
  };
  const ClientOutcome spread = beside_three_dlrm(std::nullopt, std::nullopt);
  ASSERT_TRUE(spread.req_per_s && spread.p99_ms);
  const double p99 = *spread.p99_ms;
  // The excess in ms binds where the p99 is long against it; the share where it is short.
  const ClientOutcome by_excess = beside_three_dlrm(0.4, 1.5);
  const ClientOutcome by_ratio = beside_three_dlrm(p99, 1.05);
  for (const ClientOutcome* o : {&by_excess, &by_ratio}) {
    ASSERT_TRUE(o->req_per_s && o->p99_ms);
    EXPECT_DOUBLE_EQ(*o->p99_ms, p99);  // the p99 stands
    EXPECT_LT(*o->req_per_s, *spread.req_per_s);
    ASSERT_EQ(o->notes.back().kind, ModelNote::Kind::saturation_tail);
    EXPECT_DOUBLE_EQ(o->notes.back().x[3], *spread.req_per_s);
  }
  EXPECT_NEAR(*by_excess.req_per_s, 1000 / (p99 - 0.4), 1e-9);
  EXPECT_NEAR(*by_ratio.req_per_s, 1.05 * 1000 / p99, 1e-9);
  const std::vector<std::string> text = explain_outcome(by_excess, encoder, Sharing::mps, m);
  EXPECT_NE(text.back().find("beside neighbours that keep every SM busy its requests wait alike: its profile's cell "
                             "beside such a neighbour measured its p99 0.40 ms past its mean request (1.50x it)"),
            std::string::npos)
      << text.back();
  // A cell whose requests spread more than the prediction's, either way, leaves its req/s as it was.
  const ClientOutcome loose = beside_three_dlrm(p99, 3.0);
  EXPECT_DOUBLE_EQ(*loose.req_per_s, *spread.req_per_s);
  EXPECT_NE(loose.notes.back().kind, ModelNote::Kind::saturation_tail);
}

TEST(SaturationWait, CountsOnlyNeighboursWhoseCapsCanHoldEverySm) {
  using contention::Activity;
  const Activity client{0.12, 0.01, 0.2, 0.6, 1.0, 1};
  const Activity dlrm_full{0.83, 0.15, 0.9, 0.92, 1.0, 1};
  const Activity triad_half{0.5, 0.7, 1.0, 0.5, 0.5, 1};
  EXPECT_DOUBLE_EQ(contention::others_filling_sm({client, dlrm_full}, 0), 0.83);
  EXPECT_DOUBLE_EQ(contention::others_filling_sm({client, dlrm_full, dlrm_full, dlrm_full}, 0), 3 * 0.83);
  EXPECT_DOUBLE_EQ(contention::others_filling_sm({client, triad_half}, 0), 0.0);
  // Two at 50% hold every SM between them; the client's own other replicas count as neighbours.
  EXPECT_DOUBLE_EQ(contention::others_filling_sm({client, triad_half, triad_half}, 0), 1.0);
  const Activity three{0.36, 0.03, 0.2, 0.6, 0.5, 3};
  EXPECT_DOUBLE_EQ(contention::others_filling_sm({three}, 0), 0.24);
}

TEST(SaturationWait, IsCarriedOnHowFarTheNeighboursAndItGoPastEverySm) {
  using contention::Activity;
  const Activity client{0.12, 0.01, 0.2, 0.6, 1.0, 1};
  const Activity dlrm_full{0.83, 0.15, 0.9, 0.92, 1.0, 1};
  const Activity resnet_full{0.40, 0.15, 0.62, 0.65, 1.0, 1};
  const Activity triad_half{0.5, 0.7, 1.0, 0.5, 0.5, 1};
  // One dlrm and the client leave SMs free (0.95): nothing to queue behind; three go 1.61 past them.
  EXPECT_DOUBLE_EQ(contention::sm_overload({client, dlrm_full}, 0), 0.0);
  EXPECT_NEAR(contention::sm_overload({client, dlrm_full, dlrm_full, dlrm_full}, 0), 3 * 0.83 + 0.12 - 1, 1e-12);
  // Two resnet50-like neighbours and the client: 0.92 of the SMs, none past; a third: 0.32 past.
  EXPECT_DOUBLE_EQ(contention::sm_overload({client, resnet_full, resnet_full}, 0), 0.0);
  EXPECT_NEAR(contention::sm_overload({client, resnet_full, resnet_full, resnet_full}, 0), 0.32, 1e-12);
  // Neighbours whose caps leave SMs free count for nothing, however busy (others_filling_sm).
  EXPECT_DOUBLE_EQ(contention::sm_overload({client, triad_half}, 0), 0.0);
  // The client's own replicas count one process as its own, the others as neighbours.
  const Activity three{0.36, 0.03, 0.2, 0.6, 0.5, 3};
  EXPECT_DOUBLE_EQ(contention::sm_overload({three, dlrm_full}, 0), 0.24 + 0.83 + 0.12 - 1);
}

TEST(SaturationWait, PredictAddsTheWaitBesideNeighboursThatFillTheSmsAndNotBesideCappedOnes) {
  Workload encoder = test::workload("encoder", 1, 0.12);
  const Workload dlrm = dlrm_like();
  const ModelParameters m;
  const auto run = [&](bool full_cell, std::optional<int> dlrm_cap) {
    encoder.profile = launch_bound(full_cell);
    const double compute = dlrm_cap ? *dlrm_cap / 100.0 : 1.0;
    const std::vector<ModelClient> clients{{&encoder, 1, 0.12, std::nullopt},
                                           {&dlrm, 1, compute, dlrm_cap},
                                           {&dlrm, 1, compute, dlrm_cap},
                                           {&dlrm, 1, compute, dlrm_cap}};
    return predict({Sharing::mps, kWholeH100Slice}, clients, m).clients[0];
  };
  // Beside three dlrm at 100% of the threads: the model's figures, then the wait added to each request.
  const ClientOutcome without = run(false, std::nullopt);
  const ClientOutcome with = run(true, std::nullopt);
  ASSERT_TRUE(without.req_per_s && with.req_per_s && without.p99_ms && with.p99_ms);
  const ModelNote* note = nullptr;
  for (const ModelNote& n : with.notes) {
    if (n.kind == ModelNote::Kind::saturation_wait) note = &n;
  }
  ASSERT_NE(note, nullptr);
  EXPECT_NEAR(note->x[0], 3 * 0.83, 1e-9);
  // The model's own factor for the full cell lies between 1 and 1.5 for a program whose kernels are a fifth
  // of its request; the rest of the halved rate is the wait.
  EXPECT_GT(note->x[2], (2.0 - 1.5) / 0.96);
  EXPECT_LT(note->x[2], (2.0 - 1.0) / 0.96);
  // Carried on how far the three and the encoder's own 0.12 go past every SM: 2.49 + 0.12 - 1.
  EXPECT_NEAR(note->x[4], 3 * 0.83 + 0.12 - 1, 1e-9);
  EXPECT_NEAR(note->x[1], note->x[2] * (3 * 0.83 + 0.12 - 1) * 1000 / 400, 1e-9);
  EXPECT_TRUE(note->flag);  // 2.49 of the SMs beside it, measured beside 0.96
  EXPECT_TRUE(with.extrapolated);
  EXPECT_NEAR(*with.req_per_s, 1000 / (1000 / *without.req_per_s + note->x[1]), 1e-6);
  EXPECT_LT(*with.req_per_s, 0.7 * *without.req_per_s);
  EXPECT_GT(*with.p99_ms, *without.p99_ms);
  bool explained = false;
  for (const std::string& s : explain_outcome(with, encoder, Sharing::mps, m)) {
    explained = explained ||
                s.find(
                    "neighbours whose caps can hold every SM keep 2.49 of the SMs busy, with its own 1.61 more "
                    "than every SM: its kernels wait for them") != std::string::npos;
  }
  EXPECT_TRUE(explained) << ::testing::PrintToString(explain_outcome(with, encoder, Sharing::mps, m));
  // A program whose kernels fill the GPU while they run (width 0.96, dlrm-like) gets no wait: its loss beside
  // its like is the SM contention the model counts.
  auto wide = launch_bound(true);
  wide->sm_active = 0.82;
  wide->kernel_time = 0.85;
  encoder.profile = wide;
  const std::vector<ModelClient> beside_dlrm{
      {&encoder, 1, 0.82, std::nullopt}, {&dlrm, 1, 1.0, std::nullopt}, {&dlrm, 1, 1.0, std::nullopt}};
  const SliceOutcome wide_outcome = predict({Sharing::mps, kWholeH100Slice}, beside_dlrm, m);
  for (const ModelNote& n : wide_outcome.clients[0].notes) {
    EXPECT_NE(n.kind, ModelNote::Kind::saturation_wait);
  }
  // The same three capped at 30% leave a tenth of the SMs free: no wait.
  const ClientOutcome capped_without = run(false, 30);
  const ClientOutcome capped_with = run(true, 30);
  EXPECT_DOUBLE_EQ(*capped_with.req_per_s, *capped_without.req_per_s);
  EXPECT_DOUBLE_EQ(*capped_with.p99_ms, *capped_without.p99_ms);
}

}  // namespace
}  // namespace gpupack
