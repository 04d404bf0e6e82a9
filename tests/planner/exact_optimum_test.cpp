// On instances of up to 8 GPUs the planner uses exactly as many GPUs as an independent exhaustive search:
// every partition of the replicas into GPUs (dynamic programming over subsets), where a set of replicas
// fits one GPU when it fits as one whole-GPU slice or splits into MIG instances of a valid layout.
#include <gtest/gtest.h>

#include <cstdio>
#include <map>

#include "core/mig_layout.hpp"
#include "planner/demand.hpp"
#include "planner/plan_checker.hpp"
#include "planner/planner.hpp"
#include "planner/policy.hpp"
#include "planner/slice_state.hpp"
#include "scenario_builder.hpp"

namespace gpupack {

namespace {

class Oracle {
 public:
  explicit Oracle(const Scenario& s) : s_(s), d_(make_demands(s, ModelParameters{})), model_(s.fleet.front().model) {
    for (const auto& w : d_.workloads) {
      for (int i = 0; i < w.replicas; ++i) replicas_.push_back({w.workload, i});
    }
  }

  int min_gpus() {
    const unsigned all = (1u << replicas_.size()) - 1;
    std::vector<int> best(all + 1, 1000);
    best[0] = 0;
    for (unsigned mask = 1; mask <= all; ++mask) {
      const unsigned low = mask & (~mask + 1);
      // Every subset of mask that holds its lowest replica goes on one GPU.
      for (unsigned sub = mask; sub; sub = (sub - 1) & mask) {
        if (!(sub & low) || !fits_gpu(sub)) continue;
        best[mask] = std::min(best[mask], 1 + best[mask & ~sub]);
      }
    }
    return best[all];
  }

 private:
  // The replicas of `mask` in one slice of `spec`, added one by one (the rules are monotone).
  bool fits_slice(unsigned mask, const SliceSpec& spec) const {
    SliceState slice(spec, &policy_, &parameters_);
    for (size_t i = 0; i < replicas_.size(); ++i) {
      if (!(mask & (1u << i))) continue;
      const WorkloadDemand& w = d_.workloads[static_cast<size_t>(replicas_[i].workload)];
      if (slice.check(w) != Fit::ok) return false;
      slice.add(w, replicas_[i].replica);
    }
    return true;
  }

  bool fits_gpu(unsigned mask) {
    const auto it = gpu_memo_.find(mask);
    if (it != gpu_memo_.end()) return it->second;
    bool ok = fits_slice(mask, whole_gpu_spec(model_, s_.cuda, d_.reference_sms, s_.context_overhead_bytes, parameters_));
    if (!ok && model_.mig) {
      MigCounts counts(model_.mig->profiles.size(), 0);
      ok = split_into_instances(mask, counts);
    }
    gpu_memo_[mask] = ok;
    return ok;
  }

  bool split_into_instances(unsigned rest, MigCounts& counts) {
    if (rest == 0) return validate_layout(*model_.mig, counts).valid;
    const unsigned low = rest & (~rest + 1);
    for (unsigned sub = rest; sub; sub = (sub - 1) & rest) {
      if (!(sub & low)) continue;
      for (size_t p = 0; p < model_.mig->profiles.size(); ++p) {
        if (model_.mig->profiles[p].is_variant()) continue;
        if (!fits_slice(sub, mig_instance_spec(model_, static_cast<int>(p), s_.cuda, d_.reference_sms,
                                               s_.context_overhead_bytes, parameters_))) {
          continue;
        }
        counts[p] += 1;
        const bool ok = validate_layout(*model_.mig, counts).valid && split_into_instances(rest & ~sub, counts);
        counts[p] -= 1;
        if (ok) return true;
      }
    }
    return false;
  }

