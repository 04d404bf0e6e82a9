#include "verify/verify_verdict.hpp"

#include <gtest/gtest.h>

#include "core/exit_codes.hpp"
#include "verify_reports.hpp"

namespace gpupack::verify {
namespace {

using testing::alone;
using testing::one_slice;
using testing::run_of;

// Predicted: p99 2 x 5 = 10 ms, 0.5 x 100 = 50 req/s per replica; SLO 30 ms.
VerifyReport within_slo(double p99_a, double p99_b, double rps, bool strict = false) {
  VerifyReport r = compare(one_slice(2.0, 30.0), {run_of(p99_a, p99_b, rps)}, {alone(5, 100)}, 0.25);
  r.strict = strict;
  return r;
}

TEST(VerifyVerdict, EveryPredictionWithinTheToleranceAndEverySloHeldPasses) {
  const VerifyReport r = within_slo(11, 9, 55);
  EXPECT_EQ(report_verdict(r), Verdict::pass);
  EXPECT_EQ(verify_exit_code(r), exit_code::ok);
  EXPECT_EQ(verdict_text(r), "PASSED: every SLO held and every prediction within the tolerance");
  const auto j = to_json(r);
  EXPECT_EQ(j["verdict"], "pass");
  EXPECT_EQ(j["passed"], true);
  EXPECT_EQ(j["warnings"], 0);
  EXPECT_EQ(j["ok"], true);
}

// The case of issue 36: every SLO held, the replicas ran faster than predicted.
TEST(VerifyVerdict, APredictionErrorAloneIsAWarningAndExitsZero) {
  const VerifyReport r = within_slo(11, 12, 63);  // +26% req/s on both
  ASSERT_EQ(r.replicas.size(), 2u);
  EXPECT_EQ(replica_verdict(r.replicas[0]), Verdict::warn);
  EXPECT_TRUE(r.replicas[0].failures.empty());
  ASSERT_EQ(r.replicas[0].warnings.size(), 1u);
  EXPECT_EQ(r.replicas[0].warnings[0], "throughput +26% off the prediction (tolerance 25%)");
  EXPECT_EQ(report_verdict(r), Verdict::warn);
  EXPECT_EQ(verify_exit_code(r), exit_code::ok);
  EXPECT_EQ(verdict_text(r), "PASSED: every SLO held; 2 of 2 replicas ran off the prediction beyond 25% (warnings in the verdicts)");
  const auto j = to_json(r);
  EXPECT_EQ(j["verdict"], "warn");
  EXPECT_EQ(j["passed"], true);
  EXPECT_EQ(j["warnings"], 2);
  EXPECT_EQ(j["strict"], false);
  EXPECT_EQ(j["ok"], false);  // unchanged: every prediction within the tolerance too
  EXPECT_EQ(j["replicas"][0]["verdict"], "warn");
  EXPECT_EQ(j["replicas"][0]["warnings"].size(), 1u);
  EXPECT_TRUE(j["replicas"][0]["failures"].empty());
  EXPECT_EQ(j["replicas"][0]["problems"], j["replicas"][0]["warnings"]);  // "problems" keeps its meaning
}

// Issue 36's targets, apart from the tolerance: p99 within 25% and req/s within 15% at once.
TEST(VerifyVerdict, TheTargetsCountReplicasWithinBothAtOnce) {
  // p99 +10% and -10%, req/s +10%: both within; +26% req/s: neither; +16% req/s: past 15%, within the tolerance.
  EXPECT_EQ(targets_text(within_slo(11, 9, 55)), "predictions: 2 of 2 replicas within p99 25% and req/s 15% of measured");
  EXPECT_EQ(replicas_within_targets(within_slo(11, 12, 63)).within_both, 0);
  const VerifyReport r = within_slo(11, 9, 58);
  EXPECT_EQ(report_verdict(r), Verdict::pass);  // within the 25% tolerance
  const TargetCount c = replicas_within_targets(r);
  EXPECT_EQ(c.judged, 2);
  EXPECT_EQ(c.within_both, 0);
  const auto j = to_json(r);
  EXPECT_EQ(j["targets"]["judged"], 2);
  EXPECT_EQ(j["targets"]["within_both"], 0);
  EXPECT_DOUBLE_EQ(j["targets"]["req_per_s"].get<double>(), 0.15);
  // Without predictions nothing is judged and nothing is said.
  EXPECT_EQ(targets_text(compare(one_slice(2.0, 30.0), {run_of(11, 9, 55)}, {}, 0.25)), "");
}

TEST(VerifyVerdict, StrictMakesAPredictionErrorExitOne) {
  const VerifyReport r = within_slo(11, 12, 63, true);
  EXPECT_EQ(report_verdict(r), Verdict::warn);
  EXPECT_EQ(verify_exit_code(r), exit_code::negative);
  EXPECT_EQ(verdict_text(r),
            "FAILED (--strict): every SLO held, but 2 of 2 replicas ran off the prediction beyond 25% (see the verdicts)");
  EXPECT_EQ(to_json(r)["strict"], true);
  EXPECT_EQ(to_json(r)["passed"], true);  // the plan held; --strict fails the run on the model's error
  // Without an error --strict changes nothing.
  EXPECT_EQ(verify_exit_code(within_slo(11, 9, 55, true)), exit_code::ok);
}

TEST(VerifyVerdict, ABrokenSloFailsWhateverThePrediction) {
  const VerifyReport r = within_slo(31, 12, 63);  // replica 0 over its 30 ms SLO, both +26% req/s
  EXPECT_EQ(replica_verdict(r.replicas[0]), Verdict::fail);
  EXPECT_EQ(replica_verdict(r.replicas[1]), Verdict::warn);
  EXPECT_EQ(report_verdict(r), Verdict::fail);
  EXPECT_EQ(verify_exit_code(r), exit_code::negative);
  EXPECT_EQ(verdict_text(r),
            "FAILED: 1 of 2 replicas with an SLO broke it; 0 of 2 replicas failed a check (a crash, memory over its limit, "
            "no request reported: see the verdicts); warnings: 2 of 2 replicas ran off the prediction beyond 25%");
  const auto j = to_json(r);
  EXPECT_EQ(j["verdict"], "fail");
  EXPECT_EQ(j["passed"], false);
  EXPECT_EQ(j["replicas"][0]["verdict"], "fail");
  EXPECT_EQ(j["replicas"][1]["verdict"], "warn");
}

TEST(VerifyVerdict, MemoryOverItsLimitFailsWithEveryPredictionRight) {
  VerifySetup setup = one_slice(2.0, 30.0);
  setup.slices[0].replicas[1].memory_limit_bytes = 1024ull << 20;
  SessionRun run = run_of(10, 10, 50);
  run.slices[0][1].peak_memory_bytes = 1536ull << 20;
  const VerifyReport r = compare(setup, {run}, {alone(5, 100)}, 0.25);
  EXPECT_EQ(replica_verdict(r.replicas[0]), Verdict::pass);
  EXPECT_EQ(replica_verdict(r.replicas[1]), Verdict::fail);
  ASSERT_EQ(r.replicas[1].failures.size(), 1u);
  EXPECT_EQ(r.replicas[1].failures[0], "used 1536 MiB of GPU memory, over its limit of 1024 MiB");
  EXPECT_TRUE(r.replicas[1].warnings.empty());
  EXPECT_EQ(verify_exit_code(r), exit_code::negative);
  EXPECT_EQ(verdict_text(r).rfind("FAILED: 0 of 2 replicas with an SLO broke it; 1 of 2 replicas failed a check", 0), 0u) << verdict_text(r);
  EXPECT_EQ(to_json(r)["replicas"][1]["failures"][0], "used 1536 MiB of GPU memory, over its limit of 1024 MiB");
}

TEST(VerifyVerdict, ACrashFails) {
  SessionRun run = run_of(10, 10, 50);
  run.slices[0][0].exit_code = 139;
  run.slices[0][0].ended_early = true;
  const VerifyReport r = compare(one_slice(2.0, 30.0), {run}, {alone(5, 100)}, 0.25);
  EXPECT_EQ(replica_verdict(r.replicas[0]), Verdict::fail);
  EXPECT_EQ(r.replicas[0].failures[0], "crashed (exit code 139)");
  EXPECT_EQ(verify_exit_code(r), exit_code::negative);
}

TEST(VerifyVerdict, WithoutSlosTheVerdictSaysNoneWasChecked) {
  const VerifyReport warned = compare(one_slice(2.0, std::nullopt), {run_of(11, 12, 63)}, {alone(5, 100)}, 0.25);
  EXPECT_EQ(verify_exit_code(warned), exit_code::ok);
  EXPECT_EQ(verdict_text(warned), "PASSED: no crash, no memory over its limit (no SLO checked: --scenario gives them); 2 of 2 "
                                  "replicas ran off the prediction beyond 25% (warnings in the verdicts)");
}

}  // namespace
}  // namespace gpupack::verify
