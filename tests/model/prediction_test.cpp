// The model's one interface (model/prediction.hpp): what predict() gives for each kind of slice, and the
// plan keeping the packer's outcome (add_predictions then finds nothing to add).
#include "model/prediction.hpp"

#include <gtest/gtest.h>

#include "model/prediction_notes.hpp"
#include "model/profiled_slice.hpp"
#include "planner/plan_checker.hpp"
#include "planner/planner.hpp"
#include "planner/scenario_builder.hpp"

namespace gpupack {

namespace {

const SliceCapacity kH100{132, 3350};

Workload profiled(const std::string& name, double sm_active, double req_per_s, double p99_ms, double slo_ms) {
  Workload w = test::workload(name, 1, sm_active);
  w.profile = test::h100_profile(sm_active, req_per_s, p99_ms);
  w.latency_slo_ms = slo_ms;
  return w;
}

}  // namespace

TEST(Prediction, WithoutProfilesTheSyntheticModelAndItsOneNote) {
  Workload a = test::workload("a", 1, 0.3);
  a.latency_slo_ms = 10;  // p99 alone: half the SLO
  const ModelParameters m;
  const SliceOutcome o = predict({Sharing::mps, kH100}, {{&a, 1, 0.3, 35}, {&a, 1, 0.3, 35}}, m);
  ASSERT_EQ(o.clients.size(), 2u);
  EXPECT_GT(o.clients[0].inflation, 1.0);
  EXPECT_EQ(o.clients[0].source, kSyntheticSource);
  EXPECT_DOUBLE_EQ(*o.clients[0].p99_ms, 5.0 * o.clients[0].inflation);
  EXPECT_FALSE(o.host_cores);
  EXPECT_EQ(explain_outcome(o.clients[0], a, Sharing::mps, m),
            std::vector<std::string>{"no profile: predictions from the synthetic model"});
  // Only the inflations asked: no figures where they decide nothing.
  const SliceOutcome lean = predict({Sharing::mps, kH100}, {{&a, 1, 0.3, 35}, {&a, 1, 0.3, 35}}, m,
                                    PredictionDetail::inflation);
  EXPECT_EQ(lean.clients[0].inflation, o.clients[0].inflation);
  EXPECT_FALSE(lean.clients[0].p99_ms);
}

TEST(Prediction, AnMpsSliceOfProfiledClientsIsJudgedByTheirProfiles) {
  const Workload cnn = profiled("cnn", 0.1, 500, 4, 12);
  const Workload mlp = profiled("mlp", 0.4, 6000, 0.4, 1.5);
  const ModelParameters m;
  const std::vector<ModelClient> clients{{&cnn, 1, 0.1, 20}, {&mlp, 1, 0.4, 80}};
  const SliceOutcome o = predict({Sharing::mps, kH100}, clients, m, PredictionDetail::inflation);
  ASSERT_TRUE(o.host_cores);  // the profile model judged it
  for (size_t i = 0; i < clients.size(); ++i) {
    EXPECT_EQ(o.clients[i].source, kProfileSource);
    EXPECT_DOUBLE_EQ(o.clients[i].inflation, *o.clients[i].p99_ms / p99_alone_ms(*clients[i].workload, m));
  }
  // A parameter of the profile model moves the prediction: the launch path costs more per client.
  ModelParameters costly;
  costly.mps_launch_cost_per_client = 0.5;
  EXPECT_LT(*predict({Sharing::mps, kH100}, clients, costly).clients[0].req_per_s, *o.clients[0].req_per_s);
  // One client alone under its cap is not judged: its synthetic inflation (no neighbour: 1).
  const SliceOutcome alone = predict({Sharing::mps, kH100}, {clients[0]}, m);
  EXPECT_FALSE(alone.host_cores);
  EXPECT_DOUBLE_EQ(alone.clients[0].inflation, 1.0);
}

// plan --observed: a correction that makes the client faster holds only beside the workloads it was measured
// beside (run54); one that makes it slower holds everywhere; a client of no known workload is not one it
// was measured beside.
TEST(Prediction, AFasterCorrectionByObservationHoldsOnlyBesideWhatItWasMeasuredBeside) {
  Workload cnn = profiled("cnn", 0.1, 500, 4, 12);
  const Workload mlp = profiled("mlp", 0.4, 6000, 0.4, 1.5);
  const Workload gemm = profiled("gemm", 0.5, 100, 10, 100);
  SliceCapacity h100 = kH100;
  h100.gpu_model = "H100-SXM5-80GB";
  cnn.observed = {{"H100-SXM5-80GB", Sharing::mps, 0.8, 1.2, 3, {"v.json"}, {"mlp"}}};
  const ModelParameters m;
  const auto cnn_beside = [&](const Workload* other) {
    return predict({Sharing::mps, h100}, {{&cnn, 1, 0.1, 20}, {other, 1, 0.4, 40}}, m).clients[0];
  };
  const ClientOutcome seen = cnn_beside(&mlp);
  EXPECT_EQ(seen.observed_p99, 0.8);
  EXPECT_EQ(seen.observed_req, 1.2);
  EXPECT_TRUE(seen.observed_unseen.empty());
  const ClientOutcome unseen = cnn_beside(&gemm);
  EXPECT_FALSE(unseen.observed_p99);
  EXPECT_FALSE(unseen.observed_req);
  EXPECT_EQ(unseen.observed_unseen, std::vector<std::string>{"gemm"});
  EXPECT_NE(explain_outcome(unseen, cnn, Sharing::mps, m).back().find(
                "not its faster p99 x0.80, req/s x1.20: measured without gemm beside it"),
            std::string::npos)
      << explain_outcome(unseen, cnn, Sharing::mps, m).back();
  Workload plain = cnn;  // the model's own figures, nothing corrected
  plain.observed.clear();
  const ClientOutcome own = predict({Sharing::mps, h100}, {{&plain, 1, 0.1, 20}, {&gemm, 1, 0.4, 40}}, m).clients[0];
  EXPECT_DOUBLE_EQ(*unseen.p99_ms, *own.p99_ms);
  EXPECT_DOUBLE_EQ(*unseen.req_per_s, *own.req_per_s);
  EXPECT_FALSE(cnn_beside(nullptr).observed_p99);
  // Slower: taken beside the GEMM too.
  cnn.observed[0].p99 = 1.5;
  cnn.observed[0].req_per_s = 0.7;
  const ClientOutcome slower = cnn_beside(&gemm);
  EXPECT_EQ(slower.observed_p99, 1.5);
  EXPECT_EQ(slower.observed_req, 0.7);
}

TEST(Prediction, ThePlanKeepsThePackersOutcome) {
  Scenario s;
  s.fleet = {test::fleet("H100-SXM5-80GB", 1)};
  s.workloads = {profiled("cnn", 0.1, 500, 4, 12), profiled("mlp", 0.4, 6000, 0.4, 1.5)};
  s.workloads[0].replicas = 3;
  const PlanOptions options;
  Plan p = make_plan(s, options);
  ASSERT_TRUE(p.unplaced.empty());
  for (const auto& g : p.gpus) {
    for (const auto& sl : g.slices) {
      for (const auto& c : sl.clients) ASSERT_TRUE(c.prediction) << "every client carries its prediction";
    }
  }
  // Predicted again from the plan alone (what add_predictions does for a plan without them): the same.
  Plan again = p;
  for (auto& g : again.gpus) {
    for (auto& sl : g.slices) {
      for (auto& c : sl.clients) c.prediction.reset();
    }
  }
  add_predictions(s, again, options.parameters);
  for (size_t g = 0; g < p.gpus.size(); ++g) {
    for (size_t k = 0; k < p.gpus[g].slices.size(); ++k) {
      for (size_t i = 0; i < p.gpus[g].slices[k].clients.size(); ++i) {
        const ClientPrediction& kept = *p.gpus[g].slices[k].clients[i].prediction;
        const ClientPrediction& fresh = *again.gpus[g].slices[k].clients[i].prediction;
        EXPECT_EQ(kept.source, fresh.source);
        EXPECT_EQ(kept.p99_ms, fresh.p99_ms);
        EXPECT_EQ(kept.req_per_s, fresh.req_per_s);
        EXPECT_EQ(kept.host_cores, fresh.host_cores);
        EXPECT_EQ(kept.notes, fresh.notes);
      }
    }
  }
  EXPECT_EQ(check_plan(s, p, options.parameters), std::vector<std::string>{});
}

}  // namespace gpupack