  const Scenario& s_;
  Demands d_;
  const GpuModel& model_;
  ModePolicy policy_ = policy_for(std::nullopt);
  ModelParameters parameters_;
  std::vector<ReplicaRef> replicas_;
  std::map<unsigned, bool> gpu_memo_;
};

}  // namespace

// The shape of the random instances of one test; round r varies it.
struct SmallShape {
  unsigned seed = 0;
  int rounds = 0;
  int workloads = 2;  // + r % 4
  int tenants = 1;    // + r % tenant_spread
  int tenant_spread = 3;
  double memory_gib[2] = {10, 18};  // odd, even rounds
  double compute[2] = {0.6, 0.35};  // rounds divisible by 3, others
  std::vector<const char*> models;  // round r plans on models[r % size]
};

// Calls `f(round, scenario)` for each random instance of at most 8 replicas on one GPU model (elastic).
template <typename F>
void for_each_small_instance(const SmallShape& shape, F f) {
  std::mt19937 rng(shape.seed);
  for (int round = 0; round < shape.rounds; ++round) {
    test::RandomOptions o;
    o.workloads = shape.workloads + round % 4;
    o.max_replicas = 2;
    o.tenants = shape.tenants + round % shape.tenant_spread;
    o.max_memory_gib = shape.memory_gib[round % 2 ? 0 : 1];
    o.max_compute = shape.compute[round % 3 ? 1 : 0];
    const char* model = shape.models[static_cast<size_t>(round) % shape.models.size()];
    const Scenario s = test::random_scenario(rng, {test::fleet(model, 1)}, true, o);
    if (total_replicas(s) <= 8) f(round, s);
  }
}

TEST(ExactOptimum, PlannerMatchesExhaustiveSearchOnSmallInstances) {
  int compared = 0;
  int multi_gpu = 0;
  const SmallShape shape{2024, 40, 2, 1, 3, {10, 18}, {0.6, 0.35}, {"A100-80GB", "A30", "L4", "H100-80GB"}};
  for_each_small_instance(shape, [&](int round, const Scenario& s) {
    const Plan p = make_plan(s, {});
    ASSERT_TRUE(check_plan(s, p, {}).empty()) << "round " << round;
    if (!p.unplaced.empty()) return;  // a replica that fits no slice: nothing to compare
    const int optimum = Oracle(s).min_gpus();
    EXPECT_EQ(p.summary.gpus_used, optimum) << "round " << round << " on " << s.fleet.front().model.name;
    EXPECT_TRUE(p.summary.exact) << "round " << round;
    EXPECT_LE(p.summary.lower_bound_gpus, optimum);
    ++compared;
    multi_gpu += optimum > 1 ? 1 : 0;
  });
  EXPECT_GE(compared, 30);
  EXPECT_GE(multi_gpu, 10);  // the instances are not all trivial
}

// The lower bound counts each tenant's needs apart (tenants share GPUs only through MIG instances): it
// must never exceed the true optimum, least of all with many tenants of unlike shapes on MIG GPUs.
TEST(ExactOptimum, LowerBoundNeverAboveTheOptimumWithManyTenants) {
  int compared = 0;
  int tight = 0;
  const SmallShape shape{99, 90, 4, 2, 4, {8, 30}, {0.55, 0.25}, {"A100-80GB", "A30", "H100-80GB", "L4"}};
  for_each_small_instance(shape, [&](int round, const Scenario& s) {
    const Plan p = make_plan(s, {});
    if (!p.unplaced.empty()) return;
    const int optimum = Oracle(s).min_gpus();
    EXPECT_LE(p.summary.lower_bound_gpus, optimum) << "round " << round;
    if (p.summary.exact) {
      EXPECT_EQ(p.summary.gpus_used, optimum) << "round " << round;
    }
    ++compared;
    tight += p.summary.lower_bound_gpus == optimum ? 1 : 0;
  });
  EXPECT_GE(compared, 30);
  EXPECT_GE(tight, compared / 2);  // the bound is informative, not just 1
  std::printf("compared %d, bound tight on %d\n", compared, tight);
}

}  // namespace gpupack
